/*
 * p2p-nonblocking - nonblocking point-to-point.
 *
 * 1. All-pairs exchange: every rank posts MPI_Irecv from every other rank,
 *    then MPI_Isend to each, then completes all with one MPI_Waitall; the
 *    message length depends on sender and receiver.
 * 2. Many outstanding requests: 64 messages to the right neighbour with
 *    distinct tags, received with the receives posted in reverse tag order,
 *    completed one by one with MPI_Wait in posting order.
 * 3. MPI_Issend / MPI_Ibsend / MPI_Irsend (with a barrier so the receive is
 *    posted before the ready send), each completed by a MPI_Test loop.
 * 4. Same-tag messages posted as Irecvs match in send order.
 *
 *   mpiexec -n 2..4 ./p2p-nonblocking       (at least 2 ranks)
 */
#include "progs.h"

enum { NMANY = 64 };

static int pair_len(int src, int dst)
{
    return 10 + 97 * src + 13 * dst;
}

/* Spins on MPI_Test until REQ completes (the count of tests varies, it is
 * not printed). */
static void test_until_done(MPI_Request *req, MPI_Status *st)
{
    int flag = 0;
    while (!flag)
        MPI_OK(MPI_Test(req, &flag, st));
    CHECK(*req == MPI_REQUEST_NULL, "completed request not freed");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    prog_start();
    CHECK(prog_size >= 2 && prog_size <= 4, "needs 2 to 4 ranks");
    int n = prog_size;
    int left = (prog_rank + n - 1) % n, right = (prog_rank + 1) % n;

    /* 1. all pairs, one Waitall */
    {
        int *in[4], *out[4];
        MPI_Request reqs[8];
        MPI_Status sts[8];
        int k = 0;
        for (int p = 0; p < n; p++) {
            in[p] = calloc((size_t)pair_len(p, prog_rank), sizeof(int));
            out[p] = malloc((size_t)pair_len(prog_rank, p) * sizeof(int));
            prog_fill(out[p], pair_len(prog_rank, p), prog_rank, p, 5, 0);
        }
        for (int p = 0; p < n; p++)
            if (p != prog_rank)
                MPI_OK(MPI_Irecv(in[p], pair_len(p, prog_rank), MPI_INT, p,
                                 5, MPI_COMM_WORLD, &reqs[k++]));
        for (int p = 0; p < n; p++)
            if (p != prog_rank)
                MPI_OK(MPI_Isend(out[p], pair_len(prog_rank, p), MPI_INT, p,
                                 5, MPI_COMM_WORLD, &reqs[k++]));
        MPI_OK(MPI_Waitall(k, reqs, sts));
        for (int i = 0; i < k; i++)
            CHECK(reqs[i] == MPI_REQUEST_NULL, "Waitall left request %d", i);
        k = 0;
        for (int p = 0; p < n; p++) {
            if (p == prog_rank)
                continue;
            CHECK_STATUS(sts[k], MPI_INT, p, 5, pair_len(p, prog_rank));
            k++;
            CHECK_PAYLOAD(in[p], pair_len(p, prog_rank), p, prog_rank, 5, 0);
            prog_sum(in[p], (size_t)pair_len(p, prog_rank) * sizeof(int));
            prog_say("all-pairs: %d ints from %d ok", pair_len(p, prog_rank),
                     p);
        }
        for (int p = 0; p < n; p++) {
            free(in[p]);
            free(out[p]);
        }
    }

    /* 2. 64 outstanding, receives posted in reverse tag order */
    {
        static int in[NMANY][32], out[NMANY][32];
        MPI_Request rreq[NMANY], sreq[NMANY];
        for (int t = NMANY - 1; t >= 0; t--)
            MPI_OK(MPI_Irecv(in[t], 32, MPI_INT, left, 1000 + t,
                             MPI_COMM_WORLD, &rreq[t]));
        for (int t = 0; t < NMANY; t++) {
            prog_fill(out[t], 32, prog_rank, right, 1000 + t, t);
            MPI_OK(MPI_Isend(out[t], 32, MPI_INT, right, 1000 + t,
                             MPI_COMM_WORLD, &sreq[t]));
        }
        for (int t = 0; t < NMANY; t++) {
            MPI_Status st;
            MPI_OK(MPI_Wait(&rreq[t], &st));
            CHECK_STATUS(st, MPI_INT, left, 1000 + t, 32);
            CHECK_PAYLOAD(in[t], 32, left, prog_rank, 1000 + t, t);
            prog_sum(in[t], sizeof in[t]);
        }
        for (int t = 0; t < NMANY; t++)
            MPI_OK(MPI_Wait(&sreq[t], MPI_STATUS_IGNORE));
        prog_say("64 tagged messages from %d ok", left);
    }

    /* 3. Issend, Ibsend, Irsend, completed by Test loops */
    {
        int bufsize = 4096 + MPI_BSEND_OVERHEAD;
        void *bbuf = malloc((size_t)bufsize);
        MPI_OK(MPI_Buffer_attach(bbuf, bufsize));
        static const char *names[] = {"Issend", "Ibsend", "Irsend"};
        for (int mode = 0; mode < 3; mode++) {
            int in[100], out[100], tag = 20 + mode;
            MPI_Request rr, sr;
            MPI_Status st;
            memset(in, 0, sizeof in);
            prog_fill(out, 100, prog_rank, right, tag, mode);
            MPI_OK(MPI_Irecv(in, 100, MPI_INT, left, tag, MPI_COMM_WORLD,
                             &rr));
            if (mode == 2)
                MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
            if (mode == 0)
                MPI_OK(MPI_Issend(out, 100, MPI_INT, right, tag,
                                  MPI_COMM_WORLD, &sr));
            else if (mode == 1)
                MPI_OK(MPI_Ibsend(out, 100, MPI_INT, right, tag,
                                  MPI_COMM_WORLD, &sr));
            else
                MPI_OK(MPI_Irsend(out, 100, MPI_INT, right, tag,
                                  MPI_COMM_WORLD, &sr));
            test_until_done(&rr, &st);
            CHECK_STATUS(st, MPI_INT, left, tag, 100);
            CHECK_PAYLOAD(in, 100, left, prog_rank, tag, mode);
            test_until_done(&sr, &st);
            prog_sum(in, sizeof in);
            prog_say("%s from %d ok", names[mode], left);
        }
        void *b;
        int bs;
        MPI_OK(MPI_Buffer_detach(&b, &bs));
        free(b);
    }

    /* 4. same tag: Irecvs match in send order */
    {
        int in[10][3], out[10][3];
        MPI_Request r[20];
        MPI_Status st[20];
        for (int s = 0; s < 10; s++)
            MPI_OK(MPI_Irecv(in[s], 3, MPI_INT, left, 50, MPI_COMM_WORLD,
                             &r[s]));
        for (int s = 0; s < 10; s++) {
            prog_fill(out[s], 3, prog_rank, right, 50, s);
            MPI_OK(MPI_Isend(out[s], 3, MPI_INT, right, 50, MPI_COMM_WORLD,
                             &r[10 + s]));
        }
        MPI_OK(MPI_Waitall(20, r, st));
        for (int s = 0; s < 10; s++) {
            CHECK_PAYLOAD(in[s], 3, left, prog_rank, 50, s);
            prog_sum(in[s], sizeof in[s]);
        }
        prog_say("10 same-tag messages from %d in order", left);
    }
    return prog_finish();
}
