/*
 * sendrecv - MPI_Sendrecv and MPI_Sendrecv_replace, edge cases, a big message.
 *
 * 1. Ring shifts with MPI_Sendrecv, ROUNDS times, each passing on what was
 *    received (so after SIZE rounds a rank holds its own data again).
 * 2. MPI_Sendrecv_replace in both directions.
 * 3. MPI_PROC_NULL as destination and/or source: the receive buffer stays
 *    untouched, the status says source MPI_PROC_NULL, tag MPI_ANY_TAG,
 *    count 0.
 * 4. Zero-count messages (real peers): MPI_Get_count gives 0, tag kept.
 * 5. A 1 MiB message (262144 ints) around the ring, fully verified.
 *
 *   mpiexec -n 1..4 ./sendrecv [ROUNDS]
 */
#include "progs.h"

enum { BIG = 1 << 18 }; /* ints: 1 MiB */

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 8;
    MPI_Init(&argc, &argv);
    prog_start();
    int n = prog_size, me = prog_rank;
    int left = (me + n - 1) % n, right = (me + 1) % n;
    MPI_Comm w = MPI_COMM_WORLD;
    MPI_Status st;

    /* 1. pass-it-on ring: after k rounds we hold rank (me - k)'s data */
    {
        int cur[8], nxt[8];
        prog_fill(cur, 8, me, 0, 1, 0);
        for (int k = 1; k <= rounds; k++) {
            MPI_OK(MPI_Sendrecv(cur, 8, MPI_INT, right, k, nxt, 8, MPI_INT,
                                left, k, w, &st));
            CHECK_STATUS(st, MPI_INT, left, k, 8);
            int origin = ((me - k) % n + n) % n;
            CHECK_PAYLOAD(nxt, 8, origin, 0, 1, 0);
            memcpy(cur, nxt, sizeof cur);
            prog_sum(cur, sizeof cur);
        }
        prog_say("%d ring shifts ok, holding data of rank %d", rounds,
                 ((me - rounds) % n + n) % n);
    }

    /* 2. Sendrecv_replace right, then left */
    {
        int buf[5];
        prog_fill(buf, 5, me, right, 2, 0);
        MPI_OK(MPI_Sendrecv_replace(buf, 5, MPI_INT, right, 2, left, 2, w,
                                    &st));
        CHECK_STATUS(st, MPI_INT, left, 2, 5);
        CHECK_PAYLOAD(buf, 5, left, me, 2, 0);
        prog_sum(buf, sizeof buf);
        prog_fill(buf, 5, me, left, 3, 0);
        MPI_OK(MPI_Sendrecv_replace(buf, 5, MPI_INT, left, 3, right, 3, w,
                                    &st));
        CHECK_STATUS(st, MPI_INT, right, 3, 5);
        CHECK_PAYLOAD(buf, 5, right, me, 3, 0);
        prog_sum(buf, sizeof buf);
        prog_say("sendrecv_replace both ways ok");
    }

    /* 3. MPI_PROC_NULL peers */
    {
        int out[3] = {1, 2, 3}, in[3] = {-9, -9, -9}, c;
        MPI_OK(MPI_Sendrecv(out, 3, MPI_INT, MPI_PROC_NULL, 4, in, 3, MPI_INT,
                            MPI_PROC_NULL, 4, w, &st));
        MPI_Get_count(&st, MPI_INT, &c);
        CHECK(in[0] == -9 && in[2] == -9 && st.MPI_SOURCE == MPI_PROC_NULL &&
                  st.MPI_TAG == MPI_ANY_TAG && c == 0,
              "both PROC_NULL: %d %d %d", st.MPI_SOURCE, st.MPI_TAG, c);
        /* a chain: rank 0 has no left, the last rank no right */
        int src = me == 0 ? MPI_PROC_NULL : me - 1;
        int dst = me == n - 1 ? MPI_PROC_NULL : me + 1;
        prog_fill(out, 3, me, dst, 4, 0);
        MPI_OK(MPI_Sendrecv(out, 3, MPI_INT, dst, 4, in, 3, MPI_INT, src, 4, w,
                            &st));
        if (src == MPI_PROC_NULL) {
            CHECK(in[0] == -9 && st.MPI_SOURCE == MPI_PROC_NULL,
                  "chain start touched");
        } else {
            CHECK_STATUS(st, MPI_INT, src, 4, 3);
            CHECK_PAYLOAD(in, 3, src, me, 4, 0);
        }
        prog_sum(in, sizeof in);
        int x = 77;
        MPI_OK(MPI_Sendrecv_replace(&x, 1, MPI_INT, MPI_PROC_NULL, 5,
                                    MPI_PROC_NULL, 5, w, &st));
        CHECK(x == 77 && st.MPI_SOURCE == MPI_PROC_NULL, "replace PROC_NULL");
        MPI_OK(MPI_Send(&x, 1, MPI_INT, MPI_PROC_NULL, 5, w));
        MPI_OK(MPI_Recv(&x, 1, MPI_INT, MPI_PROC_NULL, 5, w, &st));
        CHECK(x == 77 && st.MPI_SOURCE == MPI_PROC_NULL, "recv PROC_NULL");
        prog_say("PROC_NULL peers ok (chain source %d)", src);
    }

    /* 4. zero-count messages */
    {
        int dummy_out = 1, dummy_in = 5, c;
        for (int k = 0; k < 3; k++) {
            MPI_OK(MPI_Sendrecv(&dummy_out, 0, MPI_INT, right, 10 + k,
                                &dummy_in, 0, MPI_INT, left, 10 + k, w, &st));
            MPI_Get_count(&st, MPI_INT, &c);
            CHECK(c == 0 && st.MPI_SOURCE == left && st.MPI_TAG == 10 + k &&
                      dummy_in == 5, "zero-count %d: %d %d %d", k, c,
                  st.MPI_SOURCE, st.MPI_TAG);
        }
        /* NULL buffers are fine with count 0 */
        MPI_OK(MPI_Sendrecv(NULL, 0, MPI_BYTE, right, 13, NULL, 0, MPI_BYTE,
                            left, 13, w, &st));
        CHECK(st.MPI_SOURCE == left && st.MPI_TAG == 13, "zero NULL");
        prog_sum_i(st.MPI_TAG);
        prog_say("zero-count messages ok");
    }

    /* 5. 1 MiB around the ring */
    {
        int *out = malloc(BIG * sizeof(int)), *in = malloc(BIG * sizeof(int));
        prog_fill(out, BIG, me, right, 6, 0);
        memset(in, 0, BIG * sizeof(int));
        MPI_OK(MPI_Sendrecv(out, BIG, MPI_INT, right, 6, in, BIG, MPI_INT,
                            left, 6, w, &st));
        CHECK_STATUS(st, MPI_INT, left, 6, BIG);
        CHECK_PAYLOAD(in, BIG, left, me, 6, 0);
        prog_sum(in, BIG * sizeof(int));
        prog_say("1 MiB message from %d ok", left);
        free(out);
        free(in);
    }
    return prog_finish();
}
