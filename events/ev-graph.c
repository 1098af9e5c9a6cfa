/*
 * The time-space diagram's selection and layout (ev-graph.h): which events
 * of which ranks are drawn, their marks, the messages between them, the
 * collective bands, and each mark's position (recorded or logical time).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ev-graph.h"
#include "util.h"

#define DEFAULT_WINDOW 8

/* The earliest rank log's start: time 0 of the picture. */
static uint64_t run_start(struct ev_run *x)
{
    uint64_t t0 = UINT64_MAX;
    for (int r = 0; r < x->world_size; r++)
        if (x->ranks[r].present && x->ranks[r].log.hdr.start_ns < t0)
            t0 = x->ranks[r].log.hdr.start_ns;
    return t0 == UINT64_MAX ? 0 : t0;
}

/* Rank R's event N's enter time since T0. */
static uint64_t t_of(struct ev_run *x, int r, uint64_t n, uint64_t t0)
{
    return ev_walltime(x, r, n) - t0;
}

void ev_graph_release(struct ev_graph *g)
{
    free(g->rows);
    free(g->rowof);
    free(g->marks);
    free(g->arrows);
    free(g->bands);
    free(g->pool);
    memset(g, 0, sizeof *g);
}

int32_t ev_graph_find(const struct ev_graph *g, int rank, uint64_t n)
{
    if (rank < 0 || rank >= g->world_size || g->rowof[rank] < 0 ||
        n == EV_NONE)
        return -1;
    const struct ev_grow *w = &g->rows[g->rowof[rank]];
    if (n < w->lo || n >= w->hi)
        return -1;
    return (int32_t)(w->base + (n - w->lo));
}

const char *ev_graph_tag_name(const struct ev_graph *g, const char *tag)
{
    char *end;
    long t = strtol(tag, &end, 10);
    if (end == tag || *end)
        return NULL;
    for (int i = 0; i < g->ntags; i++)
        if (g->tags[i].tag == t)
            return g->tags[i].name;
    return NULL;
}

/* ---- selection ---------------------------------------------------------- */

/* Widens rank R's range [*LO, *HI) to hold [A - K, B + K] (clipped). */
static void widen(uint64_t *lo, uint64_t *hi, uint64_t a, uint64_t b,
                  uint64_t k, uint64_t nev)
{
    uint64_t l = a > k ? a - k : 0, h = b + k + 1 < nev ? b + k + 1 : nev;
    if (*hi == 0 || l < *lo)
        *lo = l;
    if (h > *hi)
        *hi = h;
}

/* --around: the ranks involved in R:N (it and its partners) and, on each,
 * the events within K of the event or its partner's call and completion,
 * into LO/HI (world_size each; HI 0: rank not involved). The chosen
 * event's own message completion is kept on R too. */
static int around(struct ev_run *x, const struct ev_graph_opts *o,
                  uint64_t *lo, uint64_t *hi, char *err, size_t errlen)
{
    int r = o->around_rank;
    uint64_t n = o->around_event, k = o->window ? o->window : DEFAULT_WINDOW;
    struct log_event ev;
    if (ev_event(x, r, n, &ev, err, errlen) < 0)
        return -1;
    uint64_t nev = x->ranks[r].log.nevents;
    if (o->window && k >= nev) { /* the default is clipped, not refused */
        snprintf(err, errlen, "--window %" PRIu64 " is larger than the "
                 "run: rank %d has %" PRIu64 " events; give a smaller one",
                 k, r, nev);
        return -1;
    }
    widen(&lo[r], &hi[r], n, n, k, nev);
    struct ev_ref ref[256];
    int np = ev_partners(x, r, n, ref, 256, NULL, 0);
    for (int i = 0; i < np && i < 256; i++) {
        int pr = ref[i].rank;
        if (pr < 0 || pr >= x->world_size || !x->ranks[pr].present)
            continue;
        uint64_t a = ref[i].event,
                 b = ref[i].done != EV_NONE && ref[i].done > a ? ref[i].done
                                                                : a;
        widen(&lo[pr], &hi[pr], a, b, k, x->ranks[pr].log.nevents);
        /* R's own side: a receive's completing Wait, say */
        if (ref[i].kind != EV_K_COLL && ref[i].self >= 0) {
            struct ev_msg m_buf;
            const struct ev_msg *m = ev_msg_at(x, ref[i].self, &m_buf);
            if (m && m->rank == r && m->done != EV_NONE)
                widen(&lo[r], &hi[r], m->event < n ? m->event : n,
                      m->done > n ? m->done : n, k, nev);
        }
    }
    return 0;
}

/* The rows: which ranks, which range of each. 0, or -1 with ERR. */
static int select_rows(struct ev_run *x, const struct ev_graph_opts *o,
                       struct ev_graph *g, uint64_t t0, char *err,
                       size_t errlen)
{
    int ws = x->world_size > 0 ? x->world_size : 0;
    uint64_t *lo = calloc((size_t)ws + 1, sizeof *lo),
             *hi = calloc((size_t)ws + 1, sizeof *hi);
    int rc = -1;
    if (!lo || !hi) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    for (int r = 0; r < ws; r++)
        if (o->ranks && o->ranks[r] && !x->ranks[r].present) {
            snprintf(err, errlen, "rank %d was not recorded: %s", r,
                     ev_rank_missing(x, r));
            goto out;
        }
    if (o->around_rank >= 0) {
        if (around(x, o, lo, hi, err, errlen) < 0)
            goto out;
        if (o->ranks) { /* the ranks asked for: where not involved, the
                         * events in the time the involved ones span */
            uint64_t a = UINT64_MAX, b = 0;
            for (int r = 0; r < ws; r++)
                if (hi[r]) {
                    a = t_of(x, r, lo[r], t0) < a ? t_of(x, r, lo[r], t0) : a;
                    b = t_of(x, r, hi[r] - 1, t0) > b
                            ? t_of(x, r, hi[r] - 1, t0) : b;
                }
            for (int r = 0; r < ws; r++) {
                if (!o->ranks[r]) {
                    hi[r] = 0;
                } else if (!hi[r]) {
                    uint64_t nev = x->ranks[r].log.nevents;
                    while (lo[r] < nev && t_of(x, r, lo[r], t0) < a)
                        lo[r]++;
                    for (hi[r] = lo[r];
                         hi[r] < nev && t_of(x, r, hi[r], t0) <= b;)
                        hi[r]++;
                }
            }
        }
    } else if (o->here || o->focus) {
        const uint64_t *at = o->focus ? o->focus : o->here;
        uint64_t most = 0; /* the most events of a rank centred on */
        for (int r = 0; r < ws; r++)
            if (x->ranks[r].present && (!o->ranks || o->ranks[r]) &&
                at[r] != EV_NONE && x->ranks[r].log.nevents > most)
                most = x->ranks[r].log.nevents;
        if (o->window && most && o->window >= most) {
            snprintf(err, errlen, "--window %" PRIu64 " is larger than the "
                     "run: the ranks drawn have %" PRIu64 " events at most; "
                     "give a smaller one", o->window, most);
            goto out;
        }
        for (int r = 0; r < ws; r++)
            if (x->ranks[r].present && (!o->ranks || o->ranks[r]) &&
                at[r] != EV_NONE) {
                if (at[r] > x->ranks[r].log.nevents) {
                    snprintf(err, errlen, "rank %d has %" PRIu64 " events: "
                             "no event %" PRIu64, r,
                             x->ranks[r].log.nevents, at[r]);
                    goto out;
                }
                widen(&lo[r], &hi[r], at[r], at[r],
                      o->window ? o->window : DEFAULT_WINDOW,
                      x->ranks[r].log.nevents);
            }
    } else {
        for (int r = 0; r < ws; r++)
            if (x->ranks[r].present && (!o->ranks || o->ranks[r])) {
                lo[r] = 0;
                hi[r] = x->ranks[r].log.nevents;
            }
    }
    for (int r = 0; r < ws; r++) {
        if (!x->ranks[r].present || !hi[r])
            continue;
        /* the time range: enter times grow along a rank */
        while (o->has_from && lo[r] < hi[r] &&
               t_of(x, r, lo[r], t0) < o->from_ns)
            lo[r]++;
        while (o->has_to && hi[r] > lo[r] &&
               t_of(x, r, hi[r] - 1, t0) > o->to_ns)
            hi[r]--;
    }
    for (int r = 0; r < ws; r++) {
        int keep = x->ranks[r].present &&
                   (hi[r] > lo[r] || (o->ranks && o->ranks[r]));
        if (!keep)
            continue;
        struct ev_grow *w = &g->rows[g->nrows];
        g->rowof[r] = g->nrows++;
        w->rank = r;
        w->here = o->here ? o->here[r] : EV_NONE;
        w->lo = lo[r];
        w->hi = hi[r] > lo[r] ? hi[r] : lo[r];
        w->base = g->nmarks;
        g->nmarks += w->hi - w->lo;
    }
    if (!g->nmarks) {
        snprintf(err, errlen, "the selection is empty: no event of the "
                 "ranks asked for lies in the time range; widen --from/--to "
                 "or choose other --ranks");
        goto out;
    }
    rc = 0;
out:
    free(lo);
    free(hi);
    return rc;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* A selection of more events than O->max_events: refused, with how many
 * (G->over) and where in time the first max_events end (G->over_to_ns:
 * with --to there, at most that many are drawn). 0 when it is not. */
static int too_many(struct ev_run *x, const struct ev_graph_opts *o,
                    struct ev_graph *g, uint64_t t0, char *err, size_t errlen)
{
    if (!o->max_events || g->nmarks <= o->max_events)
        return 0;
    g->over = g->nmarks;
    uint64_t *t = malloc(g->nmarks * sizeof *t);
    size_t n = 0;
    for (int w = 0; t && w < g->nrows; w++)
        for (uint64_t e = g->rows[w].lo; e < g->rows[w].hi; e++)
            t[n++] = t_of(x, g->rows[w].rank, e, t0);
    if (t) {
        qsort(t, n, sizeof *t, cmp_u64);
        g->over_to_ns = t[o->max_events] ? t[o->max_events] - 1 : 0;
    }
    free(t);
    snprintf(err, errlen, "%zu events on %d ranks to draw: more than a "
             "picture shows (%" PRIu64 ", --max-events)", g->nmarks,
             g->nrows, o->max_events);
    return -1;
}

/* ---- marks, arrows, bands ------------------------------------------------ */

struct fill {
    struct ev_graph *g;
    struct ev_run *x;
    uint64_t t0;
    size_t next;
};

static void add_mark(void *ud, const struct ev_row *row, int mark)
{
    struct fill *f = ud;
    struct ev_gmark *m = &f->g->marks[f->next++];
    (void)mark;
    m->row = f->g->rowof[row->rank];
    m->band = -1;
    m->event = row->event;
    m->t_ns = t_of(f->x, row->rank, row->event, f->t0);
    m->x = (double)m->t_ns;
    m->dur_us = row->dur_us;
    m->fn = row->function;
    snprintf(m->peer, sizeof m->peer, "%s", row->peer);
    snprintf(m->tag, sizeof m->tag, "%s", row->tag);
    m->bytes = row->bytes ? (int64_t)row->bytes : -1;
}

static int add_arrow(struct ev_graph *g, const struct ev_garrow *a)
{
    if (util_grow(&g->arrows, &g->caparrows, g->narrows + 1,
                  sizeof *g->arrows) < 0)
        return -1;
    g->arrows[g->narrows++] = *a;
    return 0;
}

/* The band of collective C (a member's call) when C is its instance's
 * first drawn member. */
static int add_band(struct ev_run *x, struct ev_graph *g, int32_t ci)
{
    const struct ev_coll *c = ev_coll_at(x, ci);
    int32_t mem[64], *mp = mem;
    int nm = ev_instance(x, c->comm, c->instance, mem, 64);
    if (nm > 64) {
        if (!(mp = malloc((size_t)nm * sizeof *mp)))
            return -1;
        ev_instance(x, c->comm, c->instance, mp, nm);
    }
    size_t first = g->npool;
    int rc = 0, mine = 1;
    for (int j = 0; j < nm && rc == 0; j++) {
        const struct ev_coll *o = ev_coll_at(x, mp[j]);
        int32_t k = ev_graph_find(g, o->rank, o->event);
        if (k < 0)
            continue;
        if (g->npool == first && mp[j] != ci) {
            mine = 0; /* another member's mark makes it */
            break;
        }
        if (util_grow(&g->pool, &g->cappool, g->npool + 1,
                      sizeof *g->pool) < 0)
            rc = -1;
        else
            g->pool[g->npool++] = k;
    }
    if (rc == 0 && mine && g->npool > first) {
        if (util_grow(&g->bands, &g->capbands, g->nbands + 1,
                      sizeof *g->bands) < 0) {
            rc = -1;
        } else {
            for (size_t j = first; j < g->npool; j++)
                g->marks[g->pool[j]].band = (int32_t)g->nbands;
            g->bands[g->nbands++] = (struct ev_gband){
                first, g->npool - first, c->fn, c->comm, c->instance};
        }
    } else if (!mine) {
        g->npool = first;
    }
    if (mp != mem)
        free(mp);
    return rc;
}

/* The arrow of message S to R (matched), from mark FROM to mark TO (-1:
 * that end is not drawn: a stub at the other). */
static int add_msg(struct ev_graph *g, const struct ev_msg *s,
                   const struct ev_msg *r, int32_t from, int32_t to)
{
    uint64_t end = r->done != EV_NONE ? r->done : r->event;
    int32_t post = r->event != end ? ev_graph_find(g, r->rank, r->event)
                                   : -1;
    struct ev_garrow a = {from, to, post, s->tag,
                          r->bytes >= 0 ? r->bytes : s->bytes, 0, 0,
                          from < 0 ? s->rank : r->rank,
                          from < 0 ? s->event : end};
    if (g->hl_rank >= 0) { /* a message the chosen event sent, received
                            * or completed */
        int32_t h = ev_graph_find(g, g->hl_rank, g->hl_event);
        a.hl = h >= 0 && ((from >= 0 && h == from) || (to >= 0 && h == to) ||
                          h == post ||
                          h == ev_graph_find(g, s->rank, s->done));
    }
    g->nstubs += from < 0 || to < 0;
    return add_arrow(g, &a);
}

/* The messages sent and collectives called by mark K, and the messages
 * it received whose send is not drawn (stubs). */
static int links_of(struct ev_run *x, struct ev_graph *g, int32_t k)
{
    const struct ev_gmark *m = &g->marks[k];
    int rank = g->rows[m->row].rank;
    struct ev_use use[64];
    int nu = ev_uses(x, rank, m->event, use, 64);
    for (int u = 0; u < nu && u < 64; u++) {
        if (use[u].role == EV_COLL) {
            if (add_band(x, g, use[u].i) < 0)
                return -1;
            continue;
        }
        if (use[u].role != EV_CALL && use[u].role != EV_DONE)
            continue;
        struct ev_msg a_buf, b_buf;
        const struct ev_msg *a = ev_msg_at(x, use[u].i, &a_buf);
        if (a->match < 0)
            continue;
        const struct ev_msg *b = ev_msg_at(x, a->match, &b_buf);
        if (a->flags & EV_M_SEND) { /* its send's call: an arrow */
            if (use[u].role != EV_CALL)
                continue;
            uint64_t end = b->done != EV_NONE ? b->done : b->event;
            if (add_msg(g, a, b, k, ev_graph_find(g, b->rank, end)) < 0)
                return -1;
        } else if (m->event == (a->done != EV_NONE ? a->done : a->event) &&
                   ev_graph_find(g, b->rank, b->event) < 0) {
            /* its receive's completion, the send not drawn: a stub */
            if (add_msg(g, b, a, -1, k) < 0)
                return -1;
        }
    }
    if (m->bytes < 0) /* a send logs no data: its bytes are the message's */
        g->marks[k].bytes = ev_sent_bytes(x, rank, m->event);
    return 0;
}

/* Marks the chosen event and its partners (their calls and completions). */
static void highlight(struct ev_run *x, struct ev_graph *g)
{
    int32_t k = ev_graph_find(g, g->hl_rank, g->hl_event);
    if (k >= 0)
        g->marks[k].hl = 1;
    struct ev_ref ref[256];
    int np = ev_partners(x, g->hl_rank, g->hl_event, ref, 256, NULL, 0);
    for (int i = 0; i < np && i < 256; i++) {
        if (ref[i].kind == EV_K_COLL && ref[i].rank == g->hl_rank)
            continue;
        int32_t a = ev_graph_find(g, ref[i].rank, ref[i].event),
                b = ev_graph_find(g, ref[i].rank, ref[i].done);
        if (a >= 0)
            g->marks[a].hl = 1;
        if (b >= 0)
            g->marks[b].hl = 1;
    }
}

/* The console's positions: each rank's next event marked, and the
 * messages sent to it and not yet received there drawn to it. */
static int positions(struct ev_run *x, struct ev_graph *g)
{
    for (int w = 0; w < g->nrows; w++) {
        struct ev_grow *row = &g->rows[w];
        if (row->here == EV_NONE)
            continue;
        int32_t at = ev_graph_find(g, row->rank, row->here);
        if (at < 0 && row->here == x->ranks[row->rank].log.nevents &&
            row->hi > row->lo && row->hi == row->here) {
            at = (int32_t)(row->base + (row->hi - 1 - row->lo)); /* end */
            row->here_end = 1;
        }
        if (at < 0)
            continue;
        g->marks[at].next = row->here != x->ranks[row->rank].log.nevents;
        struct ev_queue q;
        if (ev_pending(x, row->rank, row->here, &q, NULL, 0) < 0)
            continue;
        uint64_t now = ev_walltime(x, row->rank, row->here);
        for (size_t i = 0; i < q.nincoming; i++) {
            struct ev_msg s_buf;
            const struct ev_msg *s = ev_msg_at(x, q.incoming[i], &s_buf);
            int sw = g->rowof[s->rank];
            uint64_t sh = sw >= 0 ? g->rows[sw].here : EV_NONE;
            int sent = sh != EV_NONE ? s->event < sh
                                     : ev_walltime(x, s->rank, s->event) <=
                                           now;
            int32_t from = ev_graph_find(g, s->rank, s->event);
            if (!sent || from < 0)
                continue;
            struct ev_garrow a = {from, at, -1, s->tag, s->bytes, 0, 1,
                                  -1, 0};
            if (add_arrow(g, &a) < 0) {
                ev_queue_release(&q);
                return -1;
            }
        }
        ev_queue_release(&q);
    }
    return 0;
}

/* ---- logical time --------------------------------------------------------- */

/* Lamport clocks over the drawn events: one more than the previous event
 * of the rank and than the send of each message received; a collective's
 * drawn members all get one more than the latest before any of them. A
 * dependency that cannot be met (a cycle in damaged logs) is dropped. */
static int logical(struct ev_graph *g)
{
    size_t n = g->nmarks;
    int32_t *in = malloc(n * sizeof *in), *next = NULL;
    double *L = malloc(n * sizeof *L);
    size_t *pos = calloc((size_t)g->nrows, sizeof *pos);
    next = malloc((g->narrows ? g->narrows : 1) * sizeof *next);
    if (!in || !L || !pos || !next) {
        free(in), free(L), free(pos), free(next);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        in[i] = -1, L[i] = -1;
    for (size_t a = 0; a < g->narrows; a++) {
        /* not received (no order), or an end not drawn */
        if (g->arrows[a].pending || g->arrows[a].from < 0 ||
            g->arrows[a].to < 0)
            continue;
        next[a] = in[g->arrows[a].to];
        in[g->arrows[a].to] = (int32_t)a;
    }
    size_t left = n;
    int force = 0;
    while (left) {
        int moved = 0;
        for (int w = 0; w < g->nrows; w++) {
            const struct ev_grow *row = &g->rows[w];
            for (;;) {
                size_t p = pos[w];
                if (p >= row->hi - row->lo)
                    break;
                size_t k = row->base + p;
                if (L[k] >= 0) { /* a band's member, placed with it */
                    pos[w]++;
                    continue;
                }
                double t = p ? L[k - 1] + 1 : 1;
                int ready = 1;
                for (int32_t a = in[k]; a >= 0; a = next[a]) {
                    double s = L[g->arrows[a].from];
                    if (s < 0 && !force)
                        ready = 0;
                    else if (s + 1 > t)
                        t = s + 1;
                }
                int32_t b = g->marks[k].band;
                if (ready && b >= 0) {
                    const struct ev_gband *bd = &g->bands[b];
                    for (size_t j = 0; j < bd->n && ready; j++) {
                        int32_t o = g->pool[bd->first + j];
                        const struct ev_grow *ow = &g->rows[g->marks[o].row];
                        size_t op = (size_t)o - ow->base;
                        if (pos[g->marks[o].row] < op && !force)
                            ready = 0;
                        else if (op && L[o - 1] + 1 > t)
                            t = L[o - 1] + 1;
                    }
                }
                if (!ready)
                    break;
                if (b >= 0) { /* every member at once */
                    const struct ev_gband *bd = &g->bands[b];
                    for (size_t j = 0; j < bd->n; j++) {
                        int32_t o = g->pool[bd->first + j];
                        if (L[o] < 0) {
                            L[o] = t;
                            left--;
                        }
                        size_t *op = &pos[g->marks[o].row];
                        if (*op == (size_t)o - g->rows[g->marks[o].row].base)
                            (*op)++;
                    }
                } else {
                    L[k] = t;
                    left--;
                    pos[w]++;
                }
                moved = 1;
                force = 0;
            }
        }
        if (!moved)
            force = 1;
    }
    for (size_t i = 0; i < n; i++)
        g->marks[i].x = L[i];
    free(in), free(L), free(pos), free(next);
    return 0;
}

int ev_graph_build(struct ev_run *x, const struct ev_graph_opts *opt,
                   struct ev_graph *g, char *err, size_t errlen)
{
    struct ev_graph_opts o = *opt;
    memset(g, 0, sizeof *g);
    if (ev_build(x, err, errlen) < 0)
        return -1;
    snprintf(g->run, sizeof g->run, "%s", x->dir);
    g->world_size = x->world_size;
    g->logical = o.logical;
    g->hl_rank = o.around_rank;
    g->hl_event = o.around_event;
    g->tags = o.tags;
    g->ntags = o.ntags;
    size_t ws = x->world_size > 0 ? (size_t)x->world_size : 0;
    g->rows = calloc(ws + 1, sizeof *g->rows);
    g->rowof = malloc((ws + 1) * sizeof *g->rowof);
    if (!g->rows || !g->rowof) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (int r = 0; r < x->world_size; r++)
        g->rowof[r] = -1;
    uint64_t t0 = run_start(x);
    if (select_rows(x, &o, g, t0, err, errlen) < 0 ||
        too_many(x, &o, g, t0, err, errlen) < 0)
        return -1;
    g->capmarks = g->nmarks;
    if (!(g->marks = calloc(g->nmarks, sizeof *g->marks))) {
        snprintf(err, errlen, "out of memory: %zu events to draw",
                 g->nmarks);
        return -1;
    }
    struct fill f = {g, x, t0, 0};
    struct ev_filter all = {NULL, -1, -1};
    for (int w = 0; w < g->nrows; w++) {
        const struct ev_grow *row = &g->rows[w];
        f.next = row->base;
        if (row->hi > row->lo &&
            ev_list_events(x, row->rank, row->lo, row->hi - row->lo, &all,
                           -1, add_mark, &f, err, errlen) < 0)
            return -1;
    }
    for (size_t k = 0; k < g->nmarks; k++)
        if (links_of(x, g, (int32_t)k) < 0) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
    if (g->hl_rank >= 0)
        highlight(x, g);
    for (int r = 0; o.focus && r < x->world_size; r++) {
        int32_t k = ev_graph_find(g, r, o.focus[r]);
        if (k >= 0)
            g->marks[k].hl = 1;
    }
    if (o.here && positions(x, g) < 0) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (g->logical && logical(g) < 0) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    g->xmin = g->xmax = g->marks[0].x;
    for (size_t k = 1; k < g->nmarks; k++) {
        if (g->marks[k].x < g->xmin)
            g->xmin = g->marks[k].x;
        if (g->marks[k].x > g->xmax)
            g->xmax = g->marks[k].x;
    }
    return 0;
}
