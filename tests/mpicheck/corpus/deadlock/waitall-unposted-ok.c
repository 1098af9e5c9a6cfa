/* corpus: class=deadlock expect=ok np=3 */
/* Twin of waitall-unposted-bad: ranks 1 and 2 both send, so both
 * receive requests of rank 0 complete in MPI_Waitall. */
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
    } else if (rank == 1 || rank == 2) {
        MPI_Send(&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
