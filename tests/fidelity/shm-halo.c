/*
 * A halo exchange through a shared-memory window (the MPI-3 shared-memory
 * model): each rank smooths its part of a ring of values, reading its
 * neighbours' boundary values directly from their parts, with
 * MPI_Win_sync + MPI_Barrier + MPI_Win_sync between the reads and the
 * writes, inside one MPI_Win_lock_all epoch. Prints the halo values it
 * read and a checksum of its part each iteration, and at the end a
 * checksum of the whole segment as it sees it.
 */
#include <string.h>

#include "shm-common.h"

enum { N = 32, ITERS = 5 };

static void sync_all(MPI_Win win, MPI_Comm node)
{
    MPI_OK(MPI_Win_sync(win));
    MPI_OK(MPI_Barrier(node));
    MPI_OK(MPI_Win_sync(win));
}

int main(int argc, char **argv)
{
    MPI_Comm node = shm_start(&argc, &argv);
    int left = (shm_rank + shm_size - 1) % shm_size;
    int right = (shm_rank + 1) % shm_size;
    double *mine, old[N + 2];
    MPI_Aint size;
    int unit;
    MPI_Win win = shm_window(node, N * sizeof(double), sizeof(double),
                             MPI_INFO_NULL, &mine);
    double *lp = shm_part(win, left, &size, &unit);
    double *rp = shm_part(win, right, NULL, NULL);
    prog_say("left part %ld bytes, unit %d", (long)size, unit);

    MPI_OK(MPI_Win_lock_all(MPI_MODE_NOCHECK, win));
    for (int i = 0; i < N; i++)
        mine[i] = shm_rank * 1000 + i * (shm_rank + 1);
    sync_all(win, node);
    for (int it = 0; it < ITERS; it++) {
        old[0] = lp[N - 1];
        old[N + 1] = rp[0];
        memcpy(old + 1, mine, sizeof(double) * N);
        sync_all(win, node); /* every rank has read before anyone writes */
        for (int i = 0; i < N; i++)
            mine[i] = (old[i] + 2 * old[i + 1] + old[i + 2]) / 4 + it;
        sync_all(win, node);
        prog_say("iter %d: halo %.6f %.6f, part %016llx", it, old[0],
                 old[N + 1], shm_sum(mine, N * sizeof(double)));
    }
    MPI_OK(MPI_Win_unlock_all(win));

    /* The whole segment (contiguous: rank 0's part first). */
    double *first = shm_part(win, 0, NULL, NULL);
    prog_say("segment %016llx, rank 0 ends at %.6f",
            shm_sum(first, sizeof(double) * N * shm_size),
            first[N - 1]);
    MPI_OK(MPI_Win_free(&win));
    MPI_Finalize();
    return 0;
}
