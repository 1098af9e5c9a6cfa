/* corpus: class=rma expect=ok np=2 */
/* Rank 1 exposes its window to rank 0 (post/wait), then calls
 * MPI_Get_accumulate on rank 0 inside a lock/unlock access epoch (twin of
 * getacc-in-exposure-bad). Rank 0 puts with start/complete. */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, peer, buf[2] = {0, 0}, one = 1, old;
    MPI_Group world, pg;
    MPI_Win win;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    peer = 1 - rank;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 1, &peer, &pg);
    MPI_Win_create(buf, sizeof(buf), sizeof(int), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &win);
    if (rank == 0) {
        MPI_Win_start(pg, 0, win);
        MPI_Put(&one, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
        MPI_Win_complete(win);
    } else {
        MPI_Win_post(pg, 0, win);
        MPI_Win_wait(win);
        MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
        MPI_Get_accumulate(&one, 1, MPI_INT, &old, 1, MPI_INT, 0, 1, 1,
                           MPI_INT, MPI_SUM, win);
        MPI_Win_unlock(0, win);
    }
    MPI_Win_free(&win);
    MPI_Group_free(&pg);
    MPI_Group_free(&world);
    MPI_Finalize();
    return 0;
}
