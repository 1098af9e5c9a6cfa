/* corpus: class=coll expect=ok np=3 */
/* Two outstanding MPI_Ibcast on one communicator, started in the same
 * order at every rank but completed in different orders (rank 0 waits for
 * the second first). Legal: only the starting order must agree (MPI 4.0 6.12). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, x = 0, y = 0;
    MPI_Request rx, ry;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        x = 3;
        y = 4;
    }
    MPI_Ibcast(&x, 1, MPI_INT, 0, MPI_COMM_WORLD, &rx);
    MPI_Ibcast(&y, 1, MPI_INT, 0, MPI_COMM_WORLD, &ry);
    if (rank == 0) {
        MPI_Wait(&ry, MPI_STATUS_IGNORE);
        MPI_Wait(&rx, MPI_STATUS_IGNORE);
    } else {
        MPI_Wait(&rx, MPI_STATUS_IGNORE);
        MPI_Wait(&ry, MPI_STATUS_IGNORE);
    }
    printf("rank %d: x %d y %d\n", rank, x, y);
    MPI_Finalize();
    return 0;
}
