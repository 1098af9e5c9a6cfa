/* corpus: class=deadlock expect=bad np=3 hang=1 */
/* Rank 0 posts MPI_Irecv from ranks 1 and 2 and calls MPI_Waitall, but
 * only rank 1 sends: the second request can never complete (MPI 4.0
 * sections 3.7.3, 3.7.5). Hangs under MPICH 4.0.2. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, value, in[2] = {-1, -1};
    MPI_Request req[2];
    MPI_Status st[2];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    value = 50 + rank;
    if (rank == 0) {
        MPI_Irecv(&in[0], 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &req[0]);
        MPI_Irecv(&in[1], 1, MPI_INT, 2, 0, MPI_COMM_WORLD, &req[1]);
        MPI_Waitall(2, req, st);
        printf("rank 0: got %d %d\n", in[0], in[1]);
    } else if (rank == 1) {
        MPI_Send(&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
