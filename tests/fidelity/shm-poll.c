/*
 * A store seen at an unsuccessful poll: rank 0 stores a value and a flag
 * into its part of a shared window 0.1 s after creating it; the others,
 * 0.5 s after, poll once with MPI_Iprobe (a tag nobody sends: it returns
 * false) and read the flag and the value right after it. The poll made no
 * progress, but the segment changed during it: the recorder logs that
 * poll on its own with the segment's changes, so the replay reads what
 * the recorded rank read (a poll folded into a repeat would bring
 * nothing). The timing only orders the store before the poll; a store
 * that landed between the poll and the read would be a race the replay
 * cannot reproduce (docs/replaying.md, "Limits").
 */
#include <time.h>

#include "shm-common.h"

static void pause_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
    MPI_Comm node = shm_start(&argc, &argv);
    volatile int *mine;
    MPI_Win win = shm_window(node, 2 * sizeof(int), sizeof(int),
                             MPI_INFO_NULL, &mine);
    volatile int *zero = shm_part(win, 0, NULL, NULL);
    if (shm_rank == 0) {
        pause_ms(100);
        zero[1] = 4242;
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
        zero[0] = 1;
    } else {
        int flag = -1;
        pause_ms(500);
        MPI_OK(MPI_Iprobe(MPI_ANY_SOURCE, 99, node, &flag,
                          MPI_STATUS_IGNORE));
        int seen = zero[0];
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
        prog_say("probe %d, flag %d, value %d", flag, seen, zero[1]);
    }
    MPI_OK(MPI_Barrier(node));
    prog_say("after the barrier: flag %d, value %d", zero[0], zero[1]);
    MPI_OK(MPI_Win_free(&win));
    MPI_Finalize();
    return 0;
}
