/* corpus: class=rma expect=bad np=2 */
/* After a fence epoch, rank 0 locks rank 1, puts, and calls the collective
 * MPI_Win_fence while the lock is still held (MPI 4.0 sec. 12.5, 12.5.1,
 * 12.5.3: fence and passive-target epochs must not overlap). MPICH 4.0.2:
 * rank 0 aborts in MPI_Win_fence, "Wrong synchronization of RMA calls". */
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
    MPI_Win_fence(0, win);
    if (rank == 0)
        MPI_Win_unlock(1, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
