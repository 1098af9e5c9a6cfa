/* corpus: class=arg expect=ok np=2 */
/* Two rounds of ping-pong between ranks 0 and 1 (correct twin of
 * source-negative-bad.c). */
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
            MPI_Recv(&x, 1, MPI_INT, 0, i, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            x++;
            MPI_Send(&x, 1, MPI_INT, 0, i, MPI_COMM_WORLD);
        }
    }
    MPI_Finalize();
    return 0;
}
