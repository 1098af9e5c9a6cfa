/* corpus: class=rma expect=bad np=3 */
/* Window of 10 doubles per rank (disp_unit 8); inside lock_all, rank 2
 * accumulates into element 9 of rank 1 (correct), then into element 10, one
 * past the end of the window (MPI 4.0 sec. 12.3.1, 12.3.4: the target buffer
 * must fit in the target window). MPICH 4.0.2: does not detect it, exits 0. */
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
        MPI_Accumulate(&x, 1, MPI_DOUBLE, 1, 10, 1, MPI_DOUBLE, MPI_SUM, win);
        MPI_Win_unlock_all(win);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
