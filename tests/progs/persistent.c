/*
 * persistent - persistent requests and their reuse.
 *
 * 1. A ring with MPI_Recv_init/MPI_Send_init created once and restarted
 *    ITERS times with MPI_Startall; the send buffer is refilled before each
 *    start, so every iteration must deliver that iteration's data.
 * 2. MPI_Start on each request separately, completed with MPI_Wait:
 *    MPI_Ssend_init, MPI_Bsend_init and MPI_Rsend_init (the receive is
 *    started before a barrier) in rotation, each request used twice.
 * 3. A persistent receive with MPI_ANY_SOURCE and MPI_ANY_TAG.
 * 4. MPI_Wait/MPI_Test on an inactive persistent request return at once
 *    with an empty status; MPI_Request_free releases the inactive requests.
 *
 *   mpiexec -n 2..4 ./persistent [ITERS]      (at least 2 ranks)
 */
#include "progs.h"

enum { LEN = 50 };

int main(int argc, char **argv)
{
    int iters = argc > 1 ? atoi(argv[1]) : 20;
    MPI_Init(&argc, &argv);
    prog_start();
    CHECK(prog_size >= 2 && prog_size <= 4, "needs 2 to 4 ranks");
    int left = (prog_rank + prog_size - 1) % prog_size;
    int right = (prog_rank + 1) % prog_size;
    int in[LEN], out[LEN];
    MPI_Request reqs[2];
    MPI_Status sts[2];

    /* 1. Startall, ITERS times */
    MPI_OK(MPI_Recv_init(in, LEN, MPI_INT, left, 1, MPI_COMM_WORLD, &reqs[0]));
    MPI_OK(MPI_Send_init(out, LEN, MPI_INT, right, 1, MPI_COMM_WORLD,
                         &reqs[1]));
    for (int it = 0; it < iters; it++) {
        prog_fill(out, LEN, prog_rank, right, 1, it);
        memset(in, 0, sizeof in);
        MPI_OK(MPI_Startall(2, reqs));
        MPI_OK(MPI_Waitall(2, reqs, sts));
        CHECK(reqs[0] != MPI_REQUEST_NULL && reqs[1] != MPI_REQUEST_NULL,
              "Waitall freed a persistent request");
        CHECK_STATUS(sts[0], MPI_INT, left, 1, LEN);
        CHECK_PAYLOAD(in, LEN, left, prog_rank, 1, it);
        prog_sum(in, sizeof in);
    }
    prog_say("startall x%d from %d ok", iters, left);

    /* 4a. an inactive persistent request: empty status at once */
    {
        MPI_Status st;
        int flag = 0, c = -1;
        st.MPI_SOURCE = 99;
        MPI_OK(MPI_Wait(&reqs[0], &st));
        MPI_Get_count(&st, MPI_INT, &c);
        CHECK(st.MPI_SOURCE == MPI_ANY_SOURCE && st.MPI_TAG == MPI_ANY_TAG &&
                  c == 0, "wait on inactive: %d/%d/%d", st.MPI_SOURCE,
              st.MPI_TAG, c);
        MPI_OK(MPI_Test(&reqs[1], &flag, &st));
        CHECK(flag && reqs[1] != MPI_REQUEST_NULL, "test on inactive");
        MPI_OK(MPI_Request_free(&reqs[0]));
        MPI_OK(MPI_Request_free(&reqs[1]));
        CHECK(reqs[0] == MPI_REQUEST_NULL && reqs[1] == MPI_REQUEST_NULL,
              "Request_free did not null the handles");
        prog_say("inactive persistent requests ok");
    }

    /* 2. separate Starts, other send modes */
    {
        int bufsize = LEN * (int)sizeof(int) + MPI_BSEND_OVERHEAD;
        void *bbuf = malloc((size_t)bufsize);
        MPI_OK(MPI_Buffer_attach(bbuf, bufsize));
        MPI_Request r[4], s[3];
        int ins[3][LEN];
        for (int m = 0; m < 3; m++)
            MPI_OK(MPI_Recv_init(ins[m], LEN, MPI_INT, left, 10 + m,
                                 MPI_COMM_WORLD, &r[m]));
        MPI_OK(MPI_Ssend_init(out, LEN, MPI_INT, right, 10, MPI_COMM_WORLD,
                              &s[0]));
        MPI_OK(MPI_Bsend_init(out, LEN, MPI_INT, right, 11, MPI_COMM_WORLD,
                              &s[1]));
        MPI_OK(MPI_Rsend_init(out, LEN, MPI_INT, right, 12, MPI_COMM_WORLD,
                              &s[2]));
        static const char *names[] = {"Ssend_init", "Bsend_init",
                                      "Rsend_init"};
        for (int it = 0; it < 6; it++) {
            int m = it % 3;
            prog_fill(out, LEN, prog_rank, right, 10 + m, it);
            MPI_OK(MPI_Start(&r[m]));
            MPI_OK(MPI_Barrier(MPI_COMM_WORLD)); /* receive posted: Rsend ok */
            MPI_OK(MPI_Start(&s[m]));
            MPI_Status st;
            MPI_OK(MPI_Wait(&s[m], &st));
            MPI_OK(MPI_Wait(&r[m], &st));
            CHECK_STATUS(st, MPI_INT, left, 10 + m, LEN);
            CHECK_PAYLOAD(ins[m], LEN, left, prog_rank, 10 + m, it);
            prog_sum(ins[m], sizeof ins[m]);
            prog_say("iteration %d: %s from %d ok", it, names[m], left);
        }
        for (int m = 0; m < 3; m++) {
            MPI_OK(MPI_Request_free(&r[m]));
            MPI_OK(MPI_Request_free(&s[m]));
        }
        void *b;
        int bs;
        MPI_OK(MPI_Buffer_detach(&b, &bs));
        free(b);
    }

    /* 3. wildcard persistent receive: rank 0 collects from all others */
    if (prog_rank == 0) {
        MPI_Request r;
        int got[4] = {0, 0, 0, 0};
        static int keep[4][2][LEN];
        MPI_OK(MPI_Recv_init(in, LEN, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG,
                             MPI_COMM_WORLD, &r));
        for (int i = 0; i < 2 * (prog_size - 1); i++) {
            MPI_Status st;
            MPI_OK(MPI_Start(&r));
            MPI_OK(MPI_Wait(&r, &st));
            int src = st.MPI_SOURCE;
            CHECK(src > 0 && src < prog_size && st.MPI_TAG == 30 + got[src],
                  "wildcard got %d/%d", src, st.MPI_TAG);
            CHECK_PAYLOAD(in, LEN, src, 0, st.MPI_TAG, got[src]);
            /* The arrival order varies: keep the checksum deterministic by
             * summing in (sender, sequence) order below. */
            memcpy(keep[src][got[src]], in, sizeof in);
            got[src]++;
        }
        for (int s = 1; s < prog_size; s++) {
            CHECK(got[s] == 2, "%d messages from %d", got[s], s);
            prog_sum(keep[s], sizeof keep[s]);
        }
        MPI_OK(MPI_Request_free(&r));
        prog_say("wildcard persistent receive: 2 from each of %d ranks",
                 prog_size - 1);
    } else {
        MPI_Request s;
        MPI_OK(MPI_Send_init(out, LEN, MPI_INT, 0, 30, MPI_COMM_WORLD, &s));
        prog_fill(out, LEN, prog_rank, 0, 30, 0);
        MPI_OK(MPI_Start(&s));
        MPI_OK(MPI_Wait(&s, MPI_STATUS_IGNORE));
        MPI_OK(MPI_Request_free(&s));
        prog_fill(out, LEN, prog_rank, 0, 31, 1);
        MPI_OK(MPI_Send(out, LEN, MPI_INT, 0, 31, MPI_COMM_WORLD));
    }
    return prog_finish();
}
