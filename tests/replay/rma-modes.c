/*
 * rma-modes - the one-sided communication (RMA) cases tests/progs/rma.c
 * leaves out, for the replay test: each rank replayed alone must see the
 * same window contents and operation results as when recorded.
 *
 * 1. Passive target, then a barrier: every rank locks its right neighbour's
 *    window, MPI_Puts into it and MPI_Accumulates into rank 0's counter,
 *    unlocks; after MPI_Barrier each rank reads its own window with no RMA
 *    call in between. Then MPI_Fetch_and_op on the counter completed by
 *    MPI_Win_flush, and a read under MPI_Win_lock + MPI_Win_sync; a
 *    window attribute of the program's own, deleted by MPI_Win_free.
 * 2. A dynamic window: MPI_Win_create_dynamic, MPI_Win_attach, addresses
 *    exchanged with MPI_Allgather, a fence epoch of MPI_Puts, then a
 *    passive one (MPI_Win_lock_all) followed by a barrier, MPI_Win_detach.
 * 3. Request-based: MPI_Rget + MPI_Wait and MPI_Rget_accumulate (MPI_NO_OP)
 *    + MPI_Waitall under MPI_Win_lock_all.
 * 4. An MPI_Get whose origin datatype is a vector (every other int),
 *    freed before the fence that completes the MPI_Get.
 * 5. Post/start/complete/wait: an MPI_Put epoch ended by polling
 *    MPI_Win_test, then an MPI_Get epoch ended by MPI_Win_wait.
 * 6. Scattered runs of bytes put through an indexed target datatype into
 *    a 70000-byte window: window changes of many shapes.
 *
 *   mpiexec -n 1..4 ./rma-modes          the above
 *   mpiexec -n 1 ./rma-modes shared      MPI_Win_allocate_shared on
 *                                        MPI_COMM_SELF
 */
#include <string.h>

#include "progs.h"

enum { B = 8 }; /* ints per block */

static int deletes; /* calls of count_delete */

static int count_delete(MPI_Win win, int keyval, void *val, void *extra)
{
    deletes++;
    return MPI_SUCCESS;
}

static int cmp_int(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

/* 1. Passive target writes seen after a barrier. */
static void passive(int me, int n, int left, int right)
{
    /* [0,B): written by the left neighbour; [B]: the counter (rank 0) */
    int *mem = calloc(B + 1, sizeof(int));
    MPI_Win win;
    MPI_OK(MPI_Win_create(mem, (B + 1) * sizeof(int), sizeof(int),
                          MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    int mine[B], add = me + 1;
    prog_fill(mine, B, me, right, 4, 0);
    MPI_OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win));
    MPI_OK(MPI_Put(mine, B, MPI_INT, right, 0, B, MPI_INT, win));
    MPI_OK(MPI_Win_unlock(right, win));
    MPI_OK(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
    MPI_OK(MPI_Accumulate(&add, 1, MPI_INT, 0, B, 1, MPI_INT, MPI_SUM, win));
    MPI_OK(MPI_Win_unlock(0, win));
    MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
    /* No RMA call since the barrier: the window holds what others wrote. */
    CHECK_PAYLOAD(mem, B, left, me, 4, 0);
    if (me == 0)
        CHECK(mem[B] == n * (n + 1) / 2, "counter %d", mem[B]);
    prog_sum(mem, (B + 1) * sizeof(int));
    prog_say("passive put and accumulate, seen after a barrier ok");

    /* Fetch-and-add, completed by a flush: the values fetched are 0, 1,
     * ..., n-1 plus the counter, in an order that varies. */
    int one = 1, old = -1;
    MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
    MPI_OK(MPI_Win_lock_all(0, win));
    MPI_OK(MPI_Fetch_and_op(&one, &old, MPI_INT, 0, B, MPI_SUM, win));
    MPI_OK(MPI_Win_flush(0, win));
    MPI_OK(MPI_Win_unlock_all(win));
    int *olds = malloc((size_t)n * sizeof(int));
    MPI_OK(MPI_Allgather(&old, 1, MPI_INT, olds, 1, MPI_INT,
                         MPI_COMM_WORLD));
    qsort(olds, (size_t)n, sizeof(int), cmp_int);
    for (int r = 0; r < n; r++)
        CHECK(olds[r] == n * (n + 1) / 2 + r, "fetched %d", olds[r]);
    free(olds);
    prog_sum_i(old);
    MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
    MPI_OK(MPI_Win_lock(MPI_LOCK_SHARED, me, 0, win));
    MPI_OK(MPI_Win_sync(win));
    if (me == 0)
        CHECK(mem[B] == n * (n + 1) / 2 + n, "counter %d", mem[B]);
    prog_sum(mem, (B + 1) * sizeof(int));
    MPI_OK(MPI_Win_unlock(me, win));
    prog_say("fetch_and_op completed by flush ok");

    /* A window attribute of the program's own: MPI_Win_free deletes it. */
    int key, flag = 0;
    void *val = NULL;
    MPI_OK(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, count_delete, &key,
                                 NULL));
    MPI_OK(MPI_Win_set_attr(win, key, &deletes));
    MPI_OK(MPI_Win_get_attr(win, key, &val, &flag));
    CHECK(flag && val == &deletes, "window attribute %d %p", flag, val);
    MPI_OK(MPI_Win_free(&win));
    CHECK(deletes == 1, "%d delete callbacks", deletes);
    MPI_OK(MPI_Win_free_keyval(&key));
    prog_say("window attribute deleted by win_free ok");
    free(mem);
}

/* 2. A dynamic window with an attached buffer. */
static void dynamic(int me, int n, int left, int right)
{
    MPI_Win win;
    int *buf = calloc(B, sizeof(int));
    MPI_Aint addr, *addrs = malloc((size_t)n * sizeof(MPI_Aint));
    MPI_OK(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    MPI_OK(MPI_Win_attach(win, buf, B * sizeof(int)));
    MPI_OK(MPI_Get_address(buf, &addr));
    MPI_OK(MPI_Allgather(&addr, 1, MPI_AINT, addrs, 1, MPI_AINT,
                         MPI_COMM_WORLD));
    int mine[B];
    prog_fill(mine, B, me, right, 5, 0);
    MPI_OK(MPI_Win_fence(0, win));
    MPI_OK(MPI_Put(mine, B, MPI_INT, right, addrs[right], B, MPI_INT, win));
    MPI_OK(MPI_Win_fence(0, win));
    CHECK_PAYLOAD(buf, B, left, me, 5, 0);
    prog_sum(buf, B * sizeof(int));

    prog_fill(mine, B, me, right, 6, 0);
    MPI_OK(MPI_Win_lock_all(0, win));
    MPI_OK(MPI_Put(mine, B / 2, MPI_INT, right, addrs[right], B / 2, MPI_INT,
                   win));
    MPI_OK(MPI_Win_unlock_all(win));
    MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
    MPI_OK(MPI_Win_detach(win, buf));
    CHECK_PAYLOAD(buf, B / 2, left, me, 6, 0);
    for (int i = B / 2; i < B; i++)
        CHECK(buf[i] == prog_payload(left, me, 5, 0, i), "element %d", i);
    prog_sum(buf, B * sizeof(int));
    MPI_OK(MPI_Win_free(&win));
    free(addrs);
    free(buf);
    prog_say("dynamic window: attach, fence, lock_all, detach ok");
}

/* 3. and 4.: a window every rank fills with payload (tag 7) first. */
static void requests_and_types(int me, int left, int right)
{
    int src[B];
    MPI_Win win;
    prog_fill(src, B, me, 0, 7, 0);
    MPI_OK(MPI_Win_create(src, sizeof src, sizeof(int), MPI_INFO_NULL,
                          MPI_COMM_WORLD, &win));
    int got[B], res = -1;
    MPI_Request reqs[2];
    MPI_Status sts[2];
    MPI_OK(MPI_Win_lock_all(0, win));
    MPI_OK(MPI_Rget(got, B, MPI_INT, left, 0, B, MPI_INT, win, &reqs[0]));
    MPI_OK(MPI_Wait(&reqs[0], MPI_STATUS_IGNORE));
    MPI_OK(MPI_Rget_accumulate(NULL, 0, MPI_INT, &res, 1, MPI_INT, right,
                               B - 1, 1, MPI_INT, MPI_NO_OP, win, &reqs[0]));
    MPI_OK(MPI_Rget(got + B / 2, B / 2, MPI_INT, right, 0, B / 2, MPI_INT,
                    win, &reqs[1]));
    MPI_OK(MPI_Waitall(2, reqs, sts));
    MPI_OK(MPI_Win_unlock_all(win));
    CHECK_PAYLOAD(got, B / 2, left, 0, 7, 0);
    CHECK_PAYLOAD(got + B / 2, B / 2, right, 0, 7, 0);
    CHECK(res == prog_payload(right, 0, 7, 0, B - 1), "rget_accumulate %d",
          res);
    prog_sum(got, sizeof got);
    prog_sum_i(res);
    prog_say("rget + wait, rget_accumulate + waitall ok");

    /* Every other int of STRIDED gets the right neighbour's block. */
    int strided[2 * B];
    MPI_Datatype vec;
    for (int i = 0; i < 2 * B; i++)
        strided[i] = -1;
    MPI_OK(MPI_Type_vector(B, 1, 2, MPI_INT, &vec));
    MPI_OK(MPI_Type_commit(&vec));
    MPI_OK(MPI_Win_fence(0, win));
    MPI_OK(MPI_Get(strided, 1, vec, right, 0, B, MPI_INT, win));
    MPI_OK(MPI_Type_free(&vec)); /* allowed: the operation has started */
    MPI_OK(MPI_Win_fence(0, win));
    for (int i = 0; i < B; i++) {
        CHECK(strided[2 * i] == prog_payload(right, 0, 7, 0, i),
              "strided element %d: %d", 2 * i, strided[2 * i]);
        CHECK(strided[2 * i + 1] == -1, "gap %d written", 2 * i + 1);
    }
    prog_sum(strided, sizeof strided);
    prog_say("get into a vector datatype ok");
    MPI_OK(MPI_Win_free(&win));
}

/* 5. Generalized active target. */
static void pscw(int me, int left, int right)
{
    int mem[B] = {0}, mine[B], got[B], flag = 0, polls = 0;
    MPI_Win win;
    MPI_Group world, lg, rg;
    MPI_OK(MPI_Comm_group(MPI_COMM_WORLD, &world));
    MPI_OK(MPI_Group_incl(world, 1, &left, &lg));
    MPI_OK(MPI_Group_incl(world, 1, &right, &rg));
    MPI_OK(MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL,
                          MPI_COMM_WORLD, &win));
    prog_fill(mine, B, me, right, 8, 0);
    MPI_OK(MPI_Win_post(lg, 0, win));
    MPI_OK(MPI_Win_start(rg, 0, win));
    MPI_OK(MPI_Put(mine, B, MPI_INT, right, 0, B, MPI_INT, win));
    MPI_OK(MPI_Win_complete(win));
    while (!flag) {
        MPI_OK(MPI_Win_test(win, &flag));
        polls++;
    }
    CHECK(polls > 0, "polls");
    CHECK_PAYLOAD(mem, B, left, me, 8, 0);
    prog_sum(mem, sizeof mem);

    MPI_OK(MPI_Win_post(lg, 0, win));
    MPI_OK(MPI_Win_start(rg, 0, win));
    MPI_OK(MPI_Get(got, B, MPI_INT, right, 0, B, MPI_INT, win));
    MPI_OK(MPI_Win_complete(win));
    MPI_OK(MPI_Win_wait(win));
    CHECK_PAYLOAD(got, B, me, right, 8, 0);
    prog_sum(got, sizeof got);
    MPI_OK(MPI_Win_free(&win));
    MPI_OK(MPI_Group_free(&lg));
    MPI_OK(MPI_Group_free(&rg));
    MPI_OK(MPI_Group_free(&world));
    prog_say("post/start/complete/test and wait ok");
}

/* 6. Scattered bytes: the left neighbour puts runs of 1 to 3 bytes with
 * gaps of 1 to 400 bytes into a 70000-byte window, twice with different
 * values (some runs rewrite a byte with its value), through an indexed
 * target datatype: window changes of every shape. */
enum { SB = 70000, NBLK = 300 };

static int scatter_pattern(int src, int round, int *lens, int *displs,
                           unsigned char *bytes)
{
    int off = round * 5, total = 0;
    for (int k = 0; k < NBLK; k++) {
        lens[k] = 1 + (k + round) % 3;
        displs[k] = off;
        for (int j = 0; j < lens[k]; j++, total++)
            bytes[total] = (k + j) % 11 == 0
                               ? 0
                               : (unsigned char)(src * 31 + round * 7 + k + j);
        off += lens[k] + 1 + (k * k + round) % 400;
    }
    CHECK(off <= SB, "pattern overflows: %d", off);
    return total;
}

static void scattered(int me, int left, int right)
{
    unsigned char *mem = calloc(SB, 1), *want = calloc(SB, 1);
    unsigned char bytes[3 * NBLK];
    int lens[NBLK], displs[NBLK];
    MPI_Win win;
    MPI_OK(MPI_Win_create(mem, SB, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    for (int round = 0; round < 2; round++) {
        MPI_Datatype idx;
        int total = scatter_pattern(me, round, lens, displs, bytes);
        MPI_OK(MPI_Type_indexed(NBLK, lens, displs, MPI_BYTE, &idx));
        MPI_OK(MPI_Type_commit(&idx));
        MPI_OK(MPI_Win_fence(0, win));
        MPI_OK(MPI_Put(bytes, total, MPI_BYTE, right, 0, 1, idx, win));
        MPI_OK(MPI_Win_fence(0, win));
        MPI_OK(MPI_Type_free(&idx));
        /* What the left neighbour wrote, over the previous round's. */
        total = scatter_pattern(left, round, lens, displs, bytes);
        for (int k = 0, b = 0; k < NBLK; k++)
            for (int j = 0; j < lens[k]; j++)
                want[displs[k] + j] = bytes[b++];
        CHECK(memcmp(mem, want, SB) == 0, "round %d: window differs",
              round);
        prog_sum(mem, SB);
    }
    /* The right neighbour's whole window, which holds what this rank put:
     * a large, compressible MPI_Get result. */
    unsigned char *copy = malloc(SB);
    memset(want, 0, SB);
    for (int round = 0; round < 2; round++) {
        scatter_pattern(me, round, lens, displs, bytes);
        for (int k = 0, b = 0; k < NBLK; k++)
            for (int j = 0; j < lens[k]; j++)
                want[displs[k] + j] = bytes[b++];
    }
    MPI_OK(MPI_Win_fence(0, win));
    MPI_OK(MPI_Get(copy, SB, MPI_BYTE, right, 0, SB, MPI_BYTE, win));
    MPI_OK(MPI_Win_fence(0, win));
    CHECK(memcmp(copy, want, SB) == 0, "get of the whole window differs");
    prog_sum(copy, SB);
    MPI_OK(MPI_Win_free(&win));
    free(copy);
    free(mem);
    free(want);
    prog_say("scattered puts through an indexed type ok");
}

/* A shared-memory window on MPI_COMM_SELF. */
static void shared(int me)
{
    int *base;
    MPI_Win win;
    MPI_OK(MPI_Win_allocate_shared(B * sizeof(int), sizeof(int),
                                   MPI_INFO_NULL, MPI_COMM_SELF, &base,
                                   &win));
    MPI_OK(MPI_Win_fence(0, win));
    prog_fill(base, B, me, me, 9, 0);
    MPI_OK(MPI_Win_fence(0, win));
    prog_sum(base, B * sizeof(int));
    MPI_OK(MPI_Win_free(&win));
    prog_say("shared window ok");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    prog_start();
    int n = prog_size, me = prog_rank;
    int left = (me + n - 1) % n, right = (me + 1) % n;
    if (argc > 1 && strcmp(argv[1], "shared") == 0) {
        shared(me);
    } else {
        passive(me, n, left, right);
        dynamic(me, n, left, right);
        requests_and_types(me, left, right);
        pscw(me, left, right);
        scattered(me, left, right);
    }
    return prog_finish();
}
