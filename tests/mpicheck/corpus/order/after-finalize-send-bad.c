/* corpus: class=order expect=bad np=2 */
/* Rank 1 receives a value from rank 0; after both finalize, rank 0 sends a
 * second message that nobody receives.  Breaks MPI 4.0 sec. 11.2.2: MPI_Send
 * may not be called after MPI_Finalize.
 * MPICH 4.0.2 aborts: MPI routine used after finalizing. */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, v = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        v = 21;
        MPI_Send(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Recv(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    if (rank == 0)
        MPI_Send(&v, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
    return 0;
}
