/* corpus: class=rma expect=ok np=3 */
/* MPI_Win_allocate of 10 doubles per rank with disp_unit sizeof(double);
 * inside lock_all, rank 2 accumulates into elements 9 and 0 of rank 1
 * (twin of acc-out-of-range-bad). */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank;
    double *base, x = 1.5;
    MPI_Win win;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_allocate(10 * sizeof(double), sizeof(double), MPI_INFO_NULL,
                     MPI_COMM_WORLD, &base, &win);
    if (rank == 2) {
        MPI_Win_lock_all(0, win);
        MPI_Accumulate(&x, 1, MPI_DOUBLE, 1, 9, 1, MPI_DOUBLE, MPI_SUM, win);
        MPI_Accumulate(&x, 1, MPI_DOUBLE, 1, 0, 1, MPI_DOUBLE, MPI_SUM, win);
        MPI_Win_unlock_all(win);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
