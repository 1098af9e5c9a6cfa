/*
 * rec-colls - what the recorder must log for the collectives whose output
 * is irregular: nonblocking and persistent collectives (completed by
 * MPI_Wait / MPI_Waitall), rooted ones (root rules, MPI_IN_PLACE,
 * intercommunicators with MPI_ROOT / MPI_PROC_NULL), v- and w-variants,
 * the reduce_scatter family, neighbourhood collectives on Cartesian, graph
 * and distributed-graph topologies (in-degree != size), and the values of
 * predefined attributes.
 *
 * After each case the rank prints what the log must hold for the call that
 * completed it (the collective itself when blocking, else the MPI_Wait or
 * MPI_Waitall), computed from its own buffers with MPI_Pack:
 *
 *   rank R: expect FUNCTION [2.ARG.ELEM=HEX]...   DATA fields
 *   rank R: expect FUNCTION [1.2.1=HEX]           an attribute's value
 *
 * test-record-colls.sh compares these lines with the log (log-fields).
 * The program calls MPI_Wait, MPI_Waitall, the blocking collectives it
 * tests and the attribute getters only in its cases.
 *
 *   mpiexec -n 2..4 ./rec-colls
 */
#include "../progs/progs.h"

static char line[1 << 16];
static size_t line_len;
static unsigned char pk[1 << 14];
static size_t pk_len;

static void expect_begin(const char *fn)
{
    line_len = (size_t)snprintf(line, sizeof line, "expect %s", fn);
}

static void expect_field(int kind, int arg, int elem, const void *p,
                         size_t n)
{
    const unsigned char *b = p;
    line_len += (size_t)snprintf(line + line_len, sizeof line - line_len,
                                 " %d.%d.%d=", kind, arg, elem);
    for (size_t i = 0; i < n && line_len + 3 < sizeof line; i++)
        line_len += (size_t)snprintf(line + line_len, 3, "%02x", b[i]);
}

/* Appends N x TYPE at BUF, packed, to the DATA being built. */
static void pk_add(const void *buf, int n, MPI_Datatype type)
{
    int size, pos = 0;
    MPI_OK(MPI_Pack_size(n, type, MPI_COMM_WORLD, &size));
    CHECK(pk_len + (size_t)size <= sizeof pk, "pack buffer");
    MPI_OK(MPI_Pack(buf, n, type, pk + pk_len, size, &pos, MPI_COMM_WORLD));
    pk_len += (size_t)pos;
}

/* The DATA built so far as argument ARG, element ELEM (none when empty:
 * the recorder logs no empty DATA field). */
static void expect_data(int arg, int elem)
{
    if (pk_len)
        expect_field(2, arg, elem, pk, pk_len);
    pk_len = 0;
}

static void expect_end(void)
{
    printf("rank %d: %s\n", prog_rank, line);
    pk_len = 0;
}

/* Shorthands: one completion logging N x TYPE at BUF (or nothing). */
static void expect_plain(const char *fn, int arg, int written,
                         const void *buf, int n, MPI_Datatype type)
{
    expect_begin(fn);
    if (written)
        pk_add(buf, n, type);
    expect_data(arg, 0);
    expect_end();
}

static void wait1(MPI_Request *r)
{
    MPI_OK(MPI_Wait(r, MPI_STATUS_IGNORE));
}

static int val(int r, int i)
{
    return (r + 1) * 100 + i;
}

/* The predefined attribute KEY of COMM through GET (Comm_get_attr or
 * Attr_get): its value is logged when set. */
static void expect_comm_attr(const char *fn, int key)
{
    int *v = NULL, flag = 0;
    if (strcmp(fn, "MPI_Attr_get") == 0)
        MPI_OK(MPI_Attr_get(MPI_COMM_WORLD, key, &v, &flag));
    else
        MPI_OK(MPI_Comm_get_attr(MPI_COMM_WORLD, key, &v, &flag));
    expect_begin(fn);
    if (flag)
        expect_field(1, 2, 1, v, sizeof *v);
    expect_end();
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    prog_start();
    int n = prog_size, me = prog_rank;
    MPI_Comm w = MPI_COMM_WORLD;
    MPI_Request r;
    CHECK(n >= 2, "needs at least 2 ranks");

    /* Ibcast from 0: the non-roots' buffer. */
    {
        int b[3];
        for (int i = 0; i < 3; i++)
            b[i] = me == 0 ? val(0, i) : -1;
        MPI_OK(MPI_Ibcast(b, 3, MPI_INT, 0, w, &r));
        wait1(&r);
        expect_plain("MPI_Wait", 0, me != 0, b, 3, MPI_INT);
    }

    /* Bcast_init from 1, started twice: each completion logs again. */
    {
        int b[2] = {-1, -1};
        MPI_OK(MPI_Bcast_init(b, 2, MPI_INT, 1, w, MPI_INFO_NULL, &r));
        for (int k = 0; k < 2; k++) {
            if (me == 1)
                b[0] = 10 * k + 1, b[1] = 10 * k + 2;
            MPI_OK(MPI_Start(&r));
            wait1(&r);
            expect_plain("MPI_Wait", 0, me != 1, b, 2, MPI_INT);
        }
        MPI_OK(MPI_Request_free(&r));
    }

    /* Iallreduce in place: recvbuf is written. */
    {
        int a[3] = {me, me * 2, me * 3};
        MPI_OK(MPI_Iallreduce(MPI_IN_PLACE, a, 3, MPI_INT, MPI_SUM, w, &r));
        wait1(&r);
        expect_plain("MPI_Wait", 0, 1, a, 3, MPI_INT);
    }

    /* Iscatter from 0 with recvbuf MPI_IN_PLACE at the root: nothing
     * there; 2 ints elsewhere. */
    {
        int *s = malloc((size_t)n * 2 * sizeof(int)), got[2] = {-1, -1};
        for (int i = 0; i < 2 * n; i++)
            s[i] = val(i / 2, i % 2);
        MPI_OK(MPI_Iscatter(s, 2, MPI_INT, me == 0 ? MPI_IN_PLACE : got, 2,
                            MPI_INT, 0, w, &r));
        wait1(&r);
        expect_plain("MPI_Wait", 0, me != 0, got, 2, MPI_INT);
        free(s);
    }

    /* Igatherv to n-1 of a strided type: counts[i] x vec at displs[i]
     * extents, at the root only. */
    {
        MPI_Datatype vec;
        MPI_OK(MPI_Type_vector(2, 1, 2, MPI_INT, &vec)); /* extent 3 ints */
        MPI_OK(MPI_Type_commit(&vec));
        int *counts = malloc((size_t)n * sizeof(int));
        int *displs = malloc((size_t)n * sizeof(int));
        int total = 0;
        for (int i = n - 1; i >= 0; i--) { /* placed in reverse order */
            counts[i] = i % 2 + 1;
            displs[i] = total;
            total += counts[i];
        }
        int sbuf[6], *rbuf = malloc((size_t)total * 3 * sizeof(int));
        for (int i = 0; i < 6; i++)
            sbuf[i] = val(me, i);
        for (int i = 0; i < total * 3; i++)
            rbuf[i] = -1;
        MPI_OK(MPI_Igatherv(sbuf, me % 2 + 1, vec, rbuf, counts, displs, vec,
                            n - 1, w, &r));
        wait1(&r);
        expect_begin("MPI_Wait");
        if (me == n - 1)
            for (int i = 0; i < n; i++)
                pk_add(rbuf + displs[i] * 3, counts[i], vec);
        expect_data(0, 0);
        expect_end();
        MPI_OK(MPI_Type_free(&vec));
        free(counts);
        free(displs);
        free(rbuf);
    }

    /* Alltoallw: from s, (s + r) % 2 + 1 elements of int (even s) or
     * double (odd s), in 16-byte slots, received in reverse slot order.
     * Blocking, nonblocking, and persistent (started twice). */
    {
        size_t ints = (size_t)n * sizeof(int);
        int *sc = malloc(ints), *sd = malloc(ints);
        int *rc = malloc(ints), *rd = malloc(ints);
        MPI_Datatype *st = malloc((size_t)n * sizeof(MPI_Datatype));
        MPI_Datatype *rt = malloc((size_t)n * sizeof(MPI_Datatype));
        unsigned char *sbuf = malloc((size_t)n * 16);
        unsigned char *rbuf = malloc((size_t)n * 16);
        for (int p = 0; p < n; p++) {
            sc[p] = (me + p) % 2 + 1;
            st[p] = me % 2 ? MPI_DOUBLE : MPI_INT;
            sd[p] = p * 16;
            rc[p] = (p + me) % 2 + 1;
            rt[p] = p % 2 ? MPI_DOUBLE : MPI_INT;
            rd[p] = (n - 1 - p) * 16;
        }
        for (int round = 0; round < 4; round++) {
            for (int p = 0; p < n; p++)
                for (int i = 0; i < 2; i++) {
                    int v = val(me, p * 2 + i) + round;
                    double d = v + 0.5;
                    if (me % 2)
                        memcpy(sbuf + p * 16 + i * 8, &d, 8);
                    else
                        memcpy(sbuf + p * 16 + i * 4, &v, 4);
                }
            memset(rbuf, 0xee, (size_t)n * 16);
            const char *fn = "MPI_Wait";
            int arg = 0;
            if (round == 0) {
                MPI_OK(MPI_Alltoallw(sbuf, sc, sd, st, rbuf, rc, rd, rt, w));
                fn = "MPI_Alltoallw";
                arg = 4;
            } else if (round == 1) {
                MPI_OK(MPI_Ialltoallw(sbuf, sc, sd, st, rbuf, rc, rd, rt, w,
                                      &r));
                wait1(&r);
            } else {
                if (round == 2)
                    MPI_OK(MPI_Alltoallw_init(sbuf, sc, sd, st, rbuf, rc, rd,
                                              rt, w, MPI_INFO_NULL, &r));
                MPI_OK(MPI_Start(&r));
                wait1(&r);
                if (round == 3)
                    MPI_OK(MPI_Request_free(&r));
            }
            expect_begin(fn);
            for (int p = 0; p < n; p++)
                pk_add(rbuf + rd[p], rc[p], rt[p]);
            expect_data(arg, 0);
            expect_end();
        }
        free(sc);
        free(sd);
        free(rc);
        free(rd);
        free(st);
        free(rt);
        free(sbuf);
        free(rbuf);
    }

    /* Reduce_scatter (rank r gets r + 1 ints): blocking, nonblocking,
     * persistent; Reduce_scatter_block: blocking, nonblocking. */
    {
        int *counts = malloc((size_t)n * sizeof(int)), total = 0;
        for (int i = 0; i < n; i++) {
            counts[i] = i + 1;
            total += i + 1;
        }
        int *s = malloc((size_t)total * sizeof(int));
        int *got = malloc((size_t)(n + 1) * sizeof(int));
        for (int round = 0; round < 4; round++) {
            for (int i = 0; i < total; i++)
                s[i] = val(me, i) + round;
            const char *fn = "MPI_Wait";
            int arg = 0;
            if (round == 0) {
                MPI_OK(MPI_Reduce_scatter(s, got, counts, MPI_INT, MPI_SUM,
                                          w));
                fn = "MPI_Reduce_scatter";
                arg = 1;
            } else if (round == 1) {
                MPI_OK(MPI_Ireduce_scatter(s, got, counts, MPI_INT, MPI_SUM,
                                           w, &r));
                wait1(&r);
            } else {
                if (round == 2)
                    MPI_OK(MPI_Reduce_scatter_init(s, got, counts, MPI_INT,
                                                   MPI_SUM, w, MPI_INFO_NULL,
                                                   &r));
                MPI_OK(MPI_Start(&r));
                wait1(&r);
                if (round == 3)
                    MPI_OK(MPI_Request_free(&r));
            }
            expect_plain(fn, arg, 1, got, me + 1, MPI_INT);
        }
        int *sb = malloc((size_t)n * 2 * sizeof(int)), blk[2];
        for (int i = 0; i < 2 * n; i++)
            sb[i] = val(me, i);
        MPI_OK(MPI_Reduce_scatter_block(sb, blk, 2, MPI_INT, MPI_MAX, w));
        expect_plain("MPI_Reduce_scatter_block", 1, 1, blk, 2, MPI_INT);
        MPI_OK(MPI_Ireduce_scatter_block(sb, blk, 2, MPI_INT, MPI_MIN, w, &r));
        wait1(&r);
        expect_plain("MPI_Wait", 0, 1, blk, 2, MPI_INT);
        free(counts);
        free(s);
        free(got);
        free(sb);
    }

    /* Blocking Scatter from 0 and Scatterv from 1: every rank's recvbuf,
     * the root's too. */
    {
        int *s = malloc((size_t)n * 2 * sizeof(int)), got[2] = {-1, -1};
        int *counts = malloc((size_t)n * sizeof(int));
        int *displs = malloc((size_t)n * sizeof(int));
        for (int i = 0; i < 2 * n; i++)
            s[i] = val(i / 2, i % 2);
        MPI_OK(MPI_Scatter(s, 2, MPI_INT, got, 2, MPI_INT, 0, w));
        expect_plain("MPI_Scatter", 3, 1, got, 2, MPI_INT);
        for (int i = 0; i < n; i++) {
            counts[i] = i % 2 + 1;
            displs[i] = 2 * (n - 1 - i);
        }
        MPI_OK(MPI_Scatterv(s, counts, displs, MPI_INT, got, me % 2 + 1,
                            MPI_INT, 1, w));
        expect_plain("MPI_Scatterv", 4, 1, got, me % 2 + 1, MPI_INT);
        free(s);
        free(counts);
        free(displs);
    }

    /* Neighbourhood collectives. A 2-d non-periodic Cartesian grid: 4
     * neighbours, some MPI_PROC_NULL (their blocks stay as they were). */
    {
        int dims[2] = {0, 0}, periods[2] = {0, 0};
        MPI_Comm cart;
        MPI_OK(MPI_Dims_create(n, 2, dims));
        MPI_OK(MPI_Cart_create(w, 2, dims, periods, 0, &cart));
        int mine = val(me, 0), got[4] = {-1, -1, -1, -1};
        MPI_OK(MPI_Neighbor_allgather(&mine, 1, MPI_INT, got, 1, MPI_INT,
                                      cart));
        expect_plain("MPI_Neighbor_allgather", 3, 1, got, 4, MPI_INT);

        /* Neighbor_alltoallv_init: 1 int to each, received in reverse
         * order; started twice. */
        int sc[4] = {1, 1, 1, 1}, sd[4] = {0, 1, 2, 3}, rd[4] = {3, 2, 1, 0};
        int out[4];
        MPI_OK(MPI_Neighbor_alltoallv_init(out, sc, sd, MPI_INT, got, sc, rd,
                                           MPI_INT, cart, MPI_INFO_NULL, &r));
        for (int k = 0; k < 2; k++) {
            for (int i = 0; i < 4; i++)
                out[i] = val(me, i) + 10 * k;
            MPI_OK(MPI_Start(&r));
            wait1(&r);
            expect_begin("MPI_Wait");
            for (int i = 0; i < 4; i++)
                pk_add(got + rd[i], 1, MPI_INT);
            expect_data(0, 0);
            expect_end();
        }
        MPI_OK(MPI_Request_free(&r));
        MPI_OK(MPI_Comm_free(&cart));
    }
    /* A graph ring: 2 neighbours; Ineighbor_allgatherv with rank r sending
     * r % 2 + 1 ints, the second neighbour's block first. */
    {
        int *index = malloc((size_t)n * sizeof(int));
        int *edges = malloc((size_t)n * 2 * sizeof(int));
        for (int i = 0; i < n; i++) {
            index[i] = 2 * (i + 1);
            edges[2 * i] = (i + n - 1) % n;
            edges[2 * i + 1] = (i + 1) % n;
        }
        MPI_Comm graph;
        MPI_OK(MPI_Graph_create(w, n, index, edges, 0, &graph));
        int nb[2], counts[2], displs[2], mine[2], got[4];
        MPI_OK(MPI_Graph_neighbors(graph, me, 2, nb));
        counts[0] = nb[0] % 2 + 1;
        counts[1] = nb[1] % 2 + 1;
        displs[1] = 0;
        displs[0] = counts[1];
        mine[0] = val(me, 0);
        mine[1] = val(me, 1);
        MPI_OK(MPI_Ineighbor_allgatherv(mine, me % 2 + 1, MPI_INT, got,
                                        counts, displs, MPI_INT, graph, &r));
        wait1(&r);
        expect_begin("MPI_Wait");
        for (int i = 0; i < 2; i++)
            pk_add(got + displs[i], counts[i], MPI_INT);
        expect_data(0, 0);
        expect_end();

        /* (I)neighbor_alltoallw: an int to each neighbour, received at
         * byte displacements in reverse order. */
        int sc[2] = {1, 1};
        MPI_Aint sd[2] = {0, 4}, rd[2] = {12, 4};
        MPI_Datatype t[2] = {MPI_INT, MPI_INT};
        for (int k = 0; k < 2; k++) {
            memset(got, 0xee, sizeof got);
            mine[0] = val(me, 2 * k);
            mine[1] = val(me, 2 * k + 1);
            if (k == 0) {
                MPI_OK(MPI_Ineighbor_alltoallw(mine, sc, sd, t, got, sc, rd,
                                               t, graph, &r));
                wait1(&r);
            } else {
                MPI_OK(MPI_Neighbor_alltoallw(mine, sc, sd, t, got, sc, rd, t,
                                              graph));
            }
            expect_begin(k ? "MPI_Neighbor_alltoallw" : "MPI_Wait");
            for (int i = 0; i < 2; i++)
                pk_add((char *)got + rd[i], 1, MPI_INT);
            expect_data(k ? 4 : 0, 0);
            expect_end();
        }
        MPI_OK(MPI_Comm_free(&graph));
        free(index);
        free(edges);
    }
    /* A distributed graph where in-degree != size: everyone sends to 0 and
     * to the next rank, so 0 hears from all, the others from one. */
    {
        int dst[2] = {0, me + 1}, outdeg = me + 1 < n ? 2 : 1;
        int *src = malloc((size_t)n * sizeof(int)), indeg;
        if (me == 0) {
            for (int i = 0; i < n; i++)
                src[i] = i;
            indeg = n;
        } else {
            src[0] = me - 1;
            indeg = 1;
        }
        MPI_Comm dist;
        MPI_OK(MPI_Dist_graph_create_adjacent(w, indeg, src, MPI_UNWEIGHTED,
                                              outdeg, dst, MPI_UNWEIGHTED,
                                              MPI_INFO_NULL, 0, &dist));
        int out[2] = {val(me, 0), val(me, 1)};
        int *got = malloc((size_t)n * sizeof(int));
        MPI_OK(MPI_Ineighbor_alltoall(out, 1, MPI_INT, got, 1, MPI_INT, dist,
                                      &r));
        wait1(&r);
        expect_plain("MPI_Wait", 0, 1, got, indeg, MPI_INT);
        MPI_OK(MPI_Comm_free(&dist));
        free(src);
        free(got);
    }

    /* Intercommunicator between the even and the odd ranks; world rank 0
     * (even leader) is the root: it passes MPI_ROOT, the other even ranks
     * MPI_PROC_NULL, the odd ranks 0. */
    {
        MPI_Comm half, inter;
        MPI_OK(MPI_Comm_split(w, me % 2, me, &half));
        MPI_OK(MPI_Intercomm_create(half, 0, w, me % 2 ? 0 : 1, 5, &inter));
        int rsize, root = me % 2 ? 0 : me == 0 ? MPI_ROOT : MPI_PROC_NULL;
        MPI_OK(MPI_Comm_remote_size(inter, &rsize));
        int b[2] = {-1, -1};
        if (me == 0)
            b[0] = 7, b[1] = 8;
        MPI_OK(MPI_Ibcast(b, 2, MPI_INT, root, inter, &r));
        wait1(&r);
        expect_plain("MPI_Wait", 0, me % 2, b, 2, MPI_INT);

        int *g = malloc((size_t)rsize * 2 * sizeof(int));
        int mine[2] = {val(me, 0), val(me, 1)};
        MPI_OK(MPI_Igather(mine, 2, MPI_INT, g, 2, MPI_INT, root, inter, &r));
        wait1(&r);
        expect_plain("MPI_Wait", 0, me == 0, g, 2 * rsize, MPI_INT);

        int sum[2] = {-1, -1};
        MPI_OK(MPI_Reduce(mine, sum, 2, MPI_INT, MPI_SUM, root, inter));
        expect_plain("MPI_Reduce", 1, me == 0, sum, 2, MPI_INT);
        free(g);
        MPI_OK(MPI_Comm_free(&inter));
        MPI_OK(MPI_Comm_free(&half));
    }

    /* Waitall over three collectives: DATA element = the request's index
     * (the Ibarrier in the middle writes nothing). */
    {
        int mine = val(me, 0), scan = -1;
        int *all = malloc((size_t)n * sizeof(int));
        MPI_Request rs[3];
        MPI_Status sts[3];
        MPI_OK(MPI_Iallgather(&mine, 1, MPI_INT, all, 1, MPI_INT, w, &rs[0]));
        MPI_OK(MPI_Ibarrier(w, &rs[1]));
        MPI_OK(MPI_Iscan(&mine, &scan, 1, MPI_INT, MPI_SUM, w, &rs[2]));
        MPI_OK(MPI_Waitall(3, rs, sts));
        expect_begin("MPI_Waitall");
        pk_add(all, n, MPI_INT);
        expect_data(1, 0);
        pk_add(&scan, 1, MPI_INT);
        expect_data(1, 2);
        expect_end();
        free(all);
    }

    /* Attributes: a predefined keyval's value is logged; a program's own
     * keyval's is not (its attribute is the pointer itself). */
    {
        expect_comm_attr("MPI_Comm_get_attr", MPI_TAG_UB);
        expect_comm_attr("MPI_Attr_get", MPI_TAG_UB);
        expect_comm_attr("MPI_Comm_get_attr", MPI_WTIME_IS_GLOBAL);
        expect_comm_attr("MPI_Comm_get_attr", MPI_UNIVERSE_SIZE);
        expect_comm_attr("MPI_Comm_get_attr", MPI_APPNUM);
        int key, flag;
        void *v;
        MPI_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN,
                                      MPI_COMM_NULL_DELETE_FN, &key, NULL));
        MPI_OK(MPI_Comm_set_attr(w, key, (void *)42L));
        MPI_OK(MPI_Comm_get_attr(w, key, &v, &flag));
        CHECK(flag && v == (void *)42L, "own attribute");
        expect_begin("MPI_Comm_get_attr");
        expect_end();
        MPI_OK(MPI_Comm_delete_attr(w, key));
        MPI_OK(MPI_Comm_free_keyval(&key));

        int mem[10];
        MPI_Win win;
        MPI_OK(MPI_Win_create(mem, sizeof mem, 4, MPI_INFO_NULL, w, &win));
        static const int keys[] = {MPI_WIN_BASE, MPI_WIN_SIZE,
                                   MPI_WIN_DISP_UNIT, MPI_WIN_CREATE_FLAVOR,
                                   MPI_WIN_MODEL};
        for (int k = 0; k < 5; k++) {
            void *a = NULL;
            MPI_OK(MPI_Win_get_attr(win, keys[k], &a, &flag));
            CHECK(flag, "window attribute %d", k);
            expect_begin("MPI_Win_get_attr");
            if (k == 1)
                expect_field(1, 2, 1, a, sizeof(MPI_Aint));
            else if (k > 1)
                expect_field(1, 2, 1, a, sizeof(int));
            expect_end();
        }
        MPI_OK(MPI_Win_free(&win));
    }
    return prog_finish();
}
