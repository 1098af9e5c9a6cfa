/*
 * collectives - every blocking collective, results checked on every rank.
 *
 * MPI_Barrier, MPI_Bcast, MPI_Gather, MPI_Gatherv, MPI_Scatter,
 * MPI_Scatterv, MPI_Allgather, MPI_Allgatherv, MPI_Alltoall, MPI_Alltoallv,
 * MPI_Alltoallw (int blocks to even ranks, double blocks to odd ones),
 * MPI_Reduce, MPI_Allreduce, MPI_Reduce_scatter, MPI_Reduce_scatter_block,
 * MPI_Scan, MPI_Exscan, with predefined ops (SUM, MAX, MIN, PROD, BXOR,
 * MAXLOC), user-defined ops (a commutative one, and a non-commutative one:
 * composition of affine maps, whose result depends on rank order), MPI_IN_PLACE
 * forms, and roots other than 0. Each result is compared with the value
 * computed locally from the formula every rank used for its contribution.
 *
 *   mpiexec -n 1..4 ./collectives
 */
#include "progs.h"

/* Rank R's contribution, element I. */
static int val(int r, int i)
{
    return (r + 1) * 100 + i;
}

/* Commutative user op: sum modulo 1009. */
static void sum_mod(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    int *a = in, *b = inout;
    for (int i = 0; i < *len; i++)
        b[i] = (a[i] + b[i]) % 1009;
}

/* Affine map x -> a*x + b (mod P), a pair of long longs. */
#define P 1000003LL
typedef struct {
    long long a, b;
} affine;

static affine affine_of(int r, int i)
{
    affine f = {2 + r * 7 + i, 3 + r * 11 + i * 5};
    return f;
}

/* u then v: x -> a_v (a_u x + b_u) + b_v. */
static affine compose(affine u, affine v)
{
    affine w = {v.a * u.a % P, (v.a * u.b + v.b) % P};
    return w;
}

/* Non-commutative user op: inout = in then inout (MPI passes the
 * lower-ranked operand as IN). */
static void affine_op(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    affine *a = in, *b = inout;
    for (int i = 0; i < *len; i++)
        b[i] = compose(a[i], b[i]);
}

static void sum_ints(const int *b, int n)
{
    prog_sum(b, (size_t)n * sizeof(int));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    prog_start();
    int n = prog_size, me = prog_rank;
    MPI_Comm w = MPI_COMM_WORLD;
    enum { K = 5 };             /* elements per rank in most tests */
    int *a = calloc((size_t)n * K * n + 64, sizeof(int));
    int *b = calloc((size_t)n * K * n + 64, sizeof(int));
    int root = n - 1;

    MPI_OK(MPI_Barrier(w));
    prog_say("barrier ok");

    /* Bcast from the last rank */
    for (int i = 0; i < K; i++)
        a[i] = me == root ? val(root, i) : -1;
    MPI_OK(MPI_Bcast(a, K, MPI_INT, root, w));
    for (int i = 0; i < K; i++)
        CHECK(a[i] == val(root, i), "bcast[%d] = %d", i, a[i]);
    sum_ints(a, K);
    prog_say("bcast ok");

    /* Gather to 0 */
    for (int i = 0; i < K; i++)
        a[i] = val(me, i);
    MPI_OK(MPI_Gather(a, K, MPI_INT, b, K, MPI_INT, 0, w));
    if (me == 0) {
        for (int r = 0; r < n; r++)
            for (int i = 0; i < K; i++)
                CHECK(b[r * K + i] == val(r, i), "gather %d/%d", r, i);
        sum_ints(b, n * K);
    }
    prog_say("gather ok");

    /* Gatherv: rank r sends r+1 elements, placed in reverse rank order
     * with a gap of 1 */
    {
        int *counts = malloc((size_t)n * sizeof(int));
        int *displs = malloc((size_t)n * sizeof(int));
        int pos = 0;
        for (int r = n - 1; r >= 0; r--) {
            counts[r] = r + 1;
            displs[r] = pos;
            pos += r + 2;
        }
        for (int i = 0; i < pos; i++)
            b[i] = -7;
        MPI_OK(MPI_Gatherv(a, me + 1, MPI_INT, b, counts, displs, MPI_INT,
                           root, w));
        if (me == root) {
            for (int r = 0; r < n; r++) {
                for (int i = 0; i < r + 1; i++)
                    CHECK(b[displs[r] + i] == val(r, i), "gatherv %d/%d", r,
                          i);
                CHECK(b[displs[r] + r + 1] == -7, "gatherv wrote the gap");
            }
            sum_ints(b, pos);
        }
        prog_say("gatherv ok");

        /* Scatterv with the same layout back out */
        if (me == root)
            for (int r = 0; r < n; r++)
                for (int i = 0; i < r + 1; i++)
                    b[displs[r] + i] = val(r, i) * 3;
        memset(a, 0, (size_t)K * n * sizeof(int));
        MPI_OK(MPI_Scatterv(b, counts, displs, MPI_INT, a, me + 1, MPI_INT,
                            root, w));
        for (int i = 0; i < me + 1; i++)
            CHECK(a[i] == val(me, i) * 3, "scatterv %d = %d", i, a[i]);
        sum_ints(a, me + 1);
        prog_say("scatterv ok");
        free(counts);
        free(displs);
    }

    /* Scatter from 0 */
    if (me == 0)
        for (int r = 0; r < n; r++)
            for (int i = 0; i < K; i++)
                b[r * K + i] = val(r, i) + 1;
    MPI_OK(MPI_Scatter(b, K, MPI_INT, a, K, MPI_INT, 0, w));
    for (int i = 0; i < K; i++)
        CHECK(a[i] == val(me, i) + 1, "scatter %d", i);
    sum_ints(a, K);
    prog_say("scatter ok");

    /* Allgather, then the same with MPI_IN_PLACE */
    for (int i = 0; i < K; i++)
        a[i] = val(me, i);
    MPI_OK(MPI_Allgather(a, K, MPI_INT, b, K, MPI_INT, w));
    for (int r = 0; r < n; r++)
        for (int i = 0; i < K; i++)
            CHECK(b[r * K + i] == val(r, i), "allgather %d/%d", r, i);
    sum_ints(b, n * K);
    for (int i = 0; i < n * K; i++)
        b[i] = i / K == me ? val(me, i % K) + 5 : 0;
    MPI_OK(MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, b, K, MPI_INT,
                         w));
    for (int r = 0; r < n; r++)
        for (int i = 0; i < K; i++)
            CHECK(b[r * K + i] == val(r, i) + 5, "allgather in place");
    sum_ints(b, n * K);
    prog_say("allgather ok");

    /* Allgatherv: rank r contributes r+1 elements, packed */
    {
        int *counts = malloc((size_t)n * sizeof(int));
        int *displs = malloc((size_t)n * sizeof(int));
        int pos = 0;
        for (int r = 0; r < n; r++) {
            counts[r] = r + 1;
            displs[r] = pos;
            pos += r + 1;
        }
        MPI_OK(MPI_Allgatherv(a, me + 1, MPI_INT, b, counts, displs, MPI_INT,
                              w));
        for (int r = 0; r < n; r++)
            for (int i = 0; i < r + 1; i++)
                CHECK(b[displs[r] + i] == val(r, i), "allgatherv %d/%d", r,
                      i);
        sum_ints(b, pos);
        prog_say("allgatherv ok");
        free(counts);
        free(displs);
    }

    /* Alltoall: block to rank p is val(me, p*K+i) */
    for (int p = 0; p < n; p++)
        for (int i = 0; i < K; i++)
            a[p * K + i] = val(me, p * K + i);
    MPI_OK(MPI_Alltoall(a, K, MPI_INT, b, K, MPI_INT, w));
    for (int p = 0; p < n; p++)
        for (int i = 0; i < K; i++)
            CHECK(b[p * K + i] == val(p, me * K + i), "alltoall %d/%d", p, i);
    sum_ints(b, n * K);
    prog_say("alltoall ok");

    /* Alltoallv: me sends (me + p) % 3 + 1 elements to p */
    {
        int *sc = malloc((size_t)n * sizeof(int)), *sd = malloc((size_t)n * sizeof(int));
        int *rc = malloc((size_t)n * sizeof(int)), *rd = malloc((size_t)n * sizeof(int));
        int spos = 0, rpos = 0;
        for (int p = 0; p < n; p++) {
            sc[p] = (me + p) % 3 + 1;
            sd[p] = spos;
            spos += sc[p];
            rc[p] = (p + me) % 3 + 1;
            rd[p] = rpos;
            rpos += rc[p];
        }
        for (int p = 0; p < n; p++)
            for (int i = 0; i < sc[p]; i++)
                a[sd[p] + i] = prog_payload(me, p, 0, 0, i);
        MPI_OK(MPI_Alltoallv(a, sc, sd, MPI_INT, b, rc, rd, MPI_INT, w));
        for (int p = 0; p < n; p++)
            CHECK_PAYLOAD(b + rd[p], rc[p], p, me, 0, 0);
        sum_ints(b, rpos);
        prog_say("alltoallv ok");

        /* Alltoallw: ints to even ranks, doubles to odd ranks; byte
         * displacements into one buffer of 16-byte slots. */
        MPI_Datatype *st = malloc((size_t)n * sizeof(MPI_Datatype));
        MPI_Datatype *rt = malloc((size_t)n * sizeof(MPI_Datatype));
        unsigned char sbuf[4 * 64], rbuf[4 * 64];
        memset(rbuf, 0, sizeof rbuf);
        for (int p = 0; p < n; p++) {
            st[p] = p % 2 ? MPI_DOUBLE : MPI_INT;
            rt[p] = me % 2 ? MPI_DOUBLE : MPI_INT;
            sc[p] = rc[p] = 2;
            sd[p] = rd[p] = p * 16;
            for (int i = 0; i < 2; i++) {
                int v = prog_payload(me, p, 1, 0, i) % 100000;
                if (p % 2) {
                    double d = v + 0.25;
                    memcpy(sbuf + p * 16 + i * 8, &d, 8);
                } else {
                    memcpy(sbuf + p * 16 + i * 4, &v, 4);
                }
            }
        }
        MPI_OK(MPI_Alltoallw(sbuf, sc, sd, st, rbuf, rc, rd, rt, w));
        for (int p = 0; p < n; p++)
            for (int i = 0; i < 2; i++) {
                int v = prog_payload(p, me, 1, 0, i) % 100000;
                if (me % 2) {
                    double d;
                    memcpy(&d, rbuf + p * 16 + i * 8, 8);
                    CHECK(d == v + 0.25, "alltoallw double from %d", p);
                } else {
                    int x;
                    memcpy(&x, rbuf + p * 16 + i * 4, 4);
                    CHECK(x == v, "alltoallw int from %d: %d", p, x);
                }
            }
        prog_sum(rbuf, (size_t)n * 16);
        prog_say("alltoallw ok");
        free(st);
        free(rt);
        free(sc);
        free(sd);
        free(rc);
        free(rd);
    }

    /* Reduce with predefined ops, to a non-zero root */
    {
        long long mine[K], got[K];
        static const MPI_Op ops[] = {MPI_SUM, MPI_MAX, MPI_MIN, MPI_PROD,
                                     MPI_BXOR};
        static const char *names[] = {"SUM", "MAX", "MIN", "PROD", "BXOR"};
        for (int o = 0; o < 5; o++) {
            for (int i = 0; i < K; i++)
                mine[i] = val(me, i) % 17 + 1;
            MPI_OK(MPI_Reduce(mine, got, K, MPI_LONG_LONG, ops[o], root, w));
            if (me == root) {
                for (int i = 0; i < K; i++) {
                    long long e = o == 3 ? 1 : o == 2 ? 1LL << 40 : 0;
                    for (int r = 0; r < n; r++) {
                        long long v = val(r, i) % 17 + 1;
                        e = o == 0 ? e + v : o == 1 ? (v > e ? v : e)
                          : o == 2 ? (v < e ? v : e) : o == 3 ? e * v : e ^ v;
                    }
                    CHECK(got[i] == e, "reduce %s[%d] = %lld, want %lld",
                          names[o], i, got[i], e);
                }
                prog_sum(got, sizeof got);
            }
        }
        prog_say("reduce SUM MAX MIN PROD BXOR ok");
    }

    /* Allreduce: double SUM, MAXLOC, user commutative op, in place */
    {
        double d = me + 0.5, dsum;
        MPI_OK(MPI_Allreduce(&d, &dsum, 1, MPI_DOUBLE, MPI_SUM, w));
        CHECK(dsum == n * n / 2.0, "allreduce double %g", dsum);
        prog_sum(&dsum, sizeof dsum);

        struct {
            int v, r;
        } in = {(me * 37) % 5, me}, out;
        MPI_OK(MPI_Allreduce(&in, &out, 1, MPI_2INT, MPI_MAXLOC, w));
        int bv = -1, br = -1;
        for (int r = 0; r < n; r++)
            if ((r * 37) % 5 > bv)
                bv = (r * 37) % 5, br = r;
        CHECK(out.v == bv && out.r == br, "maxloc %d@%d", out.v, out.r);
        prog_sum(&out, sizeof out);

        MPI_Op op;
        MPI_OK(MPI_Op_create(sum_mod, 1, &op));
        for (int i = 0; i < K; i++)
            a[i] = val(me, i) * 13;
        MPI_OK(MPI_Allreduce(MPI_IN_PLACE, a, K, MPI_INT, op, w));
        for (int i = 0; i < K; i++) {
            int e = 0;
            for (int r = 0; r < n; r++)
                e = (e + val(r, i) * 13) % 1009;
            /* the op never reduces a lone operand: n == 1 keeps it */
            if (n == 1)
                e = val(0, i) * 13;
            CHECK(a[i] == e, "user op [%d] = %d, want %d", i, a[i], e);
        }
        sum_ints(a, K);
        MPI_OK(MPI_Op_free(&op));
        prog_say("allreduce double, maxloc, user op ok");
    }

    /* Non-commutative user op: Reduce, Allreduce, Scan, Exscan */
    {
        MPI_Datatype aff;
        MPI_Op op;
        MPI_OK(MPI_Type_contiguous(2, MPI_LONG_LONG, &aff));
        MPI_OK(MPI_Type_commit(&aff));
        MPI_OK(MPI_Op_create(affine_op, 0, &op));
        affine mine[3], got[3], want[3], prefix[3];
        for (int i = 0; i < 3; i++)
            mine[i] = affine_of(me, i);
        /* expected: rank 0's map first, then 1, ... */
        for (int i = 0; i < 3; i++) {
            want[i] = affine_of(0, i);
            for (int r = 1; r < n; r++)
                want[i] = compose(want[i], affine_of(r, i));
        }
        MPI_OK(MPI_Reduce(mine, got, 3, aff, op, 0, w));
        if (me == 0)
            for (int i = 0; i < 3; i++)
                CHECK(got[i].a == want[i].a && got[i].b == want[i].b,
                      "noncommutative reduce [%d]", i);
        MPI_OK(MPI_Allreduce(mine, got, 3, aff, op, w));
        for (int i = 0; i < 3; i++)
            CHECK(got[i].a == want[i].a && got[i].b == want[i].b,
                  "noncommutative allreduce [%d]", i);
        prog_sum(got, sizeof got);

        MPI_OK(MPI_Scan(mine, got, 3, aff, op, w));
        for (int i = 0; i < 3; i++) {
            prefix[i] = affine_of(0, i);
            for (int r = 1; r <= me; r++)
                prefix[i] = compose(prefix[i], affine_of(r, i));
            CHECK(got[i].a == prefix[i].a && got[i].b == prefix[i].b,
                  "noncommutative scan [%d]", i);
        }
        prog_sum(got, sizeof got);

        memset(got, 0x5a, sizeof got);
        MPI_OK(MPI_Exscan(mine, got, 3, aff, op, w));
        if (me > 0) { /* rank 0's exscan result is undefined */
            for (int i = 0; i < 3; i++) {
                prefix[i] = affine_of(0, i);
                for (int r = 1; r < me; r++)
                    prefix[i] = compose(prefix[i], affine_of(r, i));
                CHECK(got[i].a == prefix[i].a && got[i].b == prefix[i].b,
                      "noncommutative exscan [%d]", i);
            }
            prog_sum(got, sizeof got);
        }
        MPI_OK(MPI_Op_free(&op));
        MPI_OK(MPI_Type_free(&aff));
        prog_say("non-commutative reduce, allreduce, scan, exscan ok");
    }

    /* Scan and Exscan with MPI_SUM */
    {
        int x = val(me, 0), s = 0, e = -1;
        MPI_OK(MPI_Scan(&x, &s, 1, MPI_INT, MPI_SUM, w));
        MPI_OK(MPI_Exscan(&x, &e, 1, MPI_INT, MPI_SUM, w));
        int ws = 0;
        for (int r = 0; r <= me; r++)
            ws += val(r, 0);
        CHECK(s == ws, "scan %d, want %d", s, ws);
        CHECK(me == 0 || e == ws - x, "exscan %d, want %d", e, ws - x);
        prog_sum_i(s);
        if (me > 0)
            prog_sum_i(e);
        prog_say("scan %d exscan %d", s, me > 0 ? e : 0);
    }

    /* Reduce_scatter (rank r gets r+1 elements) and Reduce_scatter_block */
    {
        int *counts = malloc((size_t)n * sizeof(int));
        int total = 0, off = 0;
        for (int r = 0; r < n; r++) {
            counts[r] = r + 1;
            total += r + 1;
        }
        for (int r = 0; r < me; r++)
            off += r + 1;
        for (int i = 0; i < total; i++)
            a[i] = val(me, i);
        MPI_OK(MPI_Reduce_scatter(a, b, counts, MPI_INT, MPI_SUM, w));
        for (int i = 0; i < me + 1; i++) {
            int e = 0;
            for (int r = 0; r < n; r++)
                e += val(r, off + i);
            CHECK(b[i] == e, "reduce_scatter [%d] = %d, want %d", i, b[i], e);
        }
        sum_ints(b, me + 1);
        for (int i = 0; i < n * K; i++)
            a[i] = val(me, i);
        MPI_OK(MPI_Reduce_scatter_block(a, b, K, MPI_INT, MPI_MAX, w));
        for (int i = 0; i < K; i++)
            CHECK(b[i] == val(n - 1, me * K + i), "reduce_scatter_block");
        sum_ints(b, K);
        free(counts);
        prog_say("reduce_scatter and reduce_scatter_block ok");
    }

    /* Reduce in place at the root */
    for (int i = 0; i < K; i++)
        a[i] = val(me, i);
    if (me == 0)
        MPI_OK(MPI_Reduce(MPI_IN_PLACE, a, K, MPI_INT, MPI_SUM, 0, w));
    else
        MPI_OK(MPI_Reduce(a, NULL, K, MPI_INT, MPI_SUM, 0, w));
    if (me == 0) {
        for (int i = 0; i < K; i++) {
            int e = 0;
            for (int r = 0; r < n; r++)
                e += val(r, i);
            CHECK(a[i] == e, "reduce in place [%d]", i);
        }
        sum_ints(a, K);
    }
    prog_say("reduce in place ok");

    MPI_OK(MPI_Barrier(w));
    free(a);
    free(b);
    return prog_finish();
}
