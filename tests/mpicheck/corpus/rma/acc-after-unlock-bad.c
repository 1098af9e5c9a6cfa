/* corpus: class=rma expect=bad np=2 */
/* Rank 0 locks rank 1, accumulates, unlocks, then calls MPI_Accumulate again
 * after MPI_Win_unlock, outside any passive-target access epoch (MPI 4.0
 * sec. 12.5, 12.5.3). MPICH 4.0.2: rank 0 aborts in MPI_Accumulate, "Wrong
 * synchronization of RMA calls". */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, buf[2] = {0, 0}, one = 1;
    MPI_Win win;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof(buf), sizeof(int), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &win);
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
        MPI_Accumulate(&one, 1, MPI_INT, 1, 0, 1, MPI_INT, MPI_SUM, win);
        MPI_Win_unlock(1, win);
        MPI_Accumulate(&one, 1, MPI_INT, 1, 1, 1, MPI_INT, MPI_SUM, win);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
