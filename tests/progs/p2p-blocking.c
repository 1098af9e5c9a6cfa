/*
 * p2p-blocking - blocking point-to-point in every send mode.
 *
 * 1. A ring (rank 0 sends first, the others receive first, so no mode can
 *    deadlock) repeated ROUNDS times, cycling MPI_Send, MPI_Ssend, MPI_Bsend
 *    over MPI_INT, MPI_DOUBLE, MPI_CHAR and MPI_LONG_LONG with counts that
 *    change every round; each receive checks status and payload.
 * 2. MPI_Rsend: the receiver posts MPI_Irecv, a barrier orders it before the
 *    ready send.
 * 3. Tag selection: every rank Bsends three tagged messages to rank 0, which
 *    receives them tag 3, 1, 2 (not in send order) from each sender.
 * 4. Non-overtaking: 20 same-tag messages from the left neighbour arrive in
 *    send order.
 * 5. A receive buffer larger than the message: MPI_Get_count reports the
 *    sent count.
 *
 *   mpiexec -n 2..4 ./p2p-blocking [ROUNDS]      (at least 2 ranks)
 */
#include "progs.h"

enum { MAXN = 4096 };

static void ring_round(int round, int left, int right)
{
    int n = 1 + (round * 37) % 1000;
    int tag = 100 + round;
    int mode = round % 3;       /* 0 Send, 1 Ssend, 2 Bsend */
    int kind = (round / 3) % 4; /* datatype */
    static const char *mode_names[] = {"Send", "Ssend", "Bsend"};
    static const char *kind_names[] = {"int", "double", "char", "long_long"};
    static int iout[MAXN], iin[MAXN];
    static double dout[MAXN], din[MAXN];
    static char cout[MAXN], cin[MAXN];
    static long long lout[MAXN], lin[MAXN];
    MPI_Datatype types[] = {MPI_INT, MPI_DOUBLE, MPI_CHAR, MPI_LONG_LONG};
    void *outs[] = {iout, dout, cout, lout}, *ins[] = {iin, din, cin, lin};
    size_t sizes[] = {sizeof(int), sizeof(double), 1, sizeof(long long)};

    for (int i = 0; i < n; i++) {
        int v = prog_payload(prog_rank, right, tag, round, i);
        iout[i] = v;
        dout[i] = v * 0.5;
        cout[i] = (char)(v & 0x7f);
        lout[i] = (long long)v << 20;
    }
    memset(ins[kind], 0, sizes[kind] * MAXN);

    MPI_Status st;
    for (int step = 0; step < 2; step++) {
        int sending = (prog_rank == 0) == (step == 0);
        if (sending) {
            if (mode == 0)
                MPI_OK(MPI_Send(outs[kind], n, types[kind], right, tag,
                                MPI_COMM_WORLD));
            else if (mode == 1)
                MPI_OK(MPI_Ssend(outs[kind], n, types[kind], right, tag,
                                 MPI_COMM_WORLD));
            else
                MPI_OK(MPI_Bsend(outs[kind], n, types[kind], right, tag,
                                 MPI_COMM_WORLD));
        } else {
            MPI_OK(MPI_Recv(ins[kind], MAXN, types[kind], left, tag,
                            MPI_COMM_WORLD, &st));
        }
    }
    CHECK_STATUS(st, types[kind], left, tag, n);
    for (int i = 0; i < n; i++) {
        int v = prog_payload(left, prog_rank, tag, round, i);
        int ok = kind == 0 ? iin[i] == v
               : kind == 1 ? din[i] == v * 0.5
               : kind == 2 ? cin[i] == (char)(v & 0x7f)
               : lin[i] == (long long)v << 20;
        CHECK(ok, "round %d element %d wrong", round, i);
    }
    prog_sum(ins[kind], sizes[kind] * (size_t)n);
    prog_say("round %d: %s of %d %s from %d ok", round, mode_names[mode], n,
             kind_names[kind], left);
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 24;
    MPI_Init(&argc, &argv);
    prog_start();
    CHECK(prog_size >= 2, "needs at least 2 ranks");
    int left = (prog_rank + prog_size - 1) % prog_size;
    int right = (prog_rank + 1) % prog_size;

    /* Room for every buffered send of this program at once. */
    int bufsize = 3 * (MAXN * (int)sizeof(long long) + MPI_BSEND_OVERHEAD);
    char *bsend_buf = malloc((size_t)bufsize);
    MPI_OK(MPI_Buffer_attach(bsend_buf, bufsize));

    /* 1. ring in three modes */
    for (int r = 0; r < rounds; r++)
        ring_round(r, left, right);

    /* 2. ready send: the matching receive is posted before the barrier */
    {
        int in[64], out[64];
        MPI_Request req;
        MPI_Status st;
        prog_fill(out, 64, prog_rank, right, 7, 0);
        MPI_OK(MPI_Irecv(in, 64, MPI_INT, left, 7, MPI_COMM_WORLD, &req));
        MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
        MPI_OK(MPI_Rsend(out, 64, MPI_INT, right, 7, MPI_COMM_WORLD));
        MPI_OK(MPI_Wait(&req, &st));
        CHECK_STATUS(st, MPI_INT, left, 7, 64);
        CHECK_PAYLOAD(in, 64, left, prog_rank, 7, 0);
        prog_sum(in, sizeof in);
        prog_say("rsend from %d ok", left);
    }

    /* 3. tag selection out of send order */
    if (prog_rank != 0) {
        for (int tag = 1; tag <= 3; tag++) {
            int out[8];
            prog_fill(out, 8, prog_rank, 0, tag, 0);
            MPI_OK(MPI_Bsend(out, 8, MPI_INT, 0, tag, MPI_COMM_WORLD));
        }
    } else {
        static const int order[] = {3, 1, 2};
        for (int src = 1; src < prog_size; src++) {
            for (int k = 0; k < 3; k++) {
                int in[8];
                MPI_Status st;
                MPI_OK(MPI_Recv(in, 8, MPI_INT, src, order[k],
                                MPI_COMM_WORLD, &st));
                CHECK_STATUS(st, MPI_INT, src, order[k], 8);
                CHECK_PAYLOAD(in, 8, src, 0, order[k], 0);
                prog_sum(in, sizeof in);
            }
            prog_say("tags 3,1,2 from %d ok", src);
        }
    }

    /* 4. non-overtaking: same source, same tag, order kept */
    for (int step = 0; step < 2; step++) {
        int sending = (prog_rank == 0) == (step == 0);
        for (int seq = 0; seq < 20; seq++) {
            int buf[4];
            if (sending) {
                prog_fill(buf, 4, prog_rank, right, 9, seq);
                MPI_OK(MPI_Send(buf, 4, MPI_INT, right, 9, MPI_COMM_WORLD));
            } else {
                MPI_Status st;
                MPI_OK(MPI_Recv(buf, 4, MPI_INT, left, 9, MPI_COMM_WORLD,
                                &st));
                CHECK_PAYLOAD(buf, 4, left, prog_rank, 9, seq);
                prog_sum(buf, sizeof buf);
            }
        }
    }
    prog_say("20 messages from %d in order", left);

    /* 5. short message into a long buffer */
    {
        int out[5], in[100];
        MPI_Status st;
        prog_fill(out, 5, prog_rank, right, 11, 0);
        for (int step = 0; step < 2; step++) {
            if ((prog_rank == 0) == (step == 0))
                MPI_OK(MPI_Send(out, 5, MPI_INT, right, 11, MPI_COMM_WORLD));
            else
                MPI_OK(MPI_Recv(in, 100, MPI_INT, left, 11, MPI_COMM_WORLD,
                                &st));
        }
        CHECK_STATUS(st, MPI_INT, left, 11, 5);
        CHECK_PAYLOAD(in, 5, left, prog_rank, 11, 0);
        prog_sum(in, 5 * sizeof(int));
        prog_say("short message: count 5 ok");
    }

    void *detached;
    int detached_size;
    MPI_OK(MPI_Buffer_detach(&detached, &detached_size));
    CHECK(detached == bsend_buf && detached_size == bufsize,
          "detached %p/%d", detached, detached_size);
    free(bsend_buf);
    return prog_finish();
}
