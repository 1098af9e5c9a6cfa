/*
 * Passive target on a shared-memory window: inside MPI_Win_lock_all, each
 * rank adds to a counter in rank 0's part with MPI_Fetch_and_op +
 * MPI_Win_flush, stores a block directly into its right neighbour's part
 * and completes it with MPI_Win_flush(right) + MPI_Win_sync, then tells the
 * neighbour with a message; the neighbour does MPI_Win_sync and reads its
 * own part. Prints the counter values it fetched, the block it found in its
 * part, and, after MPI_Win_flush_all + MPI_Barrier, the final counter.
 */
#include "shm-common.h"

enum { N = 24, ROUNDS = 3 };

int main(int argc, char **argv)
{
    MPI_Comm node = shm_start(&argc, &argv);
    int left = (shm_rank + shm_size - 1) % shm_size;
    int right = (shm_rank + 1) % shm_size;
    int *mine;
    MPI_Win win = shm_window(node, (N + 1) * sizeof(int), sizeof(int),
                             MPI_INFO_NULL, &mine);
    int *rp = shm_part(win, right, NULL, NULL);
    int *counter = shm_part(win, 0, NULL, NULL);
    MPI_OK(MPI_Win_lock_all(0, win));
    for (int k = 0; k < ROUNDS; k++) {
        int one = k + 1, old = -1, token;
        MPI_OK(MPI_Fetch_and_op(&one, &old, MPI_INT, 0, N, MPI_SUM, win));
        MPI_OK(MPI_Win_flush(0, win));
        for (int i = 0; i < N; i++)
            rp[i] = shm_rank * 100 + k * 10 + i;
        MPI_OK(MPI_Win_flush(right, win));
        MPI_OK(MPI_Win_sync(win));
        MPI_OK(MPI_Sendrecv(&k, 1, MPI_INT, right, k, &token, 1, MPI_INT,
                            left, k, node, MPI_STATUS_IGNORE));
        MPI_OK(MPI_Win_sync(win));
        prog_say("round %d: fetched %d, part %016llx: %d %d", k, old,
                (unsigned long long)shm_sum(mine, N * sizeof(int)), mine[0],
                mine[N - 1]);
        /* Nobody stores into a part before its owner has read it. */
        MPI_OK(MPI_Barrier(node));
    }
    MPI_OK(MPI_Win_flush_all(win));
    MPI_OK(MPI_Barrier(node));
    MPI_OK(MPI_Win_sync(win));
    prog_say("counter %d", counter[N]);
    MPI_OK(MPI_Win_unlock_all(win));
    MPI_OK(MPI_Win_free(&win));
    MPI_Finalize();
    return 0;
}
