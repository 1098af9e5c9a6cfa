/* coll.signature's pairing of neighbourhood blocks (events/
 * ev-check-coll-nbr.c, ev__nbr_signature) on synthetic records with
 * NEIGHBORS fields: which block of each sender is compared with which
 * block of its receiver, by MPI 4.0 section 8.6: a distributed graph with
 * a repeated edge (the t-th edge with the t-th), a periodic Cartesian
 * dimension of size 2 (block 2k+s with block 2k+1-s), MPI_PROC_NULL
 * neighbours (nothing), and a record without neighbours (an older log).
 * Every expectation is written from the scripted topologies. */
#include <stdlib.h>
#include <unistd.h>

#include "ev-check-coll-nbr.h"
#include "events.h"
#include "ev-write.h"

#define INT_T 0x4c000405u
#define WORLD 0x44000000u

/* A Neighbor_alltoallv record at rank R whose NEIGHBORS field is KIND,
 * IN and the N neighbours that follow. */
static uint64_t nbr_call(int r, int kind, int in, int n, ...)
{
    uint64_t e = call(r, LOG_FN_MPI_Neighbor_alltoallv, I(INT_T), I(INT_T),
                      I(WORLD));
    uint8_t body[64];
    struct log_rec b = {body, body};
    log_put_varint(&b, (uint64_t)in);
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++)
        log_put_arg_int(&b, va_arg(ap, int));
    va_end(ap);
    if (kind) {
        log_put_field(&rec, LOG_ARG_NONE, LOG_F_NEIGHBORS, (uint64_t)kind,
                      (uint64_t)(b.p - body));
        log_put_bytes(&rec, body, (size_t)(b.p - body));
    }
    end();
    return e;
}

/* The pairs compared, as "snd:sc>rcv:rc" in order. */
static char seen[512];

static int collect(void *ud, int snd, int64_t sc, uint32_t st, int rcv,
                   int64_t rc, uint32_t rt)
{
    (void)ud;
    (void)st;
    (void)rt;
    size_t l = strlen(seen);
    snprintf(seen + l, sizeof seen - l, "%s%d:%lld>%d:%lld", l ? " " : "",
             snd, (long long)sc, rcv, (long long)rc);
    return 0;
}

static struct ev_run x;

/* Members 0 and 1 at events E0, E1 with counts arrays S0, R0, S1, R1 of
 * NS0, NR0, NS1, NR1 elements; the pairs compared into seen. */
static int pairs(uint64_t e0, uint64_t e1, const int64_t *s0, int ns0,
                 const int64_t *r0, int nr0, const int64_t *s1, int ns1,
                 const int64_t *r1, int nr1)
{
    struct ev__nbr_member m[2] = {
        {0, e0, 0, 0, 0, INT_T, INT_T, {s0, r0, NULL, NULL}, {ns0, nr0, 0, 0}},
        {1, e1, 1, 0, 0, INT_T, INT_T, {s1, r1, NULL, NULL}, {ns1, nr1, 0, 0}},
    };
    seen[0] = 0;
    return ev__nbr_signature(&x, m, 2, collect, NULL);
}

TEST(pairing)
{
    run_begin(2);
    /* Distributed graph: 0 -> 1 twice, 1 -> 0 once. */
    uint64_t g0 = nbr_call(0, LOG_TOPO_DIST_GRAPH, 1, 3, 1, 1, 1);
    uint64_t g1 = nbr_call(1, LOG_TOPO_DIST_GRAPH, 2, 3, 0, 0, 0);
    /* A periodic dimension of size 2: both neighbours the other rank. */
    uint64_t c0 = nbr_call(0, LOG_TOPO_CART, 2, 2, 1, 1);
    uint64_t c1 = nbr_call(1, LOG_TOPO_CART, 2, 2, 0, 0);
    /* Not periodic: 0 has no source, 1 no destination. */
    uint64_t p0 = nbr_call(0, LOG_TOPO_CART, 2, 2, -1, 1);
    uint64_t p1 = nbr_call(1, LOG_TOPO_CART, 2, 2, 0, -1);
    /* Rank 1 logged no neighbours. */
    uint64_t o0 = nbr_call(0, LOG_TOPO_CART, 2, 2, 1, 1);
    uint64_t o1 = nbr_call(1, 0, 0, 0);
    run_end(2);
    char err[300];
    REQUIRE(ev_open(&x, run, err, sizeof err) == 0);
    REQUIRE(ev_build(&x, err, sizeof err) == 0);

    /* 0's first edge to 1 with 1's first edge from 0, the second with the
     * second; 1's one block to 0. */
    int64_t gs0[] = {1, 2}, gr0[] = {3}, gs1[] = {3}, gr1[] = {1, 2};
    CHECK_INT_EQ(pairs(g0, g1, gs0, 2, gr0, 1, gs1, 1, gr1, 2), 0);
    CHECK_STR_EQ(seen, "0:1>1:1 0:2>1:2 1:3>0:3");

    /* Block 0 (towards the source) arrives in block 1, block 1 in 0. */
    int64_t cs0[] = {1, 2}, cr0[] = {6, 5}, cs1[] = {5, 6}, cr1[] = {2, 1};
    CHECK_INT_EQ(pairs(c0, c1, cs0, 2, cr0, 2, cs1, 2, cr1, 2), 0);
    CHECK_STR_EQ(seen, "0:1>1:1 0:2>1:2 1:5>0:5 1:6>0:6");

    /* MPI_PROC_NULL: 0's block 1 to 1's block 0, 1's block 0 to 0's 1. */
    int64_t ps0[] = {7, 8}, pr0[] = {7, 9}, ps1[] = {9, 7}, pr1[] = {8, 7};
    CHECK_INT_EQ(pairs(p0, p1, ps0, 2, pr0, 2, ps1, 2, pr1, 2), 0);
    CHECK_STR_EQ(seen, "0:8>1:8 1:9>0:9");

    /* Without a member's neighbours nothing is compared. */
    CHECK_INT_EQ(pairs(o0, o1, cs0, 2, cr0, 2, cs1, 2, cr1, 2), 1);
    CHECK_STR_EQ(seen, "");
    ev_close(&x);
}

int main(void)
{
    REQUIRE(mkdtemp(dir));
    RUN(pairing);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return check_done();
}
