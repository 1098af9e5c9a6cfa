/* corpus: class=rma expect=bad np=2 */
/* Each rank exposes 8 ints (disp_unit sizeof(int)); in a fence epoch rank 0
 * puts 4 ints at target_disp 6 of rank 1, i.e. elements 6..9 of an 8-int
 * window (MPI 4.0 sec. 12.3.1: the target buffer must fit in the target
 * window). MPICH 4.0.2: does not detect it, exits 0. */
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
        MPI_Put(val, 4, MPI_INT, 1, 6, 4, MPI_INT, win);
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
