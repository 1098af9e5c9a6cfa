/* corpus: class=arg expect=bad np=2 */
/* Ping-pong between ranks 0 and 1; in the second round rank 1 receives with
 * source -5.  Breaks MPI 4.0 sec. 3.2.4: source must be a rank of the group,
 * MPI_ANY_SOURCE or MPI_PROC_NULL.
 * MPICH 4.0.2 aborts: Invalid rank. */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, i, x = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (i = 0; i < 2; i++) {
        if (rank == 0) {
            MPI_Send(&x, 1, MPI_INT, 1, i, MPI_COMM_WORLD);
            MPI_Recv(&x, 1, MPI_INT, 1, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank == 1) {
            MPI_Recv(&x, 1, MPI_INT, i == 0 ? 0 : -5, i, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            x++;
            MPI_Send(&x, 1, MPI_INT, 0, i, MPI_COMM_WORLD);
        }
    }
    MPI_Finalize();
    return 0;
}
