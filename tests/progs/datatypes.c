/*
 * datatypes - derived datatypes as receive types, packing, counts, extents.
 *
 * Every rank sends plain MPI_INT (or MPI_DOUBLE) arrays to its right
 * neighbour and receives them from its left neighbour with a derived
 * datatype into a buffer prefilled with a sentinel. It checks that each
 * element landed where the type map says and that no other byte changed.
 * Types: contiguous, vector (count 2), hvector of doubles, indexed,
 * hindexed, indexed_block, struct (sent and received as the struct type),
 * subarray, darray (BLOCK x CYCLIC over the MPI_Dims_create grid), resized,
 * dup. Also: MPI_Pack/MPI_Unpack/MPI_Pack_size through an MPI_PACKED
 * message, MPI_Get_count (MPI_UNDEFINED for a partial type) and
 * MPI_Get_elements, MPI_Type_size/get_extent/get_true_extent.
 *
 *   mpiexec -n 1..4 ./datatypes
 */
#include <stddef.h>

#include "progs.h"

enum { SENTINEL = -1 };

static int left, right, tagno = 100;

/* Receives NPOS ints from the left with COUNT x TYPE into an int buffer of
 * BUFN elements; element k must land at POS[k]. */
static void check_ints(const char *name, MPI_Datatype type, int count,
                       const int *pos, int npos, int bufn)
{
    int tag = tagno++;
    int *out = malloc((size_t)npos * sizeof(int));
    int *buf = malloc((size_t)bufn * sizeof(int));
    prog_fill(out, npos, prog_rank, right, tag, 0);
    for (int i = 0; i < bufn; i++)
        buf[i] = SENTINEL;
    MPI_Request req;
    MPI_Status st;
    MPI_OK(MPI_Isend(out, npos, MPI_INT, right, tag, MPI_COMM_WORLD, &req));
    MPI_OK(MPI_Recv(buf, count, type, left, tag, MPI_COMM_WORLD, &st));
    MPI_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));

    int c, e, size;
    MPI_OK(MPI_Get_count(&st, type, &c));
    MPI_OK(MPI_Get_elements(&st, type, &e));
    MPI_OK(MPI_Type_size(type, &size));
    CHECK(c == count && e == npos && size * count == npos * (int)sizeof(int),
          "%s: count %d elements %d size %d", name, c, e, size);
    char *hit = calloc((size_t)bufn, 1);
    for (int k = 0; k < npos; k++) {
        CHECK(buf[pos[k]] == prog_payload(left, prog_rank, tag, 0, k),
              "%s: element %d not at %d", name, k, pos[k]);
        hit[pos[k]] = 1;
    }
    for (int i = 0; i < bufn; i++)
        CHECK(hit[i] || buf[i] == SENTINEL, "%s: wrote gap %d", name, i);
    prog_sum(buf, (size_t)bufn * sizeof(int));

    MPI_Aint lb, ext, tlb, text;
    MPI_OK(MPI_Type_get_extent(type, &lb, &ext));
    MPI_OK(MPI_Type_get_true_extent(type, &tlb, &text));
    prog_sum_i(lb);
    prog_sum_i(ext);
    prog_sum_i(tlb);
    prog_sum_i(text);
    prog_say("%s: size %d extent %ld/%ld true %ld/%ld ok", name, size,
             (long)lb, (long)ext, (long)tlb, (long)text);
    free(out);
    free(buf);
    free(hit);
}

struct rec {
    int a;
    double b;
    char c[3];
};

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    prog_start();
    int n = prog_size, me = prog_rank;
    left = (me + n - 1) % n;
    right = (me + 1) % n;
    MPI_Datatype t;

    /* contiguous x2 */
    {
        int pos[10];
        for (int i = 0; i < 10; i++)
            pos[i] = i;
        MPI_OK(MPI_Type_contiguous(5, MPI_INT, &t));
        MPI_OK(MPI_Type_commit(&t));
        check_ints("contiguous", t, 2, pos, 10, 12);
        MPI_OK(MPI_Type_free(&t));
    }

    /* vector (4 blocks of 2, stride 5), count 2: the second copy starts
     * one extent (17 ints) later */
    MPI_Datatype vec;
    {
        int pos[16], k = 0;
        for (int c = 0; c < 2; c++)
            for (int b = 0; b < 4; b++)
                for (int i = 0; i < 2; i++)
                    pos[k++] = c * 17 + b * 5 + i;
        MPI_OK(MPI_Type_vector(4, 2, 5, MPI_INT, &vec));
        MPI_OK(MPI_Type_commit(&vec));
        MPI_Aint lb, ext;
        MPI_Type_get_extent(vec, &lb, &ext);
        CHECK(lb == 0 && ext == 17 * (MPI_Aint)sizeof(int), "vector extent");
        check_ints("vector", vec, 2, pos, 16, 40);
    }

    /* dup of the vector */
    {
        int pos[8], k = 0;
        for (int b = 0; b < 4; b++)
            for (int i = 0; i < 2; i++)
                pos[k++] = b * 5 + i;
        MPI_OK(MPI_Type_dup(vec, &t));
        check_ints("dup", t, 1, pos, 8, 20);
        MPI_OK(MPI_Type_free(&t));
    }

    /* partial receive: 7 ints into one vector of 8 */
    {
        int tag = tagno++, out[7], buf[20];
        prog_fill(out, 7, me, right, tag, 0);
        for (int i = 0; i < 20; i++)
            buf[i] = SENTINEL;
        MPI_Request req;
        MPI_Status st;
        MPI_OK(MPI_Isend(out, 7, MPI_INT, right, tag, MPI_COMM_WORLD, &req));
        MPI_OK(MPI_Recv(buf, 1, vec, left, tag, MPI_COMM_WORLD, &st));
        MPI_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        int c, e;
        MPI_Count ex;
        MPI_OK(MPI_Get_count(&st, vec, &c));
        MPI_OK(MPI_Get_elements(&st, vec, &e));
        MPI_OK(MPI_Get_elements_x(&st, vec, &ex));
        CHECK(c == MPI_UNDEFINED && e == 7 && ex == 7,
              "partial: count %d elements %d/%lld", c, e, (long long)ex);
        static const int pos[7] = {0, 1, 5, 6, 10, 11, 15};
        for (int k = 0; k < 7; k++)
            CHECK(buf[pos[k]] == prog_payload(left, me, tag, 0, k),
                  "partial element %d", k);
        CHECK(buf[16] == SENTINEL, "partial wrote past the message");
        prog_sum(buf, sizeof buf);
        prog_say("partial vector: count UNDEFINED, elements 7 ok");
    }
    MPI_OK(MPI_Type_free(&vec));

    /* hvector of doubles: 3 doubles, stride 3 doubles */
    {
        int tag = tagno++;
        double out[3], buf[9];
        for (int i = 0; i < 3; i++)
            out[i] = prog_payload(me, right, tag, 0, i) + 0.5;
        for (int i = 0; i < 9; i++)
            buf[i] = -1.0;
        MPI_OK(MPI_Type_create_hvector(3, 1, 3 * sizeof(double), MPI_DOUBLE,
                                       &t));
        MPI_OK(MPI_Type_commit(&t));
        MPI_Request req;
        MPI_Status st;
        MPI_OK(MPI_Isend(out, 3, MPI_DOUBLE, right, tag, MPI_COMM_WORLD, &req));
        MPI_OK(MPI_Recv(buf, 1, t, left, tag, MPI_COMM_WORLD, &st));
        MPI_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        for (int i = 0; i < 9; i++)
            CHECK(i % 3 ? buf[i] == -1.0
                        : buf[i] == prog_payload(left, me, tag, 0, i / 3) + 0.5,
                  "hvector [%d] = %g", i, buf[i]);
        prog_sum(buf, sizeof buf);
        MPI_OK(MPI_Type_free(&t));
        prog_say("hvector of doubles ok");
    }

    /* indexed: blocks {3 at 4, 1 at 0, 2 at 9}, in that order */
    {
        int bl[3] = {3, 1, 2}, dp[3] = {4, 0, 9};
        int pos[6] = {4, 5, 6, 0, 9, 10};
        MPI_OK(MPI_Type_indexed(3, bl, dp, MPI_INT, &t));
        MPI_OK(MPI_Type_commit(&t));
        check_ints("indexed", t, 1, pos, 6, 12);
        MPI_OK(MPI_Type_free(&t));
    }

    /* hindexed: {2 at byte 8*4, 2 at byte 0} */
    {
        int bl[2] = {2, 2};
        MPI_Aint dp[2] = {8 * sizeof(int), 0};
        int pos[4] = {8, 9, 0, 1};
        MPI_OK(MPI_Type_create_hindexed(2, bl, dp, MPI_INT, &t));
        MPI_OK(MPI_Type_commit(&t));
        check_ints("hindexed", t, 1, pos, 4, 12);
        MPI_OK(MPI_Type_free(&t));
    }

    /* indexed_block: blocks of 2 at 6, 1, 3 */
    {
        int dp[3] = {6, 1, 3};
        int pos[6] = {6, 7, 1, 2, 3, 4};
        MPI_OK(MPI_Type_create_indexed_block(3, 2, dp, MPI_INT, &t));
        MPI_OK(MPI_Type_commit(&t));
        check_ints("indexed_block", t, 1, pos, 6, 10);
        MPI_OK(MPI_Type_free(&t));
    }

    /* resized: an int with extent 3 ints, count 4 */
    {
        int pos[4] = {0, 3, 6, 9};
        MPI_OK(MPI_Type_create_resized(MPI_INT, 0, 3 * sizeof(int), &t));
        MPI_OK(MPI_Type_commit(&t));
        check_ints("resized", t, 4, pos, 4, 12);
        MPI_OK(MPI_Type_free(&t));
    }

    /* subarray: 3x2 block at (1,2) of a 6x5 C-order array */
    {
        int sizes[2] = {6, 5}, sub[2] = {3, 2}, start[2] = {1, 2};
        int pos[6], k = 0;
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 2; j++)
                pos[k++] = (1 + i) * 5 + 2 + j;
        MPI_OK(MPI_Type_create_subarray(2, sizes, sub, start, MPI_ORDER_C,
                                        MPI_INT, &t));
        MPI_OK(MPI_Type_commit(&t));
        MPI_Aint lb, ext;
        MPI_Type_get_extent(t, &lb, &ext);
        CHECK(lb == 0 && ext == 30 * (MPI_Aint)sizeof(int), "subarray extent");
        check_ints("subarray", t, 1, pos, 6, 30);
        MPI_OK(MPI_Type_free(&t));
    }

    /* darray: 8x6 global array, rows BLOCK, columns CYCLIC(1), over the
     * process grid; this rank's piece, row-major */
    {
        int g[2] = {8, 6}, dist[2] = {MPI_DISTRIBUTE_BLOCK,
                                      MPI_DISTRIBUTE_CYCLIC};
        int darg[2] = {MPI_DISTRIBUTE_DFLT_DARG, 1}, ps[2] = {0, 0};
        MPI_OK(MPI_Dims_create(n, 2, ps));
        int c0 = me / ps[1], c1 = me % ps[1], b0 = (8 + ps[0] - 1) / ps[0];
        int pos[48], k = 0;
        for (int i = c0 * b0; i < 8 && i < (c0 + 1) * b0; i++)
            for (int j = c1; j < 6; j += ps[1])
                pos[k++] = i * 6 + j;
        MPI_OK(MPI_Type_create_darray(n, me, 2, g, dist, darg, ps,
                                      MPI_ORDER_C, MPI_INT, &t));
        MPI_OK(MPI_Type_commit(&t));
        /* the left neighbour sends as many ints as our piece holds */
        int mine = k, theirs;
        MPI_Request rq;
        MPI_OK(MPI_Isend(&mine, 1, MPI_INT, left, 1, MPI_COMM_WORLD, &rq));
        MPI_OK(MPI_Recv(&theirs, 1, MPI_INT, right, 1, MPI_COMM_WORLD,
                        MPI_STATUS_IGNORE));
        MPI_OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        /* check_ints sends npos ints to the right: send the right's size */
        int tag = tagno++;
        int *out = malloc((size_t)theirs * sizeof(int) + 1), buf[48];
        prog_fill(out, theirs, me, right, tag, 0);
        for (int i = 0; i < 48; i++)
            buf[i] = SENTINEL;
        MPI_Status st;
        MPI_OK(MPI_Isend(out, theirs, MPI_INT, right, tag, MPI_COMM_WORLD,
                         &rq));
        MPI_OK(MPI_Recv(buf, 1, t, left, tag, MPI_COMM_WORLD, &st));
        MPI_OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        int e;
        MPI_OK(MPI_Get_elements(&st, t, &e));
        CHECK(e == k, "darray elements %d, want %d", e, k);
        char hit[48] = {0};
        for (int q = 0; q < k; q++) {
            CHECK(buf[pos[q]] == prog_payload(left, me, tag, 0, q),
                  "darray element %d not at %d", q, pos[q]);
            hit[pos[q]] = 1;
        }
        for (int i = 0; i < 48; i++)
            CHECK(hit[i] || buf[i] == SENTINEL, "darray wrote %d", i);
        prog_sum(buf, sizeof buf);
        prog_say("darray: grid %dx%d, coords (%d,%d), %d elements ok", ps[0],
                 ps[1], c0, c1, k);
        free(out);
        MPI_OK(MPI_Type_free(&t));
    }

    /* struct, sent and received as the struct type (count 2) */
    {
        int bl[3] = {1, 1, 3};
        MPI_Aint dp[3] = {offsetof(struct rec, a), offsetof(struct rec, b),
                          offsetof(struct rec, c)};
        MPI_Datatype ty[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR}, st0;
        MPI_OK(MPI_Type_create_struct(3, bl, dp, ty, &st0));
        MPI_OK(MPI_Type_create_resized(st0, 0, sizeof(struct rec), &t));
        MPI_OK(MPI_Type_commit(&t));
        int tag = tagno++;
        struct rec out[2], in[2];
        memset(out, 0, sizeof out);
        memset(in, 0xee, sizeof in);
        for (int i = 0; i < 2; i++) {
            int v = prog_payload(me, right, tag, 0, i);
            out[i].a = v;
            out[i].b = v / 3.0;
            memcpy(out[i].c, "xyz", 3);
            out[i].c[2] = (char)('a' + v % 26);
        }
        MPI_Request req;
        MPI_Status st;
        MPI_OK(MPI_Isend(out, 2, t, right, tag, MPI_COMM_WORLD, &req));
        MPI_OK(MPI_Recv(in, 2, t, left, tag, MPI_COMM_WORLD, &st));
        MPI_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        int e;
        MPI_OK(MPI_Get_elements(&st, t, &e));
        CHECK(e == 10, "struct elements %d", e);
        for (int i = 0; i < 2; i++) {
            int v = prog_payload(left, me, tag, 0, i);
            CHECK(in[i].a == v && in[i].b == v / 3.0 &&
                      !memcmp(in[i].c, "xy", 2) &&
                      in[i].c[2] == (char)('a' + v % 26),
                  "struct %d", i);
            prog_sum(&in[i].a, sizeof in[i].a);
            prog_sum(&in[i].b, sizeof in[i].b);
            prog_sum(in[i].c, sizeof in[i].c);
        }
        /* padding between c and the next record stays untouched */
        unsigned char *raw = (unsigned char *)&in[0];
        size_t pad = offsetof(struct rec, c) + 3;
        for (size_t i = pad; i < sizeof(struct rec); i++)
            CHECK(raw[i] == 0xee, "struct padding byte %zu written", i);
        MPI_OK(MPI_Type_free(&t));
        MPI_OK(MPI_Type_free(&st0));
        prog_say("struct x2 ok");
    }

    /* Pack / Unpack through MPI_PACKED */
    {
        int tag = tagno++, ints[6], sz1, sz2, sz3;
        double d = me * 1.25;
        char name[8] = "rank-0";
        name[5] = (char)('0' + me);
        prog_fill(ints, 6, me, right, tag, 0);
        MPI_OK(MPI_Pack_size(6, MPI_INT, MPI_COMM_WORLD, &sz1));
        MPI_OK(MPI_Pack_size(1, MPI_DOUBLE, MPI_COMM_WORLD, &sz2));
        MPI_OK(MPI_Pack_size(8, MPI_CHAR, MPI_COMM_WORLD, &sz3));
        int cap = sz1 + sz2 + sz3, pos = 0;
        char *pk = malloc((size_t)cap), *rk = malloc((size_t)cap);
        MPI_OK(MPI_Pack(ints, 6, MPI_INT, pk, cap, &pos, MPI_COMM_WORLD));
        MPI_OK(MPI_Pack(&d, 1, MPI_DOUBLE, pk, cap, &pos, MPI_COMM_WORLD));
        MPI_OK(MPI_Pack(name, 8, MPI_CHAR, pk, cap, &pos, MPI_COMM_WORLD));
        CHECK(pos <= cap, "packed %d > %d", pos, cap);
        MPI_Request req;
        MPI_Status st;
        MPI_OK(MPI_Isend(pk, pos, MPI_PACKED, right, tag, MPI_COMM_WORLD,
                         &req));
        MPI_OK(MPI_Recv(rk, cap, MPI_PACKED, left, tag, MPI_COMM_WORLD, &st));
        MPI_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        int got, upos = 0, rints[6];
        double rd;
        char rname[8];
        MPI_OK(MPI_Get_count(&st, MPI_PACKED, &got));
        CHECK(got == pos, "packed message %d bytes, sent %d", got, pos);
        MPI_OK(MPI_Unpack(rk, got, &upos, rints, 6, MPI_INT, MPI_COMM_WORLD));
        MPI_OK(MPI_Unpack(rk, got, &upos, &rd, 1, MPI_DOUBLE, MPI_COMM_WORLD));
        MPI_OK(MPI_Unpack(rk, got, &upos, rname, 8, MPI_CHAR, MPI_COMM_WORLD));
        CHECK_PAYLOAD(rints, 6, left, me, tag, 0);
        CHECK(rd == left * 1.25 && rname[5] == '0' + left && upos == got,
              "unpacked %g %s", rd, rname);
        prog_sum(rints, sizeof rints);
        prog_sum(&rd, sizeof rd);
        prog_sum(rname, sizeof rname);
        prog_say("pack/unpack: %d bytes from %s ok", got, rname);
        free(pk);
        free(rk);
    }
    return prog_finish();
}
