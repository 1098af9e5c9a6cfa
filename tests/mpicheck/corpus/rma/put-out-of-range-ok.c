/* corpus: class=rma expect=ok np=2 */
/* Each rank exposes 8 ints (disp_unit sizeof(int)); in a fence epoch rank 0
 * puts 4 ints at target_disp 4 of rank 1, the last 4 elements of the window
 * (twin of put-out-of-range-bad). */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, buf[8] = {0}, val[4] = {1, 2, 3, 4};
    MPI_Win win;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, 8 * sizeof(int), sizeof(int), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    if (rank == 0)
        MPI_Put(val, 4, MPI_INT, 1, 4, 4, MPI_INT, win);
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
