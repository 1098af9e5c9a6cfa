/* corpus: class=rma expect=bad np=2 */
/* Rank 0 locks rank 1 and, while that lock is held, calls MPI_Win_lock on
 * rank 1 again (nested lock of the same target; MPI 4.0 sec. 12.5 and
 * 12.5.3: access epochs to the same target must be disjoint). MPICH 4.0.2:
 * rank 0 aborts in MPI_Win_lock, "Wrong synchronization of RMA calls". */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, *base, got[2];
    MPI_Win win;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_allocate(2 * sizeof(int), sizeof(int), MPI_INFO_NULL,
                     MPI_COMM_WORLD, &base, &win);
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
        MPI_Get(&got[0], 1, MPI_INT, 1, 0, 1, MPI_INT, win);
        MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
        MPI_Get(&got[1], 1, MPI_INT, 1, 1, 1, MPI_INT, win);
        MPI_Win_unlock(1, win);
        MPI_Win_unlock(1, win);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
