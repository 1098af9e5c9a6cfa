/* corpus: class=rma expect=ok np=2 */
/* MPI_Win_allocate window; in a fence epoch rank 0 puts val[] to rank 1 and
 * overwrites val[0] only after the closing fence (twin of
 * put-origin-write-bad). */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, *base, val[2] = {1, 2};
    MPI_Win win;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_allocate(2 * sizeof(int), sizeof(int), MPI_INFO_NULL,
                     MPI_COMM_WORLD, &base, &win);
    MPI_Win_fence(0, win);
    if (rank == 0)
        MPI_Put(val, 2, MPI_INT, 1, 0, 2, MPI_INT, win);
    MPI_Win_fence(0, win);
    if (rank == 0)
        val[0] = 99;
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
