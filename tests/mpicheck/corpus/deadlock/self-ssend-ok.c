/* corpus: class=deadlock expect=ok np=2 */
/* Twin of self-ssend-bad: rank 0 starts the synchronous send to itself with
 * MPI_Issend, receives with MPI_Recv, then completes the send (MPI 4.0
 * sections 3.4, 3.7). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, out = 8, in = -1;
    MPI_Request req;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Issend(&out, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &req);
        MPI_Recv(&in, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        printf("rank 0: got %d from itself\n", in);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
