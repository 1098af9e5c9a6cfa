/*
 * comms - communicator and group constructors, then traffic on each.
 *
 * Groups: MPI_Comm_group, MPI_Group_incl/excl/range_incl, union,
 * intersection, difference, MPI_Group_translate_ranks, MPI_Group_compare.
 * Communicators, each used for point-to-point or a collective whose result
 * is checked: MPI_Comm_split (reversed key order), MPI_Comm_dup,
 * MPI_Comm_idup, MPI_Comm_create (even ranks), MPI_Comm_create_group
 * (ranks 1..n-1), MPI_Cart_create + MPI_Cart_coords/rank/shift + halo
 * exchange + MPI_Cart_sub, MPI_Graph_create (ring) + MPI_Graph_neighbors,
 * MPI_Dist_graph_create_adjacent + MPI_Neighbor_allgather/alltoall,
 * MPI_Intercomm_create (even/odd halves) + inter-communicator
 * point-to-point + MPI_Intercomm_merge. All handles are freed at the end.
 *
 *   mpiexec -n 2..4 ./comms      (at least 2 ranks)
 */
#include "progs.h"

/* Allreduce of the world ranks of COMM's members (checks membership). */
static int world_rank_sum(MPI_Comm comm)
{
    int me = prog_rank, sum = -1;
    MPI_OK(MPI_Allreduce(&me, &sum, 1, MPI_INT, MPI_SUM, comm));
    return sum;
}

/* A ring exchange inside COMM, checked; returns the left neighbour's world
 * rank as received. */
static int ring(MPI_Comm comm, int tag)
{
    int r, s, got[2];
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &s);
    int left = (r + s - 1) % s, right = (r + 1) % s;
    int out[2] = {prog_rank, prog_payload(prog_rank, 0, tag, 0, 0)};
    MPI_Status st;
    MPI_OK(MPI_Sendrecv(out, 2, MPI_INT, right, tag, got, 2, MPI_INT, left,
                        tag, comm, &st));
    CHECK(st.MPI_SOURCE == left, "ring source %d, want %d", st.MPI_SOURCE,
          left);
    CHECK(got[1] == prog_payload(got[0], 0, tag, 0, 0), "ring payload");
    prog_sum(got, sizeof got);
    return got[0];
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    prog_start();
    int n = prog_size, me = prog_rank;
    CHECK(n >= 2, "needs at least 2 ranks");
    MPI_Comm w = MPI_COMM_WORLD;
    int expect;

    /* groups */
    MPI_Group world_g, even_g, noz_g, uni_g, inter_g, diff_g, range_g;
    MPI_OK(MPI_Comm_group(w, &world_g));
    int evens[4], ne = 0;
    for (int r = 0; r < n && ne < 4; r += 2)
        evens[ne++] = r;
    int zero = 0;
    MPI_OK(MPI_Group_incl(world_g, ne, evens, &even_g));
    MPI_OK(MPI_Group_excl(world_g, 1, &zero, &noz_g));
    MPI_OK(MPI_Group_union(even_g, noz_g, &uni_g));
    MPI_OK(MPI_Group_intersection(even_g, noz_g, &inter_g));
    MPI_OK(MPI_Group_difference(world_g, even_g, &diff_g));
    int range[1][3] = {{n - 1, 0, -1}};
    MPI_OK(MPI_Group_range_incl(world_g, 1, range, &range_g));
    int sz[5];
    MPI_Group_size(even_g, &sz[0]);
    MPI_Group_size(noz_g, &sz[1]);
    MPI_Group_size(uni_g, &sz[2]);
    MPI_Group_size(inter_g, &sz[3]);
    MPI_Group_size(diff_g, &sz[4]);
    CHECK(sz[0] == ne && sz[1] == n - 1 && sz[2] == n && sz[3] == ne - 1 &&
              sz[4] == n - ne, "group sizes %d %d %d %d %d", sz[0], sz[1],
          sz[2], sz[3], sz[4]);
    int cmp;
    MPI_OK(MPI_Group_compare(uni_g, world_g, &cmp));
    CHECK(cmp == MPI_SIMILAR || cmp == MPI_IDENT, "union vs world %d", cmp);
    MPI_OK(MPI_Group_compare(range_g, world_g, &cmp));
    CHECK(cmp == MPI_SIMILAR, "reversed range vs world %d", cmp);
    int in_r[2] = {0, n - 1}, out_r[2];
    MPI_OK(MPI_Group_translate_ranks(range_g, 2, in_r, world_g, out_r));
    CHECK(out_r[0] == n - 1 && out_r[1] == 0, "translate %d %d", out_r[0],
          out_r[1]);
    int grank;
    MPI_Group_rank(even_g, &grank);
    CHECK(grank == (me % 2 ? MPI_UNDEFINED : me / 2), "even group rank %d",
          grank);
    prog_sum(sz, sizeof sz);
    prog_say("groups: even %d, no-zero %d, union %d, inter %d, diff %d",
             sz[0], sz[1], sz[2], sz[3], sz[4]);

    /* Comm_split: color parity, key reversed */
    MPI_Comm split;
    MPI_OK(MPI_Comm_split(w, me % 2, n - me, &split));
    {
        int sr, ss;
        MPI_Comm_rank(split, &sr);
        MPI_Comm_size(split, &ss);
        int want_size = (n - me % 2 + 1) / 2, above = 0;
        for (int r = me + 2; r < n; r += 2)
            above++;
        CHECK(ss == want_size && sr == above, "split rank %d/%d", sr, ss);
        expect = 0;
        for (int r = me % 2; r < n; r += 2)
            expect += r;
        CHECK(world_rank_sum(split) == expect, "split allreduce");
        int left = ring(split, 1);
        prog_say("split: color %d rank %d of %d, left is world %d", me % 2,
                 sr, ss, left);
    }

    /* dup and idup */
    MPI_Comm dup, idup;
    MPI_OK(MPI_Comm_dup(w, &dup));
    MPI_OK(MPI_Comm_compare(dup, w, &cmp));
    CHECK(cmp == MPI_CONGRUENT, "dup compare %d", cmp);
    {
        MPI_Request r;
        MPI_OK(MPI_Comm_idup(w, &idup, &r));
        MPI_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    }
    /* Same tag on world, dup and idup: each message stays in its context. */
    {
        int a[3], b[3], c[3], right = (me + 1) % n, left = (me + n - 1) % n;
        int oa = 100 + me, ob = 200 + me, oc = 300 + me;
        MPI_Request r[6];
        MPI_OK(MPI_Irecv(a, 1, MPI_INT, left, 5, w, &r[0]));
        MPI_OK(MPI_Irecv(b, 1, MPI_INT, left, 5, dup, &r[1]));
        MPI_OK(MPI_Irecv(c, 1, MPI_INT, left, 5, idup, &r[2]));
        MPI_OK(MPI_Isend(&oc, 1, MPI_INT, right, 5, idup, &r[3]));
        MPI_OK(MPI_Isend(&ob, 1, MPI_INT, right, 5, dup, &r[4]));
        MPI_OK(MPI_Isend(&oa, 1, MPI_INT, right, 5, w, &r[5]));
        MPI_Status sts[6];
        MPI_OK(MPI_Waitall(6, r, sts));
        CHECK(a[0] == 100 + left && b[0] == 200 + left && c[0] == 300 + left,
              "contexts mixed: %d %d %d", a[0], b[0], c[0]);
        prog_sum_i(a[0] + b[0] * 1000 + c[0] * 1000000);
        int bc = me == 0 ? 4242 : 0;
        MPI_OK(MPI_Bcast(&bc, 1, MPI_INT, 0, idup));
        CHECK(bc == 4242, "bcast on idup");
        prog_say("dup and idup keep messages apart");
    }

    /* Comm_create: even ranks */
    MPI_Comm evenc;
    MPI_OK(MPI_Comm_create(w, even_g, &evenc));
    if (me % 2) {
        CHECK(evenc == MPI_COMM_NULL, "odd rank got a communicator");
    } else {
        expect = 0;
        for (int i = 0; i < ne; i++)
            expect += evens[i];
        CHECK(world_rank_sum(evenc) == expect, "create allreduce");
        prog_say("comm_create: even communicator sum %d", expect);
    }

    /* Comm_create_group: ranks 1..n-1, only members call */
    MPI_Comm nozc = MPI_COMM_NULL;
    if (me != 0) {
        MPI_OK(MPI_Comm_create_group(w, noz_g, 77, &nozc));
        CHECK(world_rank_sum(nozc) == n * (n - 1) / 2, "create_group sum");
        int left = ring(nozc, 2);
        prog_say("comm_create_group: ranks 1..%d, left is world %d", n - 1,
                 left);
    }

    /* Cartesian 2-D grid, periodic in dimension 0 */
    MPI_Comm cart, row;
    {
        int dims[2] = {0, 0}, periods[2] = {1, 0}, coords[2], cr;
        MPI_OK(MPI_Dims_create(n, 2, dims));
        CHECK(dims[0] * dims[1] == n, "dims %d x %d", dims[0], dims[1]);
        MPI_OK(MPI_Cart_create(w, 2, dims, periods, 0, &cart));
        MPI_Comm_rank(cart, &cr);
        MPI_OK(MPI_Cart_coords(cart, cr, 2, coords));
        int back;
        MPI_OK(MPI_Cart_rank(cart, coords, &back));
        CHECK(back == cr, "cart_rank %d != %d", back, cr);
        int ndims, topo;
        MPI_OK(MPI_Cartdim_get(cart, &ndims));
        MPI_OK(MPI_Topo_test(cart, &topo));
        CHECK(ndims == 2 && topo == MPI_CART, "cartdim %d topo %d", ndims,
              topo);
        /* halo exchange in both dimensions; non-periodic edges give
         * MPI_PROC_NULL and leave the buffer untouched */
        for (int d = 0; d < 2; d++) {
            int src, dst;
            MPI_OK(MPI_Cart_shift(cart, d, 1, &src, &dst));
            int out[2] = {cr, prog_payload(cr, d, 9, 0, 0)}, in[2] = {-1, -1};
            MPI_Status st;
            MPI_OK(MPI_Sendrecv(out, 2, MPI_INT, dst, 9, in, 2, MPI_INT, src, 9,
                                cart, &st));
            if (src == MPI_PROC_NULL) {
                CHECK(in[0] == -1 && st.MPI_SOURCE == MPI_PROC_NULL,
                      "PROC_NULL halo");
            } else {
                CHECK(in[0] == src && in[1] == prog_payload(src, d, 9, 0, 0),
                      "halo dim %d from %d", d, src);
            }
            prog_sum(in, sizeof in);
            prog_say("cart (%d,%d) of %dx%d: dim %d shift src %d dst %d",
                     coords[0], coords[1], dims[0], dims[1], d, src, dst);
        }
        int keep[2] = {0, 1};
        MPI_OK(MPI_Cart_sub(cart, keep, &row));
        int rs;
        MPI_Comm_size(row, &rs);
        CHECK(rs == dims[1], "cart_sub size %d", rs);
        expect = 0;
        for (int c = 0; c < dims[1]; c++) {
            int cc[2] = {coords[0], c}, r;
            MPI_OK(MPI_Cart_rank(cart, cc, &r));
            expect += r; /* cart was not reordered: cart rank = world rank */
        }
        CHECK(world_rank_sum(row) == expect, "cart_sub allreduce");
        prog_say("cart_sub: row of %d, sum %d", rs, expect);
    }

    /* Graph: a ring */
    MPI_Comm graph;
    {
        int *index = malloc((size_t)n * sizeof(int));
        int *edges = malloc((size_t)2 * n * sizeof(int));
        for (int r = 0; r < n; r++) {
            index[r] = 2 * (r + 1);
            edges[2 * r] = (r + n - 1) % n;
            edges[2 * r + 1] = (r + 1) % n;
        }
        MPI_OK(MPI_Graph_create(w, n, index, edges, 0, &graph));
        int cnt, nb[2], topo;
        MPI_OK(MPI_Topo_test(graph, &topo));
        MPI_OK(MPI_Graph_neighbors_count(graph, me, &cnt));
        MPI_OK(MPI_Graph_neighbors(graph, me, 2, nb));
        CHECK(topo == MPI_GRAPH && cnt == 2 && nb[0] == (me + n - 1) % n &&
                  nb[1] == (me + 1) % n, "graph neighbours");
        int in[2], out = me * 11;
        MPI_Request r[4];
        MPI_Status sts[4];
        for (int k = 0; k < 2; k++) {
            MPI_OK(MPI_Irecv(&in[k], 1, MPI_INT, nb[k], 3, graph, &r[k]));
            MPI_OK(MPI_Isend(&out, 1, MPI_INT, nb[k], 3, graph, &r[2 + k]));
        }
        MPI_OK(MPI_Waitall(4, r, sts));
        CHECK(in[0] == nb[0] * 11 && in[1] == nb[1] * 11, "graph exchange");
        prog_sum(in, sizeof in);
        prog_say("graph: neighbours %d %d", nb[0], nb[1]);
        free(index);
        free(edges);
    }

    /* Distributed graph: send to right and right+1 */
    MPI_Comm dist;
    {
        /* the edges must agree: me sends to me+1 and me+2, so it hears
         * from me-1 and me-2 (with 2 ranks one edge is a self-loop) */
        int dst[2] = {(me + 1) % n, (me + 2) % n};
        int srcs[2] = {(me + n - 1) % n, (me + n - 2) % n};
        MPI_OK(MPI_Dist_graph_create_adjacent(w, 2, srcs, MPI_UNWEIGHTED,
                                              2, dst, MPI_UNWEIGHTED,
                                              MPI_INFO_NULL, 0, &dist));
        int ri, ro, wgt;
        MPI_OK(MPI_Dist_graph_neighbors_count(dist, &ri, &ro, &wgt));
        CHECK(ri == 2 && ro == 2 && !wgt, "dist graph counts %d %d %d", ri, ro,
              wgt);
        int mine = me * 3 + 1, got[2];
        MPI_OK(MPI_Neighbor_allgather(&mine, 1, MPI_INT, got, 1, MPI_INT,
                                      dist));
        CHECK(got[0] == srcs[0] * 3 + 1 && got[1] == srcs[1] * 3 + 1,
              "neighbor_allgather %d %d", got[0], got[1]);
        prog_sum(got, sizeof got);
        int outs[2] = {prog_payload(me, dst[0], 8, 0, 0),
                       prog_payload(me, dst[1], 8, 0, 0)};
        MPI_OK(MPI_Neighbor_alltoall(outs, 1, MPI_INT, got, 1, MPI_INT, dist));
        CHECK(got[0] == prog_payload(srcs[0], me, 8, 0, 0) &&
                  got[1] == prog_payload(srcs[1], me, 8, 0, 0),
              "neighbor_alltoall");
        prog_sum(got, sizeof got);
        prog_say("dist graph: in from %d %d, out to %d %d", srcs[0], srcs[1],
                 dst[0], dst[1]);
    }

    /* Intercommunicator between the even and odd halves (split above) */
    MPI_Comm inter, merged;
    {
        /* Each half's leader is its rank 0 in split, which (reversed key)
         * is the half's highest world rank; remote_leader is in world. */
        int top_even = (n - 1) % 2 ? n - 2 : n - 1;
        int top_odd = (n - 1) % 2 ? n - 1 : n - 2;
        int remote_leader = me % 2 ? top_even : top_odd;
        MPI_OK(MPI_Intercomm_create(split, 0, w, remote_leader, 99, &inter));
        int flag, lsize, rsize, lr;
        MPI_OK(MPI_Comm_test_inter(inter, &flag));
        MPI_Comm_size(inter, &lsize);
        MPI_OK(MPI_Comm_remote_size(inter, &rsize));
        MPI_Comm_rank(inter, &lr);
        CHECK(flag && lsize + rsize == n, "intercomm sizes %d + %d", lsize,
              rsize);
        /* local rank i talks to remote rank i when both exist; the split
         * key reversed the order, so remote rank i is found by exchange */
        if (lr < rsize) {
            int out[2] = {me, prog_payload(me, lr, 6, 0, 0)}, in[2];
            MPI_Status st;
            MPI_OK(MPI_Sendrecv(out, 2, MPI_INT, lr, 6, in, 2, MPI_INT, lr, 6,
                                inter, &st));
            CHECK(st.MPI_SOURCE == lr && in[0] % 2 != me % 2 &&
                      in[1] == prog_payload(in[0], lr, 6, 0, 0),
                  "intercomm exchange");
            prog_sum(in, sizeof in);
            prog_say("intercomm: local %d of %d, remote %d, partner world %d",
                     lr, lsize, rsize, in[0]);
        } else {
            prog_say("intercomm: local %d of %d, remote %d, no partner", lr,
                     lsize, rsize);
        }
        /* Merge: the even half (high = 0) comes first. */
        MPI_OK(MPI_Intercomm_merge(inter, me % 2, &merged));
        int mr, ms;
        MPI_Comm_rank(merged, &mr);
        MPI_Comm_size(merged, &ms);
        int evens_n = (n + 1) / 2;
        CHECK(ms == n && (me % 2 ? mr >= evens_n : mr < evens_n),
              "merged rank %d of %d", mr, ms);
        CHECK(world_rank_sum(merged) == n * (n - 1) / 2, "merged allreduce");
        prog_say("intercomm_merge: %s half, merged size %d",
                 me % 2 ? "high" : "low", ms);
    }

    MPI_OK(MPI_Comm_free(&merged));
    MPI_OK(MPI_Comm_free(&inter));
    MPI_OK(MPI_Comm_free(&dist));
    MPI_OK(MPI_Comm_free(&graph));
    MPI_OK(MPI_Comm_free(&row));
    MPI_OK(MPI_Comm_free(&cart));
    if (nozc != MPI_COMM_NULL)
        MPI_OK(MPI_Comm_free(&nozc));
    if (evenc != MPI_COMM_NULL)
        MPI_OK(MPI_Comm_free(&evenc));
    MPI_OK(MPI_Comm_free(&idup));
    MPI_OK(MPI_Comm_free(&dup));
    MPI_OK(MPI_Comm_free(&split));
    CHECK(split == MPI_COMM_NULL, "Comm_free left a handle");
    MPI_Group *gs[] = {&world_g, &even_g, &noz_g, &uni_g, &inter_g, &diff_g,
                       &range_g};
    for (unsigned i = 0; i < sizeof gs / sizeof gs[0]; i++)
        MPI_OK(MPI_Group_free(gs[i]));
    return prog_finish();
}
