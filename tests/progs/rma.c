/*
 * rma - one-sided communication with active (fence) and passive targets.
 *
 * 1. MPI_Win_create over a local int array; fence epochs with:
 *    MPI_Put of my block into my right neighbour's window, MPI_Get of my
 *    left neighbour's exposed block, MPI_Accumulate(MPI_SUM) of every rank
 *    into rank 0's window, MPI_Get_accumulate and MPI_Fetch_and_op on a
 *    counter at rank 0 (the fetched values are a permutation of the
 *    prefix sums, so only their set is checked), MPI_Compare_and_swap.
 * 2. MPI_Win_allocate: each rank MPI_Puts into every rank's window at a
 *    slot of its own, fence, then everyone checks its window; MPI_Win_get_attr
 *    (MPI_WIN_BASE, MPI_WIN_SIZE) and MPI_Win_get_group.
 * 3. Passive target: MPI_Win_lock(SHARED)/MPI_Win_unlock around a Get of the
 *    right neighbour's window.
 *
 *   mpiexec -n 1..4 ./rma
 */
#include "progs.h"

enum { B = 8 }; /* ints per block */

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    prog_start();
    int n = prog_size, me = prog_rank;
    int left = (me + n - 1) % n, right = (me + 1) % n;

    /* 1. Win_create over [0,B): exposed, [B,2B): put target,
     * [2B,3B): accumulate target (rank 0), [3B]: counter (rank 0) */
    int *mem = calloc(4 * B, sizeof(int));
    MPI_Win win;
    prog_fill(mem, B, me, 0, 1, 0);
    MPI_OK(MPI_Win_create(mem, 4 * B * sizeof(int), sizeof(int), MPI_INFO_NULL,
                          MPI_COMM_WORLD, &win));
    {
        int mine[B], got[B];
        prog_fill(mine, B, me, right, 2, 0);
        MPI_OK(MPI_Win_fence(0, win));
        MPI_OK(MPI_Put(mine, B, MPI_INT, right, B, B, MPI_INT, win));
        MPI_OK(MPI_Get(got, B, MPI_INT, left, 0, B, MPI_INT, win));
        int acc[B];
        for (int i = 0; i < B; i++)
            acc[i] = (me + 1) * (i + 1);
        MPI_OK(MPI_Accumulate(acc, B, MPI_INT, 0, 2 * B, B, MPI_INT, MPI_SUM,
                              win));
        MPI_OK(MPI_Win_fence(0, win));
        CHECK_PAYLOAD(got, B, left, 0, 1, 0);
        CHECK_PAYLOAD(mem + B, B, left, me, 2, 0);
        if (me == 0)
            for (int i = 0; i < B; i++)
                CHECK(mem[2 * B + i] == n * (n + 1) / 2 * (i + 1),
                      "accumulate [%d] = %d", i, mem[2 * B + i]);
        prog_sum(got, sizeof got);
        prog_sum(mem + B, B * sizeof(int));
        if (me == 0)
            prog_sum(mem + 2 * B, B * sizeof(int));
        prog_say("put, get, accumulate with fence ok");

        /* fetch-and-add on the counter: each rank adds me+1 */
        int add = me + 1, old = -1, gold = -1, gadd = 100;
        MPI_OK(MPI_Fetch_and_op(&add, &old, MPI_INT, 0, 3 * B, MPI_SUM, win));
        MPI_OK(MPI_Win_fence(0, win));
        /* The order of atomic updates varies: gather the fetched values,
         * they must be the prefix sums of some ordering of 1..n. */
        int *olds = malloc((size_t)n * sizeof(int));
        MPI_OK(MPI_Allgather(&old, 1, MPI_INT, olds, 1, MPI_INT,
                             MPI_COMM_WORLD));
        int zero_seen = 0;
        for (int r = 0; r < n; r++) {
            zero_seen += olds[r] == 0;
            int ok = olds[r] == 0;
            for (int q = 0; q < n && !ok; q++)
                ok = olds[q] + q + 1 == olds[r];
            CHECK(ok, "fetch_and_op value %d is not a prefix sum", olds[r]);
        }
        CHECK(zero_seen == 1, "%d ranks fetched 0", zero_seen);
        free(olds);
        if (me == 0)
            CHECK(mem[3 * B] == n * (n + 1) / 2, "counter %d", mem[3 * B]);
        MPI_OK(MPI_Get_accumulate(&gadd, 1, MPI_INT, &gold, 1, MPI_INT, 0,
                                  3 * B, 1, MPI_INT, MPI_NO_OP, win));
        MPI_OK(MPI_Win_fence(0, win));
        CHECK(gold == n * (n + 1) / 2, "get_accumulate NO_OP %d", gold);
        prog_sum_i(gold);

        /* compare-and-swap: only rank n-1's swap of the final value wins */
        int cmpv = n * (n + 1) / 2, newv = 1000 + me, res = -1;
        if (me == n - 1)
            MPI_OK(MPI_Compare_and_swap(&newv, &cmpv, &res, MPI_INT, 0, 3 * B,
                                        win));
        MPI_OK(MPI_Win_fence(0, win));
        if (me == n - 1)
            CHECK(res == cmpv, "compare_and_swap fetched %d", res);
        if (me == 0)
            CHECK(mem[3 * B] == 1000 + n - 1, "cas result %d", mem[3 * B]);
        prog_say("fetch_and_op, get_accumulate, compare_and_swap ok");
    }
    MPI_OK(MPI_Win_free(&win));
    CHECK(win == MPI_WIN_NULL, "win_free");

    /* 2. Win_allocate: slot r of every window is written by rank r */
    {
        int *base;
        MPI_Win aw;
        MPI_OK(MPI_Win_allocate((MPI_Aint)n * B * sizeof(int), sizeof(int),
                                MPI_INFO_NULL, MPI_COMM_WORLD, &base, &aw));
        for (int i = 0; i < n * B; i++)
            base[i] = -1;
        void *attr;
        int flag;
        MPI_OK(MPI_Win_get_attr(aw, MPI_WIN_BASE, &attr, &flag));
        CHECK(flag && attr == base, "win base");
        MPI_Aint *wsize;
        MPI_OK(MPI_Win_get_attr(aw, MPI_WIN_SIZE, &wsize, &flag));
        CHECK(flag && *wsize == (MPI_Aint)n * B * (MPI_Aint)sizeof(int),
              "win size");
        MPI_Group g;
        int gs;
        MPI_OK(MPI_Win_get_group(aw, &g));
        MPI_Group_size(g, &gs);
        CHECK(gs == n, "win group size %d", gs);
        MPI_OK(MPI_Group_free(&g));

        MPI_OK(MPI_Win_fence(0, aw));
        int (*outs)[B] = malloc((size_t)n * sizeof *outs);
        for (int t = 0; t < n; t++) {
            prog_fill(outs[t], B, me, t, 3, 0);
            MPI_OK(MPI_Put(outs[t], B, MPI_INT, t, me * B, B, MPI_INT, aw));
        }
        MPI_OK(MPI_Win_fence(0, aw));
        for (int r = 0; r < n; r++)
            CHECK_PAYLOAD(base + r * B, B, r, me, 3, 0);
        prog_sum(base, (size_t)n * B * sizeof(int));
        free(outs);
        prog_say("win_allocate: %d slots ok", n);

        /* 3. passive target: read the right neighbour's window */
        int got[B];
        MPI_OK(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, aw));
        MPI_OK(MPI_Get(got, B, MPI_INT, right, 0, B, MPI_INT, aw));
        MPI_OK(MPI_Win_unlock(right, aw));
        CHECK_PAYLOAD(got, B, 0, right, 3, 0);
        prog_sum(got, sizeof got);
        prog_say("lock/get/unlock of rank %d ok", right);
        MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
        MPI_OK(MPI_Win_free(&aw));
    }
    free(mem);
    return prog_finish();
}
