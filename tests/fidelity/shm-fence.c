/*
 * A shared-memory window synchronized by MPI_Win_fence: each epoch every
 * rank stores into its own part and into a slot of its right neighbour's,
 * puts a value into its left neighbour's part with MPI_Put and gets one
 * from its right neighbour with MPI_Get (RMA operations on a shared window
 * work too); after the closing fence it prints what it reads in its own
 * part and its left neighbour's, and what MPI_Get returned.
 */
#include "shm-common.h"

enum { N = 16, EPOCHS = 4 };

int main(int argc, char **argv)
{
    MPI_Comm node = shm_start(&argc, &argv);
    int left = (shm_rank + shm_size - 1) % shm_size;
    int right = (shm_rank + 1) % shm_size;
    long *mine;
    MPI_Win win = shm_window(node, N * sizeof(long), sizeof(long),
                             MPI_INFO_NULL, &mine);
    long *lp = shm_part(win, left, NULL, NULL);
    long *rp = shm_part(win, right, NULL, NULL);
    MPI_OK(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
    for (int e = 0; e < EPOCHS; e++) {
        long put = 100000L * e + shm_rank, got = -1;
        for (int i = 0; i < N - 2; i++)
            mine[i] = e * 100 + shm_rank * 10 + i;
        rp[N - 2] = -(e * 10 + shm_rank); /* the neighbour's slot N-2 */
        MPI_OK(MPI_Put(&put, 1, MPI_LONG, left, N - 1, 1, MPI_LONG, win));
        MPI_OK(MPI_Win_fence(0, win));
        MPI_OK(MPI_Get(&got, 1, MPI_LONG, right, 3, 1, MPI_LONG, win));
        MPI_OK(MPI_Win_fence(0, win));
        prog_say("epoch %d: own %016llx slot %ld put-in %ld; left %016llx "
                "%ld; got %ld", e,
                (unsigned long long)shm_sum(mine, N * sizeof(long)),
                mine[N - 2], mine[N - 1],
                (unsigned long long)shm_sum(lp, N * sizeof(long)), lp[0],
                got);
        MPI_OK(MPI_Win_fence(0, win)); /* read before the next stores */
    }
    MPI_OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    MPI_OK(MPI_Win_free(&win));
    MPI_Finalize();
    return 0;
}
