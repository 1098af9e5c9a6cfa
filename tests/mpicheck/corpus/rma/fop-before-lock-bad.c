/* corpus: class=rma expect=bad np=3 */
/* Ranks 1 and 2 add 1 to a counter on rank 0 with MPI_Fetch_and_op under
 * shared locks; rank 2 calls MPI_Fetch_and_op before its MPI_Win_lock,
 * outside any access epoch (MPI 4.0 sec. 12.5, 12.5.3). MPICH 4.0.2: rank 2
 * aborts in MPI_Fetch_and_op, "Wrong synchronization of RMA calls". */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank;
    long *base, one = 1, old;
    MPI_Win win;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_allocate(sizeof(long), sizeof(long), MPI_INFO_NULL,
                     MPI_COMM_WORLD, &base, &win);
    *base = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1) {
        MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
        MPI_Fetch_and_op(&one, &old, MPI_LONG, 0, 0, MPI_SUM, win);
        MPI_Win_unlock(0, win);
    } else if (rank == 2) {
        MPI_Fetch_and_op(&one, &old, MPI_LONG, 0, 0, MPI_SUM, win);
        MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
        MPI_Win_unlock(0, win);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
