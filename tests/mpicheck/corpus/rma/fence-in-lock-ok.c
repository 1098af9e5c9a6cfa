/* corpus: class=rma expect=ok np=2 */
/* After a correct fence epoch, rank 0 locks rank 1, puts and unlocks; then
 * all ranks call MPI_Win_fence (twin of fence-in-lock-bad). */
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
    if (rank == 1)
        MPI_Put(&val[0], 1, MPI_INT, 0, 0, 1, MPI_INT, win);
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
        MPI_Put(&val[1], 1, MPI_INT, 1, 1, 1, MPI_INT, win);
    }
    if (rank == 0)
        MPI_Win_unlock(1, win);
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
