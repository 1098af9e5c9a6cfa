/*
 * Happened-before (Lamport) over a run (ev-int.h: ev__causal_*): a rank's
 * events in order; a send's call before the event that completed its
 * receive (the Mprobe that matched it, for Mrecv/Imrecv); every member's
 * call of a collective instance before every member's completion of it
 * (MPI lets a collective synchronize, so a debugger must assume it may).
 * Causal pasts are closed downward on each rank, so a past is one frontier
 * per rank (a vector clock), found by a walk over the edges into the events
 * already in it: each edge is looked at once per query. Futures alike,
 * upward. The SQL functions (ev-sql-func.c) and the checks (ev-check-*.c)
 * share it.
 */
#include <stdlib.h>
#include <string.h>

#include "ev-int.h"

/* An edge between rank Q's event AT and rank RANK's event OTHER (for a
 * message), or collective instance GRP (-1: a message). */
struct edge {
    uint64_t at, other;
    int32_t rank, grp;
};

struct ev__causal {
    int n;                     /* ranks */
    struct edge **in, **out;   /* per rank: by receiving / sending event */
    size_t *nin, *nout, *capin, *capout;
    size_t *grp_first;         /* instance -> first in coll_sorted */
    size_t ngrp;
    /* the walk's state */
    int64_t *lim;
    size_t *scan;
    int *stack;
    unsigned char *inq, *gvis;
    /* The walk's state is the past (the future: INC_FUTURE) of (inc_rank,
     * inc_seq) (inc_rank -1: none yet): a past of a later event of that
     * rank goes on from it, since pasts grow with the event, and a future
     * of an earlier one (edges already looked at stay so). */
    int inc_rank, inc_future;
    uint64_t inc_seq;
    /* happened_before's last past: of (hb_rank, hb_seq) */
    int hb_rank;
    uint64_t hb_seq;
    int64_t *hb_past;
};

void ev__causal_free(struct ev__causal *c)
{
    if (!c)
        return;
    for (int r = 0; r < c->n; r++) {
        free(c->in[r]);
        free(c->out[r]);
    }
    free(c->in);
    free(c->out);
    free(c->nin);
    free(c->nout);
    free(c->capin);
    free(c->capout);
    free(c->grp_first);
    free(c->lim);
    free(c->scan);
    free(c->stack);
    free(c->inq);
    free(c->gvis);
    free(c->hb_past);
    free(c);
}

static int add(struct edge **a, size_t *n, size_t *cap, struct edge e)
{
    if (util_grow(a, cap, *n + 1, sizeof **a) < 0)
        return -1;
    (*a)[(*n)++] = e;
    return 0;
}

static int cmp_edge(const void *a, const void *b)
{
    const struct edge *x = a, *y = b;
    return x->at < y->at ? -1 : x->at > y->at;
}

struct ev__causal *ev__causal_build(struct ev_run *x)
{
    struct ev_index *ix = x->ix;
    int n = x->world_size;
    struct ev__causal *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->n = n;
    c->in = calloc((size_t)n, sizeof *c->in);
    c->out = calloc((size_t)n, sizeof *c->out);
    c->nin = calloc((size_t)n, sizeof *c->nin);
    c->nout = calloc((size_t)n, sizeof *c->nout);
    c->capin = calloc((size_t)n, sizeof *c->capin);
    c->capout = calloc((size_t)n, sizeof *c->capout);
    c->grp_first = malloc((ix->ncolls + 1) * sizeof *c->grp_first);
    c->lim = malloc((size_t)n * sizeof *c->lim);
    c->scan = malloc((size_t)n * sizeof *c->scan);
    c->stack = malloc(((size_t)n + 1) * sizeof *c->stack);
    c->inq = calloc((size_t)n + 1, 1);
    c->hb_past = malloc((size_t)n * sizeof *c->hb_past);
    c->hb_rank = -1;
    c->inc_rank = -1;
    int bad = !c->in || !c->out || !c->nin || !c->nout || !c->capin ||
              !c->capout || !c->grp_first || !c->lim || !c->scan ||
              !c->stack || !c->inq || !c->hb_past;
    for (size_t i = 0; i < ix->nmsgs && !bad; i++) {
        struct ev_msg s_buf;
        const struct ev_msg *s = ev__msgp(ix, i, &s_buf);
        if (!(s->flags & EV_M_SEND) || s->match < 0)
            continue;
        struct ev_msg rv_buf;
        const struct ev_msg *rv = ev__msgp(ix, s->match, &rv_buf);
        uint64_t dst = (rv->flags & EV_M_PROBED) ? rv->order : rv->done;
        if (dst == EV_NONE || s->rank < 0 || rv->rank < 0)
            continue;
        bad = add(&c->in[rv->rank], &c->nin[rv->rank], &c->capin[rv->rank],
                  (struct edge){dst, s->event, s->rank, -1}) < 0 ||
              add(&c->out[s->rank], &c->nout[s->rank], &c->capout[s->rank],
                  (struct edge){s->event, dst, rv->rank, -1}) < 0;
    }
    /* Collective instances: runs of coll_sorted with one (comm,
     * instance). */
    for (size_t i = 0; i < ix->ncolls && !bad; i++) {
        const struct ev_coll *k = &ix->colls[ix->coll_sorted[i]];
        const struct ev_coll *p = i ? &ix->colls[ix->coll_sorted[i - 1]]
                                    : NULL;
        if (k->comm < 0)
            continue;
        if (!p || p->comm != k->comm || p->instance != k->instance)
            c->grp_first[c->ngrp++] = i;
        int32_t g = (int32_t)c->ngrp - 1;
        if (k->done != EV_NONE)
            bad = add(&c->in[k->rank], &c->nin[k->rank], &c->capin[k->rank],
                      (struct edge){k->done, 0, k->rank, g}) < 0;
        if (!bad)
            bad = add(&c->out[k->rank], &c->nout[k->rank],
                      &c->capout[k->rank],
                      (struct edge){k->event, 0, k->rank, g}) < 0;
    }
    c->grp_first[c->ngrp] = ix->ncolls;
    c->gvis = calloc(c->ngrp + 1, 1);
    if (bad || !c->gvis) {
        ev__causal_free(c);
        return NULL;
    }
    for (int r = 0; r < n; r++) {
        qsort(c->in[r], c->nin[r], sizeof *c->in[r], cmp_edge);
        qsort(c->out[r], c->nout[r], sizeof *c->out[r], cmp_edge);
    }
    return c;
}

/* Raises (past) or lowers (future) rank P's frontier to V; P goes on the
 * stack unless it is there (so the stack never holds more than n). */
static void reach(struct ev__causal *c, int *top, int p, int64_t v,
                  int future)
{
    if (future ? v < c->lim[p] : v > c->lim[p]) {
        c->lim[p] = v;
        if (!c->inq[p]) {
            c->inq[p] = 1;
            c->stack[(*top)++] = p;
        }
    }
}

const int64_t *ev__causal_walk(struct ev__causal *c, struct ev_run *x, int r,
                               uint64_t s, int future)
{
    struct ev_index *ix = x->ix;
    int top = 0;
    if (c->inc_rank != r || c->inc_future != future ||
        (future ? c->inc_seq < s : c->inc_seq > s)) {
        for (int p = 0; p < c->n; p++) {
            c->lim[p] = future ? INT64_MAX : -1;
            c->scan[p] = future ? c->nout[p] : 0;
            c->inq[p] = 0;
        }
        memset(c->gvis, 0, c->ngrp + 1);
    }
    c->inc_rank = r;
    c->inc_future = future;
    c->inc_seq = s;
    reach(c, &top, r, (int64_t)s, future);
    while (top > 0) {
        int p = c->stack[--top];
        c->inq[p] = 0;
        for (;;) {
            const struct edge *e;
            if (future) {
                if (c->scan[p] == 0 ||
                    (int64_t)c->out[p][c->scan[p] - 1].at < c->lim[p])
                    break;
                e = &c->out[p][--c->scan[p]];
            } else {
                if (c->scan[p] >= c->nin[p] ||
                    (int64_t)c->in[p][c->scan[p]].at > c->lim[p])
                    break;
                e = &c->in[p][c->scan[p]++];
            }
            if (e->grp < 0) {
                reach(c, &top, e->rank, (int64_t)e->other, future);
                continue;
            }
            if (c->gvis[e->grp])
                continue;
            c->gvis[e->grp] = 1;
            for (size_t k = c->grp_first[e->grp];
                 k < c->grp_first[e->grp + 1]; k++) {
                const struct ev_coll *m = &ix->colls[ix->coll_sorted[k]];
                if (future && m->done != EV_NONE)
                    reach(c, &top, m->rank, (int64_t)m->done, 1);
                else if (!future)
                    reach(c, &top, m->rank, (int64_t)m->event, 0);
            }
        }
    }
    return c->lim;
}

int ev__causal_before(struct ev__causal *c, struct ev_run *x, int r1,
                      uint64_t s1, int r2, uint64_t s2)
{
    /* The past of the second event, kept for the next call (a WHERE
     * clause, a check, asks about one event many times). */
    if (c->hb_rank != r2 || c->hb_seq != s2) {
        ev__causal_walk(c, x, r2, s2, 0);
        memcpy(c->hb_past, c->lim, (size_t)c->n * sizeof *c->lim);
        c->hb_past[r2] = (int64_t)s2 - 1;
        c->hb_rank = r2;
        c->hb_seq = s2;
    }
    return (int64_t)s1 <= c->hb_past[r1];
}
