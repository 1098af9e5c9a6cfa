/* corpus: class=rma expect=ok np=2 */
/* Rank 1 locks rank 0, puts, unlocks, then opens and closes an empty
 * lock/unlock epoch on rank 0 (twin of unlock-no-lock-bad; an epoch without
 * RMA operations is legal). */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, *base, val = 9;
    MPI_Win win;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL,
                     MPI_COMM_WORLD, &base, &win);
    if (rank == 1) {
        MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
        MPI_Put(&val, 1, MPI_INT, 0, 2, 1, MPI_INT, win);
        MPI_Win_unlock(0, win);
        MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
        MPI_Win_unlock(0, win);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
