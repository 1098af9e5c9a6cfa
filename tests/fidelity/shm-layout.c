/*
 * The layout of a shared-memory window, contiguous and with
 * alloc_shared_noncontig: parts of different sizes and displacement units,
 * an empty part (rank 1), MPI_Win_shared_query of every rank and of
 * MPI_PROC_NULL, MPI_WIN_BASE/SIZE/DISP_UNIT. Each rank stores into its
 * own part and into its right neighbour's, and after MPI_Win_sync +
 * MPI_Barrier prints, for every part, its size, unit, offset from the
 * first part, and the checksum and first bytes of what it reads there.
 */
#include <string.h>

#include "shm-common.h"

/* Bytes of rank R's part: rank 1's is empty. */
static MPI_Aint part_bytes(int r)
{
    return r == 1 ? 0 : 40 + 24 * r;
}

static void show(MPI_Win win, const char *first, int q)
{
    MPI_Aint size;
    int unit;
    unsigned char *p = shm_part(win, q, &size, &unit);
    if (!p) {
        prog_say("  part %d: %ld bytes, unit %d, no address", q, (long)size,
                unit);
        return;
    }
    prog_say("  part %d: %ld bytes, unit %d, at +%ld: %016llx %u %u", q,
            (long)size, unit, (long)((const char *)p - first),
            (unsigned long long)shm_sum(p, (size_t)size), p[0],
            p[size - 1]);
}

static void layout(MPI_Comm node, int noncontig)
{
    MPI_Info info;
    unsigned char *mine;
    MPI_OK(MPI_Info_create(&info));
    if (noncontig)
        MPI_OK(MPI_Info_set(info, "alloc_shared_noncontig", "true"));
    MPI_Win win = shm_window(node, part_bytes(shm_rank), shm_rank + 1, info,
                             &mine);
    MPI_OK(MPI_Info_free(&info));
    prog_say("%s: own part %s", noncontig ? "noncontig" : "contig",
            mine ? "present" : "NULL");

    void *attr;
    MPI_Aint *asize;
    int *aunit, flag;
    MPI_OK(MPI_Win_get_attr(win, MPI_WIN_BASE, &attr, &flag));
    prog_say("  MPI_WIN_BASE %s", flag && attr == mine ? "is baseptr"
                                                      : "differs");
    MPI_OK(MPI_Win_get_attr(win, MPI_WIN_SIZE, &asize, &flag));
    MPI_OK(MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &aunit, &flag));
    prog_say("  MPI_WIN_SIZE %ld, MPI_WIN_DISP_UNIT %d", (long)*asize, *aunit);

    /* Own part, then the right neighbour's last byte (it owns the rest). */
    MPI_OK(MPI_Win_lock_all(0, win));
    for (MPI_Aint i = 0; i < part_bytes(shm_rank); i++)
        mine[i] = (unsigned char)(shm_rank * 50 + i + noncontig);
    MPI_OK(MPI_Win_sync(win));
    MPI_OK(MPI_Barrier(node));
    MPI_OK(MPI_Win_sync(win));
    int right = (shm_rank + 1) % shm_size;
    MPI_Aint rsize;
    unsigned char *rp = shm_part(win, right, &rsize, NULL);
    if (rsize > 0)
        rp[0] = (unsigned char)(200 + shm_rank);
    MPI_OK(MPI_Win_sync(win));
    MPI_OK(MPI_Barrier(node));
    MPI_OK(MPI_Win_sync(win));

    MPI_Aint fsize;
    int funit;
    char *first = shm_part(win, MPI_PROC_NULL, &fsize, &funit);
    prog_say("  MPI_PROC_NULL: %ld bytes, unit %d", (long)fsize, funit);
    for (int q = 0; q < shm_size; q++)
        show(win, first, q);
    MPI_OK(MPI_Win_unlock_all(win));
    MPI_OK(MPI_Win_free(&win));
}

int main(int argc, char **argv)
{
    MPI_Comm node = shm_start(&argc, &argv);
    layout(node, 0);
    layout(node, 1);
    MPI_Finalize();
    return 0;
}
