/*
 * ev-check-deadlock-unsafe.c - deadlock.unsafe-send (ev-check.h, listed
 * by ev-check-deadlock.c; docs/check.md): in a complete run, a cycle of
 * blocking standard sends (MPI_Send) each of whose receives was posted
 * only after the receiver's own send in the cycle. Under zero buffering
 * each waits for the next forever (MPI 4.0 3.5: "a program is unsafe if
 * it relies on buffering"); it completed because MPI buffered the small
 * messages (the eager protocol), which a larger message or another MPI
 * need not do.
 *
 * A send S to rank q depends on q's blocking standard sends made before
 * q posted S's receive and not in S's causal past (ev-causal.c: those
 * completed before S began, whatever the buffering): a range of q's
 * sends. Each strongly connected component of that graph with a cycle is
 * one finding. A send whose receive was posted with a wildcard has no
 * edge: with no buffering, another pending receive (posted before the
 * receiver's own send) might have taken it, so the order seen in the run
 * proves nothing (no finding rather than a false one). A cycle of the same
 * sends repeated (a loop) is one finding, the first shown, with how many
 * more times it came.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ev-check.h"
#include "ev-int.h"

/* A blocking standard send of the run: a node of the graph. Its edges go
 * to a range of its receiver's sends (struct unsafe.by_rank). */
struct usend {
    int32_t msg;
    int32_t lo, hi; /* edges: by_rank[receiver][lo..hi) */
    int index, low, comp;
    int onstack;
};

struct unsafe {
    struct usend *s;
    size_t ns;
    int32_t **by_rank; /* per rank: its nodes (indices into s), in order */
    size_t *nby;
};

/* A blocking send in standard mode (MPI_Send, MPI_Send_c): a send that
 * starts no request, with none of the spec's send modes (sync, buffered,
 * ready). */
static int standard_send(const struct ev_msg *m)
{
    if (!(m->flags & EV_M_SEND) || (m->flags & EV_M_NONBLOCKING))
        return 0;
    const struct log_func_desc *d = log_func_by_id(m->fn);
    return d && d->kind == LOG_K_SEND &&
           !(d->roles & (LOG_R_NB | LOG_R_PERSISTENT | LOG_R_SEND_MODES));
}

static void unsafe_release(struct unsafe *u, int n)
{
    for (int r = 0; r < n && u->by_rank; r++)
        free(u->by_rank[r]);
    free(u->by_rank);
    free(u->nby);
    free(u->s);
}

/* Whether receive RV was posted with MPI_ANY_SOURCE or MPI_ANY_TAG: with
 * no buffering it might have taken another message (or another receive
 * this one), so the order seen says nothing about a cycle. */
static int wildcard(struct ev_run *x, const struct ev_msg *rv)
{
    return ev__wildcard_at(x, rv->rank, ev__posting(rv)) != 0;
}

/* The first of rank Q's nodes whose send is at or after event E. */
static int32_t first_at(const struct unsafe *u, const struct ev_index *ix,
                        int q, uint64_t e)
{
    size_t lo = 0, hi = u->nby[q];
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ev__m_event(ix, u->s[u->by_rank[q][mid]].msg) < e)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (int32_t)lo;
}

/* The nodes and their edge ranges. */
static int unsafe_build(struct unsafe *u, struct ev_run *x,
                        struct ev__causal **causal)
{
    struct ev_index *ix = x->ix;
    int n = x->world_size;
    memset(u, 0, sizeof *u);
    u->by_rank = calloc((size_t)n, sizeof *u->by_rank);
    u->nby = calloc((size_t)n, sizeof *u->nby);
    size_t cap = 0;
    if (!u->by_rank || !u->nby)
        return -1;
    for (size_t i = 0; i < ix->nmsgs; i++) {
        struct ev_msg m_buf;
        const struct ev_msg *m = ev__msgp(ix, i, &m_buf);
        if (!standard_send(m) || m->match < 0 || m->rank < 0 || m->rank >= n)
            continue;
        if (util_grow(&u->s, &cap, u->ns + 1, sizeof *u->s) < 0)
            return -1;
        u->s[u->ns++] = (struct usend){(int32_t)i, 0, 0, -1, 0, -1, 0};
        u->nby[m->rank]++;
    }
    for (int r = 0; r < n; r++)
        if (u->nby[r] &&
            !(u->by_rank[r] = malloc(u->nby[r] * sizeof *u->by_rank[r])))
            return -1;
    memset(u->nby, 0, (size_t)n * sizeof *u->nby);
    /* messages are numbered in each rank's order */
    for (size_t i = 0; i < u->ns; i++) {
        int r = ev__m_rank(ix, u->s[i].msg);
        u->by_rank[r][u->nby[r]++] = (int32_t)i;
    }
    for (size_t i = 0; i < u->ns; i++) {
        struct ev_msg m_buf;
        const struct ev_msg *m = ev__msgp(ix, u->s[i].msg, &m_buf);
        struct ev_msg rv_buf;
        const struct ev_msg *rv = ev__msgp(ix, m->match, &rv_buf);
        int q = rv->rank;
        if (q < 0 || q >= n || !u->nby[q] || wildcard(x, rv))
            continue;
        /* q's sends before it posted the receive */
        int32_t hi = first_at(u, ix, q, rv->order);
        if (!hi)
            continue;
        if (!*causal && !(*causal = ev__causal_build(x)))
            return -1;
        const int64_t *past = ev__causal_walk(*causal, x, m->rank, m->event,
                                              0);
        int64_t seen = q == m->rank ? (int64_t)m->event - 1 : past[q];
        int32_t lo = seen < 0 ? 0 : first_at(u, ix, q, (uint64_t)seen + 1);
        if (lo > hi)
            lo = hi;
        u->s[i].lo = lo;
        u->s[i].hi = hi;
    }
    return 0;
}

/* The receiver of node I's send. */
static int usend_to(const struct unsafe *u, const struct ev_index *ix,
                    size_t i)
{
    return ev__m_rank(ix, ev__m_match(ix, u->s[i].msg));
}

/* Emits strongly connected component K (its nodes: MEMBERS[0..NM)). */
static void unsafe_emit(struct ev_check_ctx *c, const struct unsafe *u,
                        const int32_t *members, int nm, size_t more)
{
    struct ev_index *ix = c->x->ix;
    struct ev_check_site sites[32];
    int ns = 0;
    struct ev_check_finding f = {"deadlock.unsafe-send",
                                 EV_CHECK_PORTABILITY, "", sites, 0};
    int len = snprintf(f.message, sizeof f.message,
                       "a cycle of blocking standard sends completed only "
                       "because MPI buffered them (each receive was posted "
                       "after the receiver's own send):");
    for (int j = 0; j < nm; j++) {
        struct ev_msg m_buf;
        const struct ev_msg *m = ev__msgp(ix, u->s[members[j]].msg, &m_buf);
        struct ev_msg rv_buf;
        const struct ev_msg *rv = ev__msgp(ix, m->match, &rv_buf);
        if (len < (int)sizeof f.message)
            len += snprintf(f.message + len, sizeof f.message - (size_t)len,
                            "%s rank %d %s to %d (tag %d%s%lld bytes)",
                            j ? "," : "", (int)m->rank, log_func_name(m->fn),
                            (int)rv->rank, (int)m->tag,
                            m->bytes >= 0 ? ", " : "",
                            m->bytes >= 0 ? (long long)m->bytes : 0LL);
        if (ns + 2 <= 32) {
            sites[ns++] = (struct ev_check_site){m->rank, m->event,
                                                 "send"};
            sites[ns++] = (struct ev_check_site){rv->rank, rv->order,
                                                 "its receive, posted after"};
        }
    }
    if (len < (int)sizeof f.message)
        len += snprintf(f.message + len, sizeof f.message - (size_t)len,
                        "; without buffering each waits for the next "
                        "forever: MPI_Sendrecv or nonblocking calls make "
                        "it safe");
    if (more && len < (int)sizeof f.message)
        snprintf(f.message + len, sizeof f.message - (size_t)len,
                 " (the same cycle %zu more time%s: the first is shown)",
                 more, more == 1 ? "" : "s");
    f.nsites = ns;
    c->emit(c->ud, &f);
}

/* Cycles of the same sends (ranks, receivers, tags, functions) repeated,
 * as a loop does: one finding each, with how many more times. */
struct ugroup {
    uint64_t key;
    int32_t *members; /* the first cycle's */
    int nm;
    size_t more;
};

struct ugroups {
    struct ugroup *g;
    size_t n, cap;
};

static uint64_t cycle_key(const struct unsafe *u, const struct ev_index *ix,
                          const int32_t *members, int nm)
{
    uint64_t k = (uint64_t)nm * 0x9e3779b97f4a7c15ull;
    for (int j = 0; j < nm; j++) {
        struct ev_msg m_buf;
        const struct ev_msg *m = ev__msgp(ix, u->s[members[j]].msg, &m_buf);
        uint64_t h = util_hash32((uint32_t)m->rank * 0x85ebca6bu ^
                                 (uint32_t)ev__m_rank(ix, m->match));
        h = h << 32 | util_hash32((uint32_t)m->tag ^ (uint32_t)m->fn << 20 ^
                                  (uint32_t)m->comm * 0xc2b2ae35u);
        k += h * 0xff51afd7ed558ccdull; /* order-free: a sum */
    }
    return k;
}

/* Adds the cycle MEMBERS[0..NM) to G. 0, or -1 (out of memory). */
static int group_add(struct ugroups *g, const struct unsafe *u,
                     const struct ev_index *ix, const int32_t *members,
                     int nm)
{
    uint64_t key = cycle_key(u, ix, members, nm);
    for (size_t i = 0; i < g->n; i++)
        if (g->g[i].key == key && g->g[i].nm == nm) {
            g->g[i].more++;
            return 0;
        }
    if (util_grow(&g->g, &g->cap, g->n + 1, sizeof *g->g) < 0)
        return -1;
    int32_t *copy = malloc((size_t)nm * sizeof *copy);
    if (!copy)
        return -1;
    memcpy(copy, members, (size_t)nm * sizeof *copy);
    g->g[g->n++] = (struct ugroup){key, copy, nm, 0};
    return 0;
}

/* Tarjan's components over the nodes, iteratively; each component that is
 * a cycle (two nodes or more, or a send to itself) is emitted. */
static int unsafe_cycles(struct ev_check_ctx *c, struct unsafe *u,
                         struct ugroups *g)
{
    struct ev_index *ix = c->x->ix;
    int32_t *stack = malloc((u->ns + 1) * sizeof *stack);
    int32_t *cs = malloc((u->ns + 1) * sizeof *cs);
    int32_t *ce = malloc((u->ns + 1) * sizeof *ce);
    int idx = 0, top = 0, rc = 0;
    if (!stack || !cs || !ce) {
        rc = -1;
        goto out;
    }
    for (size_t s0 = 0; s0 < u->ns; s0++) {
        if (u->s[s0].index >= 0)
            continue;
        int depth = 0;
        cs[depth] = (int32_t)s0;
        ce[depth++] = u->s[s0].lo;
        u->s[s0].index = u->s[s0].low = idx++;
        stack[top++] = (int32_t)s0;
        u->s[s0].onstack = 1;
        while (depth > 0) {
            int32_t v = cs[depth - 1];
            struct usend *sv = &u->s[v];
            if (ce[depth - 1] < sv->hi) {
                int q = usend_to(u, ix, (size_t)v);
                int32_t w = u->by_rank[q][ce[depth - 1]++];
                struct usend *sw = &u->s[w];
                if (sw->index < 0) {
                    sw->index = sw->low = idx++;
                    stack[top++] = w;
                    sw->onstack = 1;
                    cs[depth] = w;
                    ce[depth++] = sw->lo;
                } else if (sw->onstack && sw->index < sv->low) {
                    sv->low = sw->index;
                }
                continue;
            }
            if (sv->low == sv->index) {
                int first = top;
                do
                    u->s[stack[--first]].onstack = 0;
                while (stack[first] != v);
                int nm = top - first;
                int self = 0;
                if (nm == 1) {
                    int q = usend_to(u, ix, (size_t)v);
                    for (int32_t e = sv->lo; e < sv->hi; e++)
                        self |= u->by_rank[q][e] == v;
                }
                if ((nm > 1 || self) &&
                    group_add(g, u, ix, stack + first, nm) < 0)
                    rc = -1;
                top = first;
            }
            depth--;
            if (depth > 0 && sv->low < u->s[cs[depth - 1]].low)
                u->s[cs[depth - 1]].low = sv->low;
        }
    }
out:
    free(stack);
    free(cs);
    free(ce);
    return rc;
}

int ev__check_unsafe_send(struct ev_check_ctx *c, char *err, size_t errlen)
{
    struct unsafe u;
    struct ugroups g = {NULL, 0, 0};
    struct ev__causal *causal = NULL;
    int rc = unsafe_build(&u, c->x, &causal);
    if (rc == 0)
        rc = unsafe_cycles(c, &u, &g);
    for (size_t i = 0; i < g.n; i++) {
        if (rc == 0)
            unsafe_emit(c, &u, g.g[i].members, g.g[i].nm, g.g[i].more);
        free(g.g[i].members);
    }
    free(g.g);
    if (rc < 0)
        snprintf(err, errlen, "out of memory");
    unsafe_release(&u, c->x->world_size);
    ev__causal_free(causal);
    return rc;
}

