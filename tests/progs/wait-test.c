/*
 * wait-test - the completion calls, with MPI_REQUEST_NULL entries.
 *
 * Each batch: every rank posts receives from its left neighbour into a
 * request array that also holds MPI_REQUEST_NULL entries, sends the
 * matching messages to its right neighbour (in reverse tag order), and
 * completes the receives with one family:
 *   MPI_Waitany, MPI_Waitsome, MPI_Testany, MPI_Testsome, MPI_Testall
 *   (with MPI_STATUSES_IGNORE), MPI_Test, MPI_Request_get_status.
 * Each index must complete exactly once, with the right status and data;
 * null entries never complete. Completion order may vary from run to run:
 * it is not printed and the checksum sums data in index order.
 * Edge cases: all-null arrays (index/outcount MPI_UNDEFINED, flag true),
 * MPI_Test on MPI_REQUEST_NULL (empty status), MPI_STATUS_IGNORE, and a
 * receive that never matches, cancelled with MPI_Cancel and checked with
 * MPI_Test_cancelled.
 *
 *   mpiexec -n 1..4 ./wait-test
 */
#include <time.h>

#include "progs.h"

/* gcc 12 warns (-Wstringop-overflow) when MPI_STATUSES_IGNORE is passed to
 * MPICH 4.0's array-of-statuses parameters: a false positive. */
#pragma GCC diagnostic ignored "-Wstringop-overflow"

enum { NR = 8, LEN = 16 };

static int left, right;
static int bufs[NR][LEN];

/* Pauses 20 us between unsuccessful polls: the polls stay in the hundreds
 * (each is a logged event), not tens of thousands on a loaded machine. */
static void nap(void)
{
    struct timespec ts = {0, 20000};
    nanosleep(&ts, NULL);
}

/* Index I holds a real receive unless it is 2 or 5. */
static int is_null(int i)
{
    return i == 2 || i == 5;
}

static void post(MPI_Request *r, MPI_Request *s, int batch)
{
    static int out[NR][LEN];
    for (int i = 0; i < NR; i++) {
        r[i] = MPI_REQUEST_NULL;
        memset(bufs[i], 0, sizeof bufs[i]);
        if (!is_null(i))
            MPI_OK(MPI_Irecv(bufs[i], LEN, MPI_INT, left, batch * 100 + i,
                             MPI_COMM_WORLD, &r[i]));
    }
    for (int i = NR - 1; i >= 0; i--) {
        s[i] = MPI_REQUEST_NULL;
        if (is_null(i))
            continue;
        prog_fill(out[i], LEN, prog_rank, right, batch * 100 + i, batch);
        MPI_OK(MPI_Isend(out[i], LEN, MPI_INT, right, batch * 100 + i,
                         MPI_COMM_WORLD, &s[i]));
    }
}

/* Marks index I done (once) and checks its data and status ST (or not). */
static void done(int *seen, int i, const MPI_Status *st, int batch)
{
    CHECK(i >= 0 && i < NR && !is_null(i), "completed index %d", i);
    CHECK(!seen[i], "index %d completed twice", i);
    seen[i] = 1;
    if (st)
        CHECK_STATUS(*st, MPI_INT, left, batch * 100 + i, LEN);
    CHECK_PAYLOAD(bufs[i], LEN, left, prog_rank, batch * 100 + i, batch);
}

static void finish(const char *name, int *seen, MPI_Request *r,
                   MPI_Request *s, int batch)
{
    MPI_Status sts[NR];
    for (int i = 0; i < NR; i++) {
        CHECK(seen[i] == !is_null(i), "%s: index %d seen %d", name, i,
              seen[i]);
        CHECK(r[i] == MPI_REQUEST_NULL, "%s: request %d not freed", name, i);
        prog_sum(bufs[i], sizeof bufs[i]);
    }
    MPI_OK(MPI_Waitall(NR, s, sts));
    prog_say("batch %d: %s completed %d receives ok", batch, name, NR - 2);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    prog_start();
    left = (prog_rank + prog_size - 1) % prog_size;
    right = (prog_rank + 1) % prog_size;
    MPI_Request r[NR], s[NR];
    MPI_Status st, sts[NR];
    int batch = 0;

    /* Waitany */
    {
        int seen[NR] = {0}, idx;
        post(r, s, batch);
        for (int k = 0; k < NR - 2; k++) {
            MPI_OK(MPI_Waitany(NR, r, &idx, &st));
            done(seen, idx, &st, batch);
        }
        MPI_OK(MPI_Waitany(NR, r, &idx, &st));
        CHECK(idx == MPI_UNDEFINED, "waitany on all-null gave %d", idx);
        finish("Waitany", seen, r, s, batch++);
    }

    /* Waitsome */
    {
        int seen[NR] = {0}, out, idx[NR], total = 0;
        post(r, s, batch);
        while (total < NR - 2) {
            MPI_OK(MPI_Waitsome(NR, r, &out, idx, sts));
            CHECK(out >= 1 && out != MPI_UNDEFINED, "waitsome outcount %d",
                  out);
            for (int k = 0; k < out; k++)
                done(seen, idx[k], &sts[k], batch);
            total += out;
        }
        MPI_OK(MPI_Waitsome(NR, r, &out, idx, sts));
        CHECK(out == MPI_UNDEFINED, "waitsome on all-null gave %d", out);
        finish("Waitsome", seen, r, s, batch++);
    }

    /* Testany */
    {
        int seen[NR] = {0}, idx, flag, total = 0;
        post(r, s, batch);
        while (total < NR - 2) {
            MPI_OK(MPI_Testany(NR, r, &idx, &flag, &st));
            if (flag) {
                done(seen, idx, &st, batch);
                total++;
            } else {
                CHECK(idx == MPI_UNDEFINED, "testany no flag, index %d", idx);
                nap();
            }
        }
        MPI_OK(MPI_Testany(NR, r, &idx, &flag, &st));
        CHECK(flag && idx == MPI_UNDEFINED, "testany on all-null: %d %d", flag,
              idx);
        finish("Testany", seen, r, s, batch++);
    }

    /* Testsome, with MPI_STATUSES_IGNORE */
    {
        int seen[NR] = {0}, out, idx[NR], total = 0;
        post(r, s, batch);
        while (total < NR - 2) {
            MPI_OK(MPI_Testsome(NR, r, &out, idx, MPI_STATUSES_IGNORE));
            CHECK(out >= 0 && out != MPI_UNDEFINED, "testsome outcount %d",
                  out);
            for (int k = 0; k < out; k++)
                done(seen, idx[k], NULL, batch);
            total += out;
            if (!out)
                nap();
        }
        MPI_OK(MPI_Testsome(NR, r, &out, idx, sts));
        CHECK(out == MPI_UNDEFINED, "testsome on all-null gave %d", out);
        finish("Testsome", seen, r, s, batch++);
    }

    /* Testall with MPI_STATUSES_IGNORE, then Waitall the same way */
    {
        int seen[NR] = {0}, flag = 0;
        post(r, s, batch);
        for (;;) {
            MPI_OK(MPI_Testall(NR, r, &flag, MPI_STATUSES_IGNORE));
            if (flag)
                break;
            nap();
        }
        for (int i = 0; i < NR; i++)
            if (!is_null(i))
                done(seen, i, NULL, batch);
        finish("Testall", seen, r, s, batch++);

        post(r, s, batch);
        for (int i = 0; i < NR; i++)
            seen[i] = 0;
        MPI_OK(MPI_Waitall(NR, r, MPI_STATUSES_IGNORE));
        for (int i = 0; i < NR; i++)
            if (!is_null(i))
                done(seen, i, NULL, batch);
        finish("Waitall", seen, r, s, batch++);
    }

    /* Test each in turn, Request_get_status first (it does not free) */
    {
        int seen[NR] = {0}, total = 0, flag;
        post(r, s, batch);
        while (total < NR - 2) {
            for (int i = 0; i < NR; i++) {
                if (is_null(i)) {
                    st.MPI_SOURCE = 1234;
                    MPI_OK(MPI_Test(&r[i], &flag, &st));
                    int c;
                    MPI_Get_count(&st, MPI_INT, &c);
                    CHECK(flag && st.MPI_SOURCE == MPI_ANY_SOURCE &&
                              st.MPI_TAG == MPI_ANY_TAG && c == 0,
                          "test on REQUEST_NULL: %d %d %d", flag,
                          st.MPI_SOURCE, c);
                    continue;
                }
                if (seen[i])
                    continue;
                MPI_OK(MPI_Request_get_status(r[i], &flag, &st));
                if (!flag)
                    continue;
                CHECK(r[i] != MPI_REQUEST_NULL, "get_status freed");
                MPI_OK(MPI_Test(&r[i], &flag, &st));
                CHECK(flag, "test after get_status said done");
                done(seen, i, &st, batch);
                total++;
            }
            nap();
        }
        finish("Test", seen, r, s, batch++);
    }

    /* Wait with MPI_STATUS_IGNORE, and a cancelled receive */
    {
        int in[4], out[4], never;
        MPI_Request rr, cr, sr;
        MPI_OK(MPI_Irecv(&never, 1, MPI_INT, left, 999, MPI_COMM_WORLD, &cr));
        MPI_OK(MPI_Irecv(in, 4, MPI_INT, left, 7, MPI_COMM_WORLD, &rr));
        prog_fill(out, 4, prog_rank, right, 7, 0);
        MPI_OK(MPI_Isend(out, 4, MPI_INT, right, 7, MPI_COMM_WORLD, &sr));
        MPI_OK(MPI_Wait(&rr, MPI_STATUS_IGNORE));
        MPI_OK(MPI_Wait(&sr, MPI_STATUS_IGNORE));
        CHECK_PAYLOAD(in, 4, left, prog_rank, 7, 0);
        prog_sum(in, sizeof in);

        MPI_OK(MPI_Cancel(&cr));
        MPI_OK(MPI_Wait(&cr, &st));
        int cancelled = 0;
        MPI_OK(MPI_Test_cancelled(&st, &cancelled));
        CHECK(cancelled && cr == MPI_REQUEST_NULL, "receive not cancelled");
        prog_say("status ignore and cancelled receive ok");
    }

    /* All-null Waitall/Testall */
    {
        MPI_Request nul[3] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL,
                              MPI_REQUEST_NULL};
        int flag = 0;
        MPI_OK(MPI_Waitall(3, nul, sts));
        MPI_OK(MPI_Testall(3, nul, &flag, sts));
        CHECK(flag, "testall on all-null");
    }
    MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
    return prog_finish();
}
