/*
 * ev-check-deadlock.c - the deadlock.* checks (ev-check.h; docs/check.md).
 *
 * A run that hung (stopped by `drdb record --timeout`, or killed): each
 * rank's log ends at its last completed call, and its slot (log-reader.h:
 * log_call_in_progress) says which call it was blocked in. What that call
 * waits for, by the MPI standard:
 *   - a receive or probe: its source (MPI_ANY_SOURCE: any member of the
 *     communicator, whichever sends first);
 *   - a standard or synchronous send: the receiver, to post a matching
 *     receive (a standard send may complete by buffering: "may"), unless
 *     the receiver logged a receive of it;
 *   - MPI_Sendrecv: both (its send part only while undelivered);
 *   - the Wait family: the peers of its requests still pending at the end
 *     of the log (Waitall all of them, Waitany and Waitsome any);
 *   - a blocking collective: the members that have not entered that
 *     instance (neither logged it nor are blocked in a collective on it).
 * A rank whose log ended normally (MPI_Finalize, MPI_Abort) waits for
 * nobody and nobody can wait on it to move. The wait-for graph over the
 * ranks: deadlock.cycle reports each cycle of it (a strongly connected
 * component), deadlock.wait the ranks outside any cycle that every blocked
 * rank waits for, directly or not (a rank that finished, or is in no MPI
 * call: computing, stuck outside MPI, or dead).
 *
 * A complete run: deadlock.unsafe-send (ev-check-deadlock-unsafe.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ev-check.h"
#include "ev-int.h"
#include "log-abi.h"

/* ---- what a hung rank waits for ----------------------------------------- */

/* ST_DEAD: MPI ended it inside a call (err.fatal), or it crashed: it
 * waits for nobody, and the ranks waiting for it were ended after it by
 * the launcher, which is no deadlock. */
enum { ST_DONE = 1, ST_BLOCKED, ST_OUTSIDE, ST_UNKNOWN, ST_DEAD };

struct wrank {
    int state;
    struct log_call_slot slot;
    int any;          /* waits for any one of its targets (else all) */
    int32_t *to;      /* the ranks it waits for */
    unsigned char *may; /* per target: only if MPI did not buffer */
    int nto, capto;
    int32_t comm;     /* the blocked call's communicator, -1 */
    char call[160];   /* the call, as the findings say it */
    char why[96];     /* ST_DONE, ST_OUTSIDE, ST_UNKNOWN, ST_DEAD: why */
};

struct hang {
    struct ev_check_ctx *c;
    struct ev_run *x;
    struct ev_index *ix;
    int n;
    struct wrank *w;
    int nblocked;
};

static int target(struct wrank *w, int32_t r, int may)
{
    for (int i = 0; i < w->nto; i++)
        if (w->to[i] == r) {
            w->may[i] = (unsigned char)(w->may[i] && may);
            return 0;
        }
    if (w->nto == w->capto) {
        int cap = w->capto ? 2 * w->capto : 8;
        int32_t *t = realloc(w->to, (size_t)cap * sizeof *t);
        if (!t)
            return -1;
        w->to = t;
        unsigned char *m = realloc(w->may, (size_t)cap);
        if (!m)
            return -1;
        w->may = m;
        w->capto = cap;
    }
    w->to[w->nto] = r;
    w->may[w->nto++] = (unsigned char)may;
    return 0;
}

/* Every member of COMM but R (both groups of an intercommunicator). */
static int all_members(struct wrank *w, const struct ev_comm *cm, int r,
                       int may)
{
    for (int i = 0; i < cm->na; i++)
        if (cm->a[i] != r && target(w, cm->a[i], may) < 0)
            return -1;
    for (int i = 0; i < cm->nb; i++)
        if (cm->b[i] != r && target(w, cm->b[i], may) < 0)
            return -1;
    return 0;
}

/* A peer of a point-to-point call at rank R (LOCAL in COMM, SIDE): the
 * targets it adds. */
static int peer(struct hang *h, struct wrank *w, int r, int32_t comm,
                int side, int32_t local, int may)
{
    if (local == EV_PROC_NULL || local == LOG_CALL_NONE)
        return 0;
    if (comm < 0)
        return 1;
    if (local == EV_ANY_SOURCE) {
        w->any = 1;
        return all_members(w, ev_comm_at(h->x, comm), r, may);
    }
    int32_t p = ev__world_of(h->ix, comm, side, local);
    return p < 0 ? 1 : target(w, p, may);
}

/* Whether the send rank R is blocked in (to LOCAL of COMM, SIDE, with
 * TAG) was delivered already: the receiver completed a receive of it, one
 * more than R's logged sends on that channel (a Sendrecv whose send part
 * is done, waiting for its receive). */
static int delivered(struct hang *h, int r, int32_t comm, int side,
                     int32_t local, int32_t tag)
{
    if (comm < 0 || local < 0 || tag < 0)
        return 0;
    int32_t d = ev__world_of(h->ix, comm, side, local);
    int32_t c = d < 0 ? -1 : ev__chan_of(h->ix, comm, r, d, tag, 0);
    return c >= 0 && h->ix->chans[c].r_n > h->ix->chans[c].s_n;
}

/* Collective calls rank R logged on COMM. */
static int32_t colls_on(const struct ev_index *ix, int r, int32_t comm)
{
    const struct ev__rank_ix *ri = &ix->r[r];
    int32_t k = 0;
    for (size_t i = 0; i < ri->nrefs; i++) {
        struct ev__xref e = ev__ref_at(ix, ri, i);
        if (e.role == EV_COLL && ix->colls[e.i].comm == comm)
            k++;
    }
    return k;
}

/* Whether rank M, blocked, is in a blocking collective on COMM. */
static int in_coll(struct hang *h, int m, int32_t comm)
{
    const struct wrank *o = &h->w[m];
    return o->state == ST_BLOCKED && o->comm == comm &&
           ev__fn(h->ix, (int)o->slot.fn)->coll == EV__K_BLOCKING;
}

/* The members of COMM that have not entered rank R's instance K. */
static int coll_waits(struct hang *h, struct wrank *w, int r, int32_t comm,
                      int32_t k)
{
    const struct ev_comm *cm = ev_comm_at(h->x, comm);
    for (int g = 0; g < 2; g++)
        for (int i = 0; i < (g ? cm->nb : cm->na); i++) {
            int32_t m = g ? cm->b[i] : cm->a[i];
            if (m == r || m < 0 || m >= h->n)
                continue;
            if (!h->x->ranks[m].present)
                continue;
            int32_t got = colls_on(h->ix, m, comm);
            if (got > k || (got == k && in_coll(h, m, comm)))
                continue;
            if (target(w, m, 0) < 0)
                return -1;
        }
    return 0;
}

/* The request handle message or collective I was given at its call. */
static uint32_t req_handle(struct hang *h, int r, uint64_t event, int fn)
{
    struct log_event ev;
    if (event == EV_NONE || ev_event(h->x, r, event, &ev, NULL, 0) < 0)
        return 0;
    return ev__out_handle(&ev, ev__fn(h->ix, fn)->req_arg);
}

static int slot_has(const struct log_call_slot *s, uint32_t handle)
{
    if (s->nreq > LOG_CALL_REQS)
        return 1; /* not all kept: every pending request counts */
    for (uint32_t i = 0; i < s->nreq; i++)
        if (s->req[i] == handle)
            return 1;
    return 0;
}

/* A Wait-family call: the peers of the requests it waits on. */
static int wait_targets(struct hang *h, struct wrank *w, int r)
{
    struct ev_queue q;
    struct ev_index *ix = h->ix;
    uint64_t n = h->x->ranks[r].log.nevents;
    if (ev_pending(h->x, r, n, &q, NULL, 0) < 0)
        return -1;
    /* MPI_Waitall (the role all) waits for all of them, the others for
     * any one. */
    const struct log_func_desc *d = log_func_by_id((int)w->slot.fn);
    w->any = !d || !(d->roles & LOG_R_ALL);
    int rc = 0, found = 0;
    for (size_t i = 0; i < q.nrequests && rc >= 0; i++) {
        struct ev_msg m_buf;
        const struct ev_msg *m = ev__msgp(ix, q.requests[i], &m_buf);
        uint64_t at = (m->flags & EV_M_PERSISTENT) ? m->init : m->event;
        int fn = at == m->event ? m->fn : ev_fn(h->x, r, at);
        if (!slot_has(&w->slot, req_handle(h, r, at, fn)))
            continue;
        found++;
        if (m->flags & EV_M_SEND)
            rc = m->peer >= 0 ? target(w, m->peer, 1) : 0;
        else if (m->peer >= 0)
            rc = target(w, m->peer, 0);
        else if (m->comm >= 0 && m->peer_local == EV_ANY_SOURCE)
            rc = all_members(w, ev_comm_at(h->x, m->comm), r, 0);
    }
    for (size_t i = 0; i < q.ncolls && rc >= 0; i++) {
        const struct ev_coll *k = &ix->colls[q.colls[i]];
        if (!slot_has(&w->slot, req_handle(h, r, k->event, k->fn)) ||
            k->comm < 0)
            continue;
        found++;
        rc = coll_waits(h, w, r, k->comm, k->instance);
    }
    ev_queue_release(&q);
    if (rc >= 0 && !found)
        snprintf(w->why, sizeof w->why, "none of its requests is pending "
                 "in the log");
    return rc < 0 ? -1 : 0;
}

/* Rank R's state at the end of the run and, blocked, whom it waits for. */
static int rank_waits(struct hang *h, int r)
{
    struct wrank *w = &h->w[r];
    struct ev_rank *er = &h->x->ranks[r];
    char buf[256];
    if (!er->present) {
        w->state = ST_UNKNOWN;
        snprintf(w->why, sizeof w->why, "it has no log");
        return 0;
    }
    enum log_ending end = log_rank_ending(&er->log, buf, sizeof buf);
    if (end == LOG_END_COMPLETE || end == LOG_END_ABORT) {
        w->state = ST_DONE;
        snprintf(w->why, sizeof w->why, "%s",
                 end == LOG_END_ABORT ? "it called MPI_Abort"
                                      : "it finished (MPI_Finalize)");
        return 0;
    }
    if (end != LOG_END_KILLED) {
        w->state = ST_UNKNOWN;
        snprintf(w->why, sizeof w->why, "its log is cut short (%s)",
                 end == LOG_END_TRUNCATED ? "truncated" : "corrupt");
        return 0;
    }
    int sig = er->log.died ? 0 : log_rank_signal(h->x->dir, &er->log);
    if (er->log.died || sig) {
        const char *abbrev = sig ? sigabbrev_np(sig) : NULL;
        struct log_event ev;
        w->state = ST_DEAD;
        if (sig)
            snprintf(w->why, sizeof w->why, "it died of SIG%s",
                     abbrev ? abbrev : "?");
        else if (ev_event(h->x, r, er->log.nevents - 1, &ev, buf,
                          sizeof buf) == 0 && ev.desc)
            snprintf(w->why, sizeof w->why, "it died in %s (err.fatal)",
                     ev.desc->name);
        else
            snprintf(w->why, sizeof w->why, "it died in an MPI call");
        return 0;
    }
    int got = log_call_in_progress(h->x->dir, &er->log, &w->slot);
    if (got < 0 || (got > 0 && w->slot.fn == LOG_CALL_THREADS)) {
        w->state = ST_UNKNOWN;
        snprintf(w->why, sizeof w->why, "%s", got < 0
                 ? "the run does not say which call it was in"
                 : "its threads' calls in progress are not kept");
        return 0;
    }
    if (!got) {
        w->state = ST_OUTSIDE;
        snprintf(w->why, sizeof w->why, "it was in no blocking MPI call "
                 "(computing, stuck outside MPI, or dead)");
        return 0;
    }
    const struct log_func_desc *fd = log_func_by_id((int)w->slot.fn);
    if (fd && (fd->roles & LOG_R_FINALIZE)) {
        w->state = ST_DONE;
        snprintf(w->why, sizeof w->why, "it is in MPI_Finalize (it makes "
                 "no more calls)");
        return 0;
    }
    w->state = ST_BLOCKED;
    h->nblocked++;
    int fn = (int)w->slot.fn, side = 0;
    const struct ev__fninfo *fi = ev__fn(h->ix, fn);
    uint64_t n = er->log.nevents;
    w->comm = w->slot.comm ? ev_comm_of(h->x, r, n ? n - 1 : 0,
                                        w->slot.comm, &side)
                           : -1;
    ev__slot_call(h->ix, fn, &w->slot, w->comm, w->call, sizeof w->call);
    const struct log_call_slot *s = &w->slot;
    const struct log_func_desc *d = log_func_by_id(fn);
    int synchronous = d && (d->roles & LOG_R_SYNC); /* MPI_Ssend */
    int rc = 0;
    switch (fi->cls) {
    case EV__C_SEND:
        if (!delivered(h, r, w->comm, side, s->peer, s->tag))
            rc = peer(h, w, r, w->comm, side, s->peer, !synchronous);
        break;
    case EV__C_RECV:
    case EV__C_PROBE:
    case EV__C_MPROBE:
        rc = peer(h, w, r, w->comm, side, s->peer, 0);
        break;
    case EV__C_SENDRECV:
        if (!delivered(h, r, w->comm, side, s->peer, s->tag))
            rc = peer(h, w, r, w->comm, side, s->peer, 1);
        if (rc >= 0)
            rc = peer(h, w, r, w->comm, side, s->peer2, 0);
        w->any = 0;
        break;
    case EV__C_DONE1:
    case EV__C_DONEN:
        rc = wait_targets(h, w, r);
        break;
    default:
        if (fi->coll == EV__K_BLOCKING && w->comm >= 0)
            rc = 2; /* after every rank's state is known */
        else
            rc = 1;
    }
    if (rc == 1)
        snprintf(w->why, sizeof w->why, "what it waits for is not known");
    return rc < 0 ? -1 : 0;
}

static void hang_release(struct hang *h)
{
    for (int i = 0; i < h->x->nlogged && h->w; i++) {
        free(h->w[h->x->logged[i]].to);
        free(h->w[h->x->logged[i]].may);
    }
    free(h->w);
}

static int hang_build(struct hang *h, struct ev_check_ctx *c)
{
    memset(h, 0, sizeof *h);
    h->c = c;
    h->x = c->x;
    h->ix = c->x->ix;
    h->n = c->x->world_size;
    h->w = calloc((size_t)h->n, sizeof *h->w);
    if (!h->w)
        return -1;
    /* A rank without a log file keeps state 0, said "it has no log"
     * (unlogged_why): a cost per logged rank, not per rank of the world. */
    for (int i = 0; i < h->x->nlogged; i++) {
        h->w[h->x->logged[i]].comm = -1;
        if (rank_waits(h, h->x->logged[i]) < 0)
            return -1;
    }
    /* Collectives last: they look at the other members' calls. */
    for (int r = 0; r < h->n; r++) {
        struct wrank *w = &h->w[r];
        if (w->state == ST_BLOCKED && !w->nto && !w->why[0] &&
            ev__fn(h->ix, (int)w->slot.fn)->coll == EV__K_BLOCKING &&
            w->comm >= 0 &&
            coll_waits(h, w, r, w->comm, colls_on(h->ix, r, w->comm)) < 0)
            return -1;
    }
    return 0;
}

/* ---- the graph ---------------------------------------------------------- */

/* Tarjan's strongly connected components over the blocked ranks (edges to
 * blocked ranks only), iteratively: COMP[r] gets its component's number,
 * -1 for ranks not blocked. Returns the number of components, -1. */
static int components(const struct hang *h, int *comp)
{
    int n = h->n, idx = 0, ncomp = 0, top = 0, depth = 0;
    int *index = malloc((size_t)n * sizeof *index);
    int *low = malloc((size_t)n * sizeof *low);
    int *stack = malloc((size_t)n * sizeof *stack);
    int *onst = calloc((size_t)n, sizeof *onst);
    int *cs = malloc((size_t)n * sizeof *cs), *ce = malloc((size_t)n *
                                                           sizeof *ce);
    if (!index || !low || !stack || !onst || !cs || !ce) {
        ncomp = -1;
        goto out;
    }
    for (int r = 0; r < n; r++) {
        index[r] = -1;
        comp[r] = -1;
    }
    for (int s = 0; s < n; s++) {
        if (h->w[s].state != ST_BLOCKED || index[s] >= 0)
            continue;
        cs[depth] = s;
        ce[depth++] = 0;
        index[s] = low[s] = idx++;
        stack[top++] = s;
        onst[s] = 1;
        while (depth > 0) {
            int v = cs[depth - 1];
            const struct wrank *w = &h->w[v];
            if (ce[depth - 1] < w->nto) {
                int u = w->to[ce[depth - 1]++];
                if (h->w[u].state != ST_BLOCKED)
                    continue;
                if (index[u] < 0) {
                    index[u] = low[u] = idx++;
                    stack[top++] = u;
                    onst[u] = 1;
                    cs[depth] = u;
                    ce[depth++] = 0;
                } else if (onst[u] && index[u] < low[v]) {
                    low[v] = index[u];
                }
                continue;
            }
            if (low[v] == index[v]) {
                int u;
                do {
                    u = stack[--top];
                    onst[u] = 0;
                    comp[u] = ncomp;
                } while (u != v);
                ncomp++;
            }
            depth--;
            if (depth > 0 && low[v] < low[cs[depth - 1]])
                low[cs[depth - 1]] = low[v];
        }
    }
out:
    free(index);
    free(low);
    free(stack);
    free(onst);
    free(cs);
    free(ce);
    return ncomp;
}

/* Whether rank R waits for rank U. */
static int waits_for(const struct wrank *w, int u)
{
    for (int i = 0; i < w->nto; i++)
        if (w->to[i] == u)
            return 1;
    return 0;
}

/* A cycle through component K from its lowest rank into PATH: its
 * length (a walk staying in K: every rank there reaches the start). */
static int cycle_of(const struct hang *h, const int *comp, int k, int *path,
                    int max)
{
    int start = -1, len = 0;
    for (int r = 0; r < h->n && start < 0; r++)
        if (comp[r] == k)
            start = r;
    /* Greedy: from each rank, the next rank of K that leads back soonest
     * (back to START if it can, else the lowest unvisited). */
    int v = start;
    while (len < max) {
        path[len++] = v;
        if (waits_for(&h->w[v], start) && len > 1)
            break;
        int next = -1;
        for (int i = 0; i < h->w[v].nto && next < 0; i++) {
            int u = h->w[v].to[i], seen = 0;
            for (int j = 0; j < len; j++)
                seen |= path[j] == u;
            if (comp[u] == k && !seen)
                next = u;
        }
        if (next < 0)
            break;
        v = next;
    }
    return len;
}

static int run_cycle(struct ev_check_ctx *c, char *err, size_t errlen)
{
    struct hang h;
    int *comp = NULL, *path = NULL, rc = 0;
    struct ev_check_site *sites = NULL;
    if (hang_build(&h, c) < 0 ||
        !(comp = malloc((size_t)h.n * sizeof *comp)) ||
        !(path = malloc((size_t)h.n * sizeof *path)) ||
        !(sites = malloc((size_t)h.n * sizeof *sites))) {
        rc = -1;
        goto out;
    }
    ev__check_note_unlogged(c, "deadlock.cycle", ": whom it waited for is "
                            "not known");
    for (int i = 0; i < h.x->nlogged; i++) {
        int r = h.x->logged[i];
        if (h.w[r].state == ST_UNKNOWN) {
            char msg[192];
            snprintf(msg, sizeof msg, "rank %d: %s: whom it waited for is "
                     "not known", r, h.w[r].why);
            c->note(c->ud, "deadlock.cycle", msg);
        }
    }
    int nc = components(&h, comp);
    if (nc < 0) {
        rc = -1;
        goto out;
    }
    for (int k = 0; k < nc; k++) {
        int len = cycle_of(&h, comp, k, path, h.n);
        if (len == 1 && !waits_for(&h.w[path[0]], path[0]))
            continue;
        struct ev_check_finding f = {"deadlock.cycle", EV_CHECK_ERROR, "",
                                     sites, len};
        int n = snprintf(f.message, sizeof f.message,
                         "ranks wait for each other in a cycle, ");
        for (int i = 0; i <= len && n < (int)sizeof f.message; i++)
            n += snprintf(f.message + n, sizeof f.message - (size_t)n,
                          "%s%d", i ? "->" : "", path[i % len]);
        for (int i = 0; i < len && n < (int)sizeof f.message; i++) {
            const struct wrank *w = &h.w[path[i]];
            int next = path[(i + 1) % len], may = 0;
            for (int j = 0; j < w->nto; j++)
                if (w->to[j] == next)
                    may = w->may[j];
            n += snprintf(f.message + n, sizeof f.message - (size_t)n,
                          "%s rank %d in %s %swaits for rank %d",
                          i ? ";" : ":", path[i], w->call,
                          may ? "(unless MPI buffers the send) " : "", next);
            sites[i] = (struct ev_check_site){path[i], EV_NONE,
                                              "blocked here"};
        }
        c->emit(c->ud, &f);
    }
out:
    if (rc < 0)
        snprintf(err, errlen, "out of memory");
    hang_release(&h);
    free(comp);
    free(path);
    free(sites);
    return rc;
}

/* deadlock.wait: the ranks outside any cycle (finished, in no MPI call,
 * unknown) that every blocked rank waits for, directly or not. */
static int run_wait(struct ev_check_ctx *c, char *err, size_t errlen)
{
    struct hang h;
    int rc = 0, *reach = NULL, *stack = NULL;
    if (hang_build(&h, c) < 0 ||
        !(reach = calloc((size_t)h.n, sizeof *reach)) ||
        !(stack = malloc((size_t)h.n * sizeof *stack))) {
        rc = -1;
        goto out;
    }
    /* reach[u]: how many blocked ranks reach rank u (not blocked). */
    int *vis = calloc((size_t)h.n, sizeof *vis);
    if (!vis) {
        rc = -1;
        goto out;
    }
    for (int s = 0; s < h.n; s++) {
        if (h.w[s].state != ST_BLOCKED)
            continue;
        memset(vis, 0, (size_t)h.n * sizeof *vis);
        int top = 0;
        stack[top++] = s;
        vis[s] = 1;
        while (top) {
            int v = stack[--top];
            if (h.w[v].state != ST_BLOCKED) {
                reach[v]++;
                continue;
            }
            for (int i = 0; i < h.w[v].nto; i++) {
                int u = h.w[v].to[i];
                if (!vis[u]) {
                    vis[u] = 1;
                    stack[top++] = u;
                }
            }
        }
    }
    free(vis);
    for (int u = 0; u < h.n && h.nblocked; u++) {
        if (reach[u] != h.nblocked)
            continue;
        if (h.w[u].state == ST_DEAD) {
            char msg[256];
            snprintf(msg, sizeof msg, "every blocked rank (%d) waits, "
                     "directly or not, for rank %d, but %s: the launcher "
                     "ended them after it, which is no deadlock", h.nblocked,
                     u, h.w[u].why);
            c->note(c->ud, "deadlock.wait", msg);
            continue;
        }
        /* the rank waited for, then the blocked ranks (the first 16) */
        struct ev_check_site sites[17];
        int ns = 0;
        uint64_t last = h.x->ranks[u].present && h.x->ranks[u].log.nevents
                            ? h.x->ranks[u].log.nevents - 1
                            : EV_NONE;
        sites[ns++] = (struct ev_check_site){u, last, "its last call"};
        for (int v = 0; v < h.n && ns < 17; v++)
            if (h.w[v].state == ST_BLOCKED)
                sites[ns++] = (struct ev_check_site){v, EV_NONE,
                                                     "blocked here"};
        struct ev_check_finding f = {"deadlock.wait", EV_CHECK_ERROR, "",
                                     sites, ns};
        snprintf(f.message, sizeof f.message,
                 "every blocked rank (%d) waits, directly or not, for rank "
                 "%d, which will not answer: %s", h.nblocked, u,
                 h.w[u].state ? h.w[u].why : "it has no log");
        c->emit(c->ud, &f);
    }
out:
    if (rc < 0)
        snprintf(err, errlen, "out of memory");
    hang_release(&h);
    free(reach);
    free(stack);
    return rc;
}

/* ---- coll.blocked-mismatch ------------------------------------------------ */

/* Rank M's K-th collective on COMM: its function id, and its event
 * (EV_NONE: the call it is blocked in); 0 when it has none. */
static int kth_coll(struct hang *h, int m, int32_t comm, int32_t k,
                    uint64_t *event)
{
    const struct ev__rank_ix *ri = &h->ix->r[m];
    int32_t got = 0;
    for (size_t i = 0; i < ri->nrefs; i++) {
        struct ev__xref e = ev__ref_at(h->ix, ri, i);
        if (e.role != EV_COLL || h->ix->colls[e.i].comm != comm)
            continue;
        if (got++ == k) {
            *event = h->ix->colls[e.i].event;
            return h->ix->colls[e.i].fn;
        }
    }
    if (got == k && in_coll(h, m, comm)) {
        *event = EV_NONE;
        return (int)h->w[m].slot.fn;
    }
    return 0;
}

/* Rank M's root and op of its collective at EVENT (EV_NONE: the one it
 * is blocked in: its call slot's, LOG_CALL_NONE when the slot has none),
 * LOG_CALL_NONE where the call has none. */
static void root_op(struct hang *h, int m, uint64_t event, int32_t *root,
                    int32_t *op)
{
    *root = *op = LOG_CALL_NONE;
    if (event == EV_NONE) {
        *root = h->w[m].slot.peer;
        *op = h->w[m].slot.tag;
        return;
    }
    struct log_event ev;
    if (ev_event(h->x, m, event, &ev, NULL, 0) < 0 || !ev.desc)
        return;
    int r = ev.desc->slot[LOG_S_ROOT], o = ev.desc->slot[LOG_S_OP];
    if (r >= 0)
        *root = (int32_t)log_event_arg(&ev, r);
    if (o >= 0)
        *op = (int32_t)log_event_arg(&ev, o);
}

static int classic(int fn)
{
    const struct log_func_desc *d = log_func_by_id(fn);
    return d ? d->classic : fn;
}

/* A hung run whose blocked ranks are in a collective that another member
 * of the communicator called differently at the same position, or will
 * never call (it finished, or is blocked in a collective on another
 * communicator): MPI matches collectives by their order on a
 * communicator (MPI 4.0 section 6.14), so the calls never match
 * (MPI_Barrier against MPI_Bcast, a blocking call against a nonblocking
 * one, a member that skipped one). One finding per communicator and
 * position; the completed instances are coll.operation's. */
static int run_blocked_mismatch(struct ev_check_ctx *c, char *err,
                                size_t errlen)
{
    struct hang h;
    int rc = 0;
    int32_t *done = NULL;
    size_t ndone = 0;
    if (hang_build(&h, c) < 0 ||
        !(done = malloc(2 * (size_t)h.n * sizeof *done))) {
        rc = -1;
        goto out;
    }
    for (int r = 0; r < h.n; r++) {
        if (!in_coll(&h, r, h.w[r].comm))
            continue;
        int32_t comm = h.w[r].comm, k = colls_on(h.ix, r, comm);
        size_t j = 0;
        while (j < ndone && !(done[2 * j] == comm && done[2 * j + 1] == k))
            j++;
        if (j < ndone)
            continue;
        done[2 * ndone] = comm;
        done[2 * ndone + 1] = k;
        ndone++;
        const struct ev_comm *cm = ev_comm_at(h.x, comm);
        struct ev_check_site sites[16];
        int ns = 0, fn0 = (int)h.w[r].slot.fn, differ = 0;
        int32_t root0 = LOG_CALL_NONE, op0 = LOG_CALL_NONE;
        int droot = 0, dop = 0; /* the same operation, another root, op */
        int inter = cm && cm->nb > 0; /* roots differ by group there */
        char who[EV_CHECK_MSG_LEN / 2] = "";
        size_t len = 0;
        for (int g = 0; g < 2 && cm; g++)
            for (int i = 0; i < (g ? cm->nb : cm->na); i++) {
                int32_t m = g ? cm->b[i] : cm->a[i];
                uint64_t ev;
                int fn;
                if (m < 0 || m >= h.n || !h.x->ranks[m].present)
                    continue;
                if (!(fn = kth_coll(&h, m, comm, k, &ev))) {
                    /* a member that will never call it: finished, or
                     * blocked in a collective on another communicator */
                    const struct wrank *o = &h.w[m];
                    const struct log_func_desc *od =
                        log_func_by_id((int)o->slot.fn);
                    char on[64];
                    int elsewhere = o->state == ST_BLOCKED &&
                                    o->comm != comm &&
                                    ev__fn(h.ix, (int)o->slot.fn)->coll ==
                                        EV__K_BLOCKING;
                    if (o->state != ST_DONE && !elsewhere)
                        continue;
                    differ = 1;
                    uint64_t last = h.x->ranks[m].log.nevents
                                        ? h.x->ranks[m].log.nevents - 1
                                        : EV_NONE;
                    if (ns < 16)
                        sites[ns++] = (struct ev_check_site){
                            m, elsewhere ? EV_NONE : last,
                            elsewhere ? "blocked here" : "finished"};
                    if (elsewhere)
                        len += (size_t)snprintf(
                            who + len, len < sizeof who ? sizeof who - len
                                                        : 0,
                            "%srank %d blocked in %s on %s instead",
                            len ? ", " : "", m, od ? od->name : "?",
                            ev__comm_name(o->comm, on, sizeof on));
                    else
                        len += (size_t)snprintf(
                            who + len, len < sizeof who ? sizeof who - len
                                                        : 0,
                            "%srank %d, which %s, never calls it",
                            len ? ", " : "", m,
                            strncmp(o->why, "it ", 3) ? o->why
                                                      : o->why + 3);
                    continue;
                }
                if (classic(fn) != classic(fn0))
                    differ = 1;
                /* The same operation with another root or op: MPI 4.0
                 * 6.4-6.9 (every member names the same root, the same
                 * op). */
                int32_t root, op;
                root_op(&h, m, ev, &root, &op);
                if (root0 == LOG_CALL_NONE && !inter)
                    root0 = root;
                if (op0 == LOG_CALL_NONE)
                    op0 = op;
                if (classic(fn) == classic(fn0) && !inter &&
                    root != LOG_CALL_NONE && root != root0)
                    differ = droot = 1;
                if (classic(fn) == classic(fn0) && op != LOG_CALL_NONE &&
                    op != op0)
                    differ = dop = 1;
                if (ns < 16) {
                    sites[ns++] = (struct ev_check_site){
                        m, ev, ev == EV_NONE ? "blocked here" : "called"};
                    const struct log_func_desc *d = log_func_by_id(fn);
                    char ro[96] = "";
                    int rl = 0;
                    const char *opn = op == LOG_CALL_NONE
                                          ? NULL
                                          : log_mpi_handle_name(
                                                "MPI_Op", (uint32_t)op);
                    if (root != LOG_CALL_NONE)
                        rl += snprintf(ro + rl, sizeof ro - (size_t)rl,
                                       " (root %d", (int)root);
                    if (op != LOG_CALL_NONE && opn)
                        rl += snprintf(ro + rl, sizeof ro - (size_t)rl,
                                       "%s%s", rl ? ", " : " (", opn);
                    else if (op != LOG_CALL_NONE)
                        rl += snprintf(ro + rl, sizeof ro - (size_t)rl,
                                       "%sop 0x%08x", rl ? ", " : " (",
                                       (unsigned)op);
                    if (rl)
                        snprintf(ro + rl, sizeof ro - (size_t)rl, ")");
                    len += (size_t)snprintf(who + len, len < sizeof who
                                            ? sizeof who - len : 0,
                                            "%srank %d %s %s%s",
                                            len ? ", " : "", m,
                                            ev == EV_NONE ? "blocked in"
                                                          : "called",
                                            d ? d->name : "?", ro);
                }
            }
        if (!differ)
            continue;
        char cn[64];
        struct ev_check_finding f = {"coll.blocked-mismatch", EV_CHECK_ERROR,
                                     "", sites, ns};
        snprintf(f.message, sizeof f.message,
                 "collective #%d on %s never matches: %s; %s",
                 (int)k + 1, ev__comm_name(comm, cn, sizeof cn),
                 len < sizeof who ? who : "(members)",
                 droot ? "its members name different roots (MPI 4.0 "
                         "chapter 6: every member of a rooted collective "
                         "names the same root), so they wait for each "
                         "other forever"
                 : dop ? "its members name different ops (MPI 4.0 6.9.1: "
                         "every member names the same op), so they wait "
                         "for each other forever"
                       : "MPI matches a communicator's collectives by their "
                         "order, so the members wait for each other "
                         "forever");
        c->emit(c->ud, &f);
    }
out:
    if (rc < 0)
        snprintf(err, errlen, "out of memory");
    hang_release(&h);
    free(done);
    return rc;
}

const struct ev_check_def ev_check_deadlock_defs[] = {
    {"deadlock.cycle", EV_CHECK_ERROR,
     "a hung run: ranks blocked in MPI calls that wait for each other",
     run_cycle},
    {"deadlock.wait", EV_CHECK_ERROR,
     "a hung run: every blocked rank waits for a rank that finished or is "
     "in no MPI call",
     run_wait},
    /* a collectives' check, over the hung run's blocked calls */
    {"coll.blocked-mismatch", EV_CHECK_ERROR,
     "a hung run: members blocked in collectives that never match "
     "(different operations at the same position on a communicator, or a "
     "member that will never call it)",
     run_blocked_mismatch},
    {"deadlock.unsafe-send", EV_CHECK_PORTABILITY,
     "a cycle of blocking standard sends that completed only because MPI "
     "buffered them",
     ev__check_unsafe_send},
    {NULL, 0, NULL, NULL},
};
