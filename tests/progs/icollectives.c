/*
 * icollectives - nonblocking collectives, several in flight at once.
 *
 * 1. MPI_Ibcast, MPI_Iallreduce, MPI_Igather, MPI_Iscan started together,
 *    completed with one MPI_Waitall.
 * 2. MPI_Ialltoallv and MPI_Ibarrier completed by MPI_Test loops, with
 *    point-to-point traffic (MPI_Isend/MPI_Irecv) in flight at the same time.
 * 3. MPI_Iallgather, MPI_Iscatterv, MPI_Ireduce, MPI_Iexscan,
 *    MPI_Ireduce_scatter_block, MPI_Ialltoall, MPI_Igatherv,
 *    MPI_Iallgatherv, MPI_Ireduce_scatter, each completed with MPI_Wait.
 * 4. ROUNDS rounds of MPI_Iallreduce overlapped with local computation,
 *    polled with MPI_Test (the number of tests varies; it is not printed).
 * Every result is checked against the locally computed expectation.
 *
 *   mpiexec -n 1..4 ./icollectives [ROUNDS]
 */
#include "progs.h"

static int val(int r, int i)
{
    return (r + 1) * 1000 + i * 7;
}

static void wait_by_test(MPI_Request *req)
{
    int flag = 0;
    while (!flag)
        MPI_OK(MPI_Test(req, &flag, MPI_STATUS_IGNORE));
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 30;
    MPI_Init(&argc, &argv);
    prog_start();
    int n = prog_size, me = prog_rank, root = n / 2;
    MPI_Comm w = MPI_COMM_WORLD;
    enum { K = 6 };
    int *bc = malloc(K * sizeof(int)), *ar = malloc(K * sizeof(int));
    int *ain = malloc(K * sizeof(int)), *gat = malloc((size_t)n * K * sizeof(int));
    int sc_in, sc_out;

    /* 1. four collectives in flight, one Waitall */
    {
        MPI_Request r[4];
        MPI_Status sts[4];
        for (int i = 0; i < K; i++) {
            bc[i] = me == root ? val(root, i) : 0;
            ain[i] = val(me, i);
        }
        sc_in = me + 1;
        MPI_OK(MPI_Ibcast(bc, K, MPI_INT, root, w, &r[0]));
        MPI_OK(MPI_Iallreduce(ain, ar, K, MPI_INT, MPI_SUM, w, &r[1]));
        MPI_OK(MPI_Igather(ain, K, MPI_INT, gat, K, MPI_INT, 0, w, &r[2]));
        MPI_OK(MPI_Iscan(&sc_in, &sc_out, 1, MPI_INT, MPI_SUM, w, &r[3]));
        MPI_OK(MPI_Waitall(4, r, sts));
        for (int i = 0; i < K; i++) {
            int e = 0;
            for (int p = 0; p < n; p++)
                e += val(p, i);
            CHECK(bc[i] == val(root, i), "ibcast [%d]", i);
            CHECK(ar[i] == e, "iallreduce [%d] = %d, want %d", i, ar[i], e);
        }
        if (me == 0)
            for (int p = 0; p < n; p++)
                for (int i = 0; i < K; i++)
                    CHECK(gat[p * K + i] == val(p, i), "igather %d/%d", p, i);
        CHECK(sc_out == (me + 1) * (me + 2) / 2, "iscan %d", sc_out);
        prog_sum(bc, K * sizeof(int));
        prog_sum(ar, K * sizeof(int));
        if (me == 0)
            prog_sum(gat, (size_t)n * K * sizeof(int));
        prog_sum_i(sc_out);
        prog_say("ibcast iallreduce igather iscan ok (scan %d)", sc_out);
    }

    /* 2. Ialltoallv + Ibarrier + point-to-point, Test loops */
    {
        int *scnt = malloc((size_t)n * sizeof(int)), *sdis = malloc((size_t)n * sizeof(int));
        int *rcnt = malloc((size_t)n * sizeof(int)), *rdis = malloc((size_t)n * sizeof(int));
        int sp = 0, rp = 0;
        for (int p = 0; p < n; p++) {
            scnt[p] = 1 + (me * 3 + p) % 4;
            rcnt[p] = 1 + (p * 3 + me) % 4;
            sdis[p] = sp;
            rdis[p] = rp;
            sp += scnt[p];
            rp += rcnt[p];
        }
        int *sb = malloc((size_t)sp * sizeof(int)), *rb = calloc((size_t)rp, sizeof(int));
        for (int p = 0; p < n; p++)
            prog_fill(sb + sdis[p], scnt[p], me, p, 2, 0);
        int left = (me + n - 1) % n, right = (me + 1) % n;
        int pin[8], pout[8];
        prog_fill(pout, 8, me, right, 3, 0);
        MPI_Request a2a, bar, pr[2];
        MPI_OK(MPI_Irecv(pin, 8, MPI_INT, left, 3, w, &pr[0]));
        MPI_OK(MPI_Ialltoallv(sb, scnt, sdis, MPI_INT, rb, rcnt, rdis, MPI_INT,
                              w, &a2a));
        MPI_OK(MPI_Isend(pout, 8, MPI_INT, right, 3, w, &pr[1]));
        MPI_OK(MPI_Ibarrier(w, &bar));
        wait_by_test(&a2a);
        wait_by_test(&bar);
        int flag = 0;
        MPI_Status sts[2];
        while (!flag)
            MPI_OK(MPI_Testall(2, pr, &flag, sts));
        for (int p = 0; p < n; p++)
            CHECK_PAYLOAD(rb + rdis[p], rcnt[p], p, me, 2, 0);
        CHECK_PAYLOAD(pin, 8, left, me, 3, 0);
        CHECK_STATUS(sts[0], MPI_INT, left, 3, 8);
        prog_sum(rb, (size_t)rp * sizeof(int));
        prog_sum(pin, sizeof pin);
        prog_say("ialltoallv ibarrier + p2p ok");
        free(sb);
        free(rb);

        /* 3. the rest, one at a time */
        MPI_Request r;
        int *x = calloc((size_t)n * K + 16, sizeof(int));
        int *y = calloc((size_t)n * K + 16, sizeof(int));

        MPI_OK(MPI_Iallgather(ain, K, MPI_INT, x, K, MPI_INT, w, &r));
        MPI_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
        for (int p = 0; p < n; p++)
            for (int i = 0; i < K; i++)
                CHECK(x[p * K + i] == val(p, i), "iallgather");
        prog_sum(x, (size_t)n * K * sizeof(int));

        /* Iscatterv: rank p gets rcnt'[p] = p % 3 + 1 elements */
        for (int p = 0, pos = 0; p < n; p++) {
            scnt[p] = p % 3 + 1;
            sdis[p] = pos;
            for (int i = 0; i < scnt[p]; i++)
                x[pos + i] = val(p, i) + 1;
            pos += scnt[p];
        }
        MPI_OK(MPI_Iscatterv(x, scnt, sdis, MPI_INT, y, me % 3 + 1, MPI_INT,
                             root, w, &r));
        MPI_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
        for (int i = 0; i < me % 3 + 1; i++)
            CHECK(y[i] == val(me, i) + 1, "iscatterv [%d]", i);
        prog_sum(y, (size_t)(me % 3 + 1) * sizeof(int));

        MPI_OK(MPI_Ireduce(ain, y, K, MPI_INT, MPI_MAX, root, w, &r));
        MPI_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
        if (me == root) {
            for (int i = 0; i < K; i++)
                CHECK(y[i] == val(n - 1, i), "ireduce max [%d]", i);
            prog_sum(y, K * sizeof(int));
        }

        int ex = -1, one = me + 10;
        MPI_OK(MPI_Iexscan(&one, &ex, 1, MPI_INT, MPI_SUM, w, &r));
        MPI_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
        if (me > 0) {
            int e = 0;
            for (int p = 0; p < me; p++)
                e += p + 10;
            CHECK(ex == e, "iexscan %d, want %d", ex, e);
            prog_sum_i(ex);
        }

        for (int i = 0; i < n * K; i++)
            x[i] = val(me, i);
        MPI_OK(MPI_Ireduce_scatter_block(x, y, K, MPI_INT, MPI_SUM, w, &r));
        MPI_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
        for (int i = 0; i < K; i++) {
            int e = 0;
            for (int p = 0; p < n; p++)
                e += val(p, me * K + i);
            CHECK(y[i] == e, "ireduce_scatter_block [%d]", i);
        }
        prog_sum(y, K * sizeof(int));

        for (int p = 0; p < n; p++)
            for (int i = 0; i < 2; i++)
                x[p * 2 + i] = prog_payload(me, p, 4, 0, i);
        MPI_OK(MPI_Ialltoall(x, 2, MPI_INT, y, 2, MPI_INT, w, &r));
        MPI_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
        for (int p = 0; p < n; p++)
            CHECK_PAYLOAD(y + p * 2, 2, p, me, 4, 0);
        prog_sum(y, (size_t)n * 2 * sizeof(int));

        for (int p = 0, pos = 0; p < n; p++) {
            rcnt[p] = p + 1;
            rdis[p] = pos;
            pos += p + 1;
        }
        MPI_OK(MPI_Igatherv(ain, me + 1, MPI_INT, y, rcnt, rdis, MPI_INT, 0,
                            w, &r));
        MPI_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
        if (me == 0) {
            for (int p = 0; p < n; p++)
                for (int i = 0; i < p + 1; i++)
                    CHECK(y[rdis[p] + i] == val(p, i), "igatherv %d/%d", p, i);
            prog_sum(y, (size_t)(rdis[n - 1] + n) * sizeof(int));
        }
        MPI_OK(MPI_Iallgatherv(ain, me + 1, MPI_INT, y, rcnt, rdis, MPI_INT, w,
                               &r));
        MPI_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
        for (int p = 0; p < n; p++)
            for (int i = 0; i < p + 1; i++)
                CHECK(y[rdis[p] + i] == val(p, i), "iallgatherv %d/%d", p, i);
        prog_sum(y, (size_t)(rdis[n - 1] + n) * sizeof(int));

        int total = rdis[n - 1] + n;
        for (int i = 0; i < total; i++)
            x[i] = val(me, i);
        MPI_OK(MPI_Ireduce_scatter(x, y, rcnt, MPI_INT, MPI_SUM, w, &r));
        MPI_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
        for (int i = 0; i < me + 1; i++) {
            int e = 0;
            for (int p = 0; p < n; p++)
                e += val(p, rdis[me] + i);
            CHECK(y[i] == e, "ireduce_scatter [%d]", i);
        }
        prog_sum(y, (size_t)(me + 1) * sizeof(int));
        prog_say("iallgather iscatterv ireduce iexscan ireduce_scatter_block "
                 "ialltoall igatherv iallgatherv ireduce_scatter ok");
        free(x);
        free(y);
        free(scnt);
        free(sdis);
        free(rcnt);
        free(rdis);
    }

    /* 4. overlap: Iallreduce while computing */
    {
        double acc = 0, local = 0, global = 0;
        for (int it = 0; it < rounds; it++) {
            MPI_Request r;
            local = me + it * 0.5;
            MPI_OK(MPI_Iallreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, w,
                                  &r));
            int flag = 0;
            for (int k = 0; !flag; k++) {
                acc += (double)(k % 7) * 1e-9; /* "compute" */
                MPI_OK(MPI_Test(&r, &flag, MPI_STATUS_IGNORE));
            }
            double e = n * (n - 1) / 2.0 + n * it * 0.5;
            CHECK(global == e, "round %d: iallreduce %g, want %g", it, global,
                  e);
            prog_sum(&global, sizeof global);
        }
        prog_say("%d overlapped iallreduce rounds ok", rounds);
        (void)acc;
    }
    free(bc);
    free(ar);
    free(ain);
    free(gat);
    return prog_finish();
}
