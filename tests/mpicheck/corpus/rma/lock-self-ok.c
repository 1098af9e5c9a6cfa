/* corpus: class=rma expect=ok np=2 */
/* Each rank locks its own window (MPI_Win_lock of its own rank, MPI 4.0
 * sec. 12.5.3), puts to itself, unlocks, then reads itself back under a
 * shared lock. */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, *buf, val, got;
    MPI_Win win;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    val = rank + 1;
    MPI_Win_allocate(2 * sizeof(int), sizeof(int), MPI_INFO_NULL,
                     MPI_COMM_WORLD, &buf, &win);
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win);
    MPI_Put(&val, 1, MPI_INT, rank, 0, 1, MPI_INT, win);
    MPI_Win_unlock(rank, win);
    MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win);
    MPI_Get(&got, 1, MPI_INT, rank, 0, 1, MPI_INT, win);
    MPI_Win_unlock(rank, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
