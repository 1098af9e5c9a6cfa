/*
 * ev-check-rma.c - the rma.* checks (ev-check.h; docs/check.md, "One-sided
 * communication"): each rank's windows followed through their epochs, from
 * the synchronizations the function table names (log/mpi-functions.spec:
 * rma-fence, rma-lock, ..., rma-wait), the one-sided operations (the 'rma'
 * calls with a target_rank) and the windows' creations and frees.
 *
 *   rma.epoch     an operation outside any access epoch on its target; an
 *                 unlock, complete or wait with no epoch to end; a lock of
 *                 a target already locked, or access epochs that overlap
 *                 (MPI 4.0 12.5: "distinct access epochs for win at the
 *                 same process must be disjoint"); a window freed with an
 *                 epoch open (12.2.5);
 *   rma.range     an operation beyond the target's window: target_disp x
 *                 the target's disp_unit + the bytes of target_count x a
 *                 builtin target_datatype past the size the target gave
 *                 (12.3: "the target buffer ... must fit in the target
 *                 window");
 *   rma.conflict  two operations of one fence epoch on overlapping bytes of
 *                 one target, one of them a put, or accumulates with
 *                 different ops (12.7, "Semantics and correctness").
 *
 * A window is matched across ranks as the k-th created on its
 * communicator (creations are collective); a fence epoch as the k-th
 * fence on it (fences are collective too). Dynamic windows have no size:
 * not in rma.range nor rma.conflict; nor operations with a derived
 * datatype at the target (their extent is not in the log).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ev-check.h"
#include "ev-int.h"
#include "log-abi.h"

/* A window of one rank, from its creation to its free. */
struct win {
    uint32_t handle;
    int32_t comm;     /* global id, -1 unknown */
    int k;            /* the k-th window created on comm at this rank */
    int64_t size;     /* -1: dynamic (no size) */
    int64_t disp;
    uint64_t made, freed; /* events (freed EV_NONE: never) */
};

/* One operation, for rma.range and rma.conflict. */
struct op {
    int rank;
    uint64_t event;
    int w;           /* its window (index into the rank's windows) */
    int target;      /* rank in the window's group */
    int64_t disp, bytes; /* bytes -1: not known */
    int epoch;       /* fence epoch number, -1: not in a fence epoch */
    int put;         /* writes the target: put 1, accumulate 2, get 0 */
    uint32_t op;     /* an accumulate's op */
};

struct rank_wins {
    struct win *v;
    size_t n, cap;
};

struct rma {
    struct ev_check_ctx *c;
    /* explain mode (ev__rma_explain): the fault of this event goes here
     * instead of being reported */
    uint64_t explain_event;
    char *explain;
    size_t explain_len;
    struct rank_wins *w; /* per world rank */
    struct op *ops;
    size_t nops, capops;
    int oom;
};

/* The window handle a call made at an event names (by value), or 0. */
static uint32_t win_arg(const struct log_event *ev)
{
    return (uint32_t)ev__arg_named(ev, "win", 0);
}

/* The output window of a creation (an `out MPI_Win *`), else -1. */
static int win_out(const struct log_func_desc *d)
{
    for (int i = 0; i < d->nargs; i++)
        if (d->args[i].dir == LOG_DIR_OUT &&
            !strcmp(d->args[i].ctype, "MPI_Win *"))
            return i;
    return -1;
}

/* Rank R's live window of handle H at its event N: an index, or -1. */
static int find_win(const struct rank_wins *rw, uint32_t h, uint64_t n)
{
    for (size_t i = rw->n; i-- > 0;)
        if (rw->v[i].handle == h && rw->v[i].made < n &&
            (rw->v[i].freed == EV_NONE || rw->v[i].freed >= n))
            return (int)i;
    return -1;
}

static void report(struct rma *m, const char *check, int r, uint64_t e,
                   const char *role, uint64_t e2, const char *role2,
                   int r2, const char *fmt, ...)
    __attribute__((format(printf, 9, 10)));
static void report(struct rma *m, const char *check, int r, uint64_t e,
                   const char *role, uint64_t e2, const char *role2,
                   int r2, const char *fmt, ...)
{
    struct ev_check_site s[2] = {{r, e, role}, {r2, e2, role2}};
    struct ev_check_finding f = {check, EV_CHECK_ERROR, "", s,
                                 role2 ? 2 : 1};
    va_list ap;
    va_start(ap, fmt);
    if (m->explain) {
        if (e == m->explain_event && !m->explain[0])
            vsnprintf(m->explain, m->explain_len, fmt, ap);
        va_end(ap);
        return;
    }
    vsnprintf(f.message, sizeof f.message, fmt, ap);
    va_end(ap);
    m->c->emit(m->c->ud, &f);
}

/* ---- one rank's epochs (rma.epoch), its windows and operations ----------- */

/* What is open on one window at one rank. */
struct epochs {
    int fence;      /* a fence opened an epoch (no MPI_MODE_NOSUCCEED) */
    int nfence;     /* fences so far: the epoch number */
    int lock_all;
    uint64_t start, post; /* the MPI_Win_start / post open (EV_NONE) */
    int *locked;    /* targets this rank holds a lock on */
    uint64_t *locked_at;
    size_t nlocked, caplocked;
};

static int locked(const struct epochs *p, int t)
{
    for (size_t i = 0; i < p->nlocked; i++)
        if (p->locked[i] == t)
            return (int)i;
    return -1;
}

static const char *wname(const struct win *w, char *buf, size_t len)
{
    snprintf(buf, len, "window 0x%08" PRIx32, w->handle);
    return buf;
}

/* Rank R's events in order: its windows, epochs and operations. EMIT:
 * report rma.epoch's findings (0 on the pass that only collects). */
static int walk_rank(struct rma *m, int r, int emit)
{
    struct ev_run *x = m->c->x;
    struct rank_wins *rw = &m->w[r];
    struct epochs *ep = NULL;
    size_t capep = 0;
    char e[256], wn[48];
    uint64_t n = x->ranks[r].log.nevents;
    int rc = 0;
    for (uint64_t i = 0; i < n && rc == 0; i++) {
        struct log_event ev;
        const struct log_func_desc *hd = log_func_by_id(ev_fn(x, r, i));
        if (!hd || hd->kind != LOG_K_RMA) /* the header alone */
            continue;
        if (ev_event(x, r, i, &ev, e, sizeof e) < 0)
            break;
        const struct log_func_desc *d = ev.desc;
        /* the call a rank died in only to explain it (err.fatal's) */
        int died = m->explain && i == m->explain_event &&
                   (ev.flags & LOG_REC_DIED);
        if (!d || d->kind != LOG_K_RMA || ev.cb_entry ||
            (!died && ((ev.flags & (LOG_REC_TRUNC | LOG_REC_REPEAT)) ||
                       ev.ret != 0)))
            continue;
        int out = win_out(d);
        if (out >= 0) { /* a creation */
            if (emit)
                continue;
            if (util_grow(&rw->v, &rw->cap, rw->n + 1, sizeof *rw->v) < 0)
                return -1;
            struct win *w = &rw->v[rw->n];
            int side = 0, sc = d->slot[LOG_S_COMM];
            w->handle = ev__out_handle(&ev, out);
            w->comm = sc >= 0 ? ev_comm_of(x, r, i, (uint32_t)
                                           log_event_arg(&ev, sc), &side)
                              : -1;
            w->k = 0;
            for (size_t j = 0; j < rw->n; j++)
                if (rw->v[j].comm == w->comm)
                    w->k++;
            w->size = ev__arg_named(&ev, "size", -1);
            w->disp = ev__arg_named(&ev, "disp_unit", 1);
            w->made = i;
            w->freed = EV_NONE;
            rw->n++;
            continue;
        }
        uint32_t h = win_arg(&ev);
        struct log_field fl;
        if ((d->roles & LOG_R_FREE) &&
            (!log_event_find(&ev, LOG_ARG_NONE, LOG_F_REQUEST, &fl) ||
             log_field_handle(&fl, &h) < 0))
            h = 0; /* MPI_Win_free logs the handle it freed */
        int wi = h ? find_win(rw, h, i) : -1;
        if (wi < 0)
            continue;
        if ((size_t)wi >= capep) {
            size_t c = capep ? capep : 4;
            while (c <= (size_t)wi)
                c *= 2;
            struct epochs *p = realloc(ep, c * sizeof *p);
            if (!p)
                return -1;
            memset(p + capep, 0, (c - capep) * sizeof *p);
            for (size_t j = capep; j < c; j++)
                p[j].start = p[j].post = EV_NONE;
            ep = p;
            capep = c;
        }
        struct epochs *p = &ep[wi];
        struct win *w = &rw->v[wi];
        wname(w, wn, sizeof wn);
        unsigned ro = d->roles;
        int t = (int)ev__arg_named(&ev, "rank", -1);
        if (d->roles & LOG_R_FREE) {
            if (!emit)
                w->freed = i;
            if (emit && (p->nlocked || p->lock_all || p->start != EV_NONE ||
                         p->post != EV_NONE))
                report(m, "rma.epoch", r, i, "freed here",
                       p->nlocked ? p->locked_at[0]
                       : p->start != EV_NONE ? p->start
                                             : p->post,
                       "opened here", r, "%s frees %s while %s is open "
                       "(MPI 4.0 12.2.5: the epochs on a window end before "
                       "it is freed)", d->name, wn,
                       p->nlocked ? "a lock's epoch" : p->lock_all
                       ? "MPI_Win_lock_all's epoch" : p->start != EV_NONE
                       ? "MPI_Win_start's access epoch"
                       : "MPI_Win_post's exposure epoch");
        } else if (ro & LOG_R_RMA_FENCE) {
            if (emit && (p->nlocked || p->lock_all))
                report(m, "rma.epoch", r, i, "fence here",
                       p->nlocked ? p->locked_at[0] : EV_NONE,
                       p->nlocked ? "locked here" : NULL, r,
                       "MPI_Win_fence on %s while a passive target epoch "
                       "(a lock) is open: access epochs on a window must "
                       "be disjoint (MPI 4.0 12.5)", wn);
            p->fence = !(ev__arg_named(&ev, "assert", 0) &
                         DRDB_MPI_MODE_NOSUCCEED);
            p->nfence++;
        } else if (ro & LOG_R_RMA_LOCK) {
            if (emit && (locked(p, t) >= 0 || p->lock_all))
                report(m, "rma.epoch", r, i, "locked again",
                       locked(p, t) >= 0 ? p->locked_at[locked(p, t)]
                                         : EV_NONE,
                       locked(p, t) >= 0 ? "locked here" : NULL, r,
                       "MPI_Win_lock of rank %d on %s, which this rank %s "
                       "(MPI 4.0 12.5: distinct access epochs at a process "
                       "are disjoint)", t, wn, p->lock_all
                       ? "holds in MPI_Win_lock_all's epoch"
                       : "has locked already");
            if (util_grow(&p->locked, &p->caplocked, p->nlocked + 1,
                          sizeof *p->locked) < 0 ||
                !(p->locked_at = realloc(p->locked_at, p->caplocked *
                                         sizeof *p->locked_at))) {
                rc = -1;
                break;
            }
            p->locked[p->nlocked] = t;
            p->locked_at[p->nlocked++] = i;
        } else if (ro & LOG_R_RMA_UNLOCK) {
            int k = locked(p, t);
            if (k < 0) {
                if (emit)
                    report(m, "rma.epoch", r, i, "unlocked here", EV_NONE,
                           NULL, r, "MPI_Win_unlock of rank %d on %s, "
                           "which this rank has not locked (MPI 4.0 12.5.3)",
                           t, wn);
            } else {
                p->locked[k] = p->locked[--p->nlocked];
                p->locked_at[k] = p->locked_at[p->nlocked];
            }
        } else if (ro & LOG_R_RMA_LOCK_ALL) {
            if (emit && (p->lock_all || p->nlocked))
                report(m, "rma.epoch", r, i, "locked again", EV_NONE, NULL,
                       r, "MPI_Win_lock_all on %s while this rank holds %s "
                       "(MPI 4.0 12.5: distinct access epochs at a process "
                       "are disjoint)", wn, p->lock_all
                       ? "MPI_Win_lock_all's epoch" : "a lock");
            p->lock_all = 1;
        } else if (ro & LOG_R_RMA_UNLOCK_ALL) {
            if (emit && !p->lock_all)
                report(m, "rma.epoch", r, i, "unlocked here", EV_NONE, NULL,
                       r, "MPI_Win_unlock_all on %s without "
                       "MPI_Win_lock_all (MPI 4.0 12.5.3)", wn);
            p->lock_all = 0;
        } else if (ro & LOG_R_RMA_START) {
            if (emit && (p->start != EV_NONE || p->lock_all || p->nlocked))
                report(m, "rma.epoch", r, i, "started here", p->start,
                       p->start != EV_NONE ? "started here" : NULL, r,
                       "MPI_Win_start on %s while %s is open (MPI 4.0 "
                       "12.5: distinct access epochs at a process are "
                       "disjoint)", wn, p->start != EV_NONE
                       ? "another MPI_Win_start's epoch" : "a lock's epoch");
            p->start = i;
        } else if (ro & LOG_R_RMA_COMPLETE) {
            if (emit && p->start == EV_NONE)
                report(m, "rma.epoch", r, i, "completed here", EV_NONE,
                       NULL, r, "MPI_Win_complete on %s without "
                       "MPI_Win_start (MPI 4.0 12.5.2)", wn);
            p->start = EV_NONE;
        } else if (ro & LOG_R_RMA_POST) {
            p->post = i;
        } else if (ro & LOG_R_RMA_WAIT) {
            int done = !(ro & LOG_R_POLL) || ev__arg_named(&ev, "flag", 1);
            if (emit && p->post == EV_NONE)
                report(m, "rma.epoch", r, i, "waited here", EV_NONE, NULL,
                       r, "%s on %s without MPI_Win_post (MPI 4.0 12.5.2)",
                       d->name, wn);
            if (done)
                p->post = EV_NONE;
        } else if (ev__arg_index(d, "target_rank") >= 0) {
            int tr = (int)ev__arg_named(&ev, "target_rank", -1);
            if (tr == DRDB_MPI_PROC_NULL)
                continue;
            int open = p->fence || p->lock_all || p->start != EV_NONE ||
                       locked(p, tr) >= 0;
            if (emit && !open)
                report(m, "rma.epoch", r, i, "called here", EV_NONE, NULL,
                       r, "%s to rank %d on %s outside any access epoch: no "
                       "MPI_Win_fence, MPI_Win_lock of rank %d, "
                       "MPI_Win_lock_all or MPI_Win_start is open (MPI 4.0 "
                       "12.5)", d->name, tr, wn, tr);
            if (emit)
                continue;
            /* its bytes at the target, for rma.range and rma.conflict */
            uint32_t tt = (uint32_t)ev__arg_named(
                &ev, "target_datatype", ev__arg_named(&ev, "datatype", 0));
            int64_t tc = ev__arg_named(&ev, "target_count", 1);
            int64_t sz = log_mpi_type_size(tt);
            /* what it does to the target's bytes: an accumulate (an op,
             * or MPI_Compare_and_swap: atomic) 2, a put 1 (its origin is
             * read), a get 0 (its origin is written) */
            int so = d->slot[LOG_S_OP], oa = ev__arg_index(d, "origin_addr");
            int kind = so >= 0 || ev__arg_index(d, "compare_addr") >= 0 ? 2
                       : oa >= 0 && d->args[oa].dir == LOG_DIR_IN ? 1
                                                                  : 0;
            struct op o = {
                .rank = r, .event = i, .w = wi, .target = tr,
                .disp = ev__arg_named(&ev, "target_disp", 0),
                .bytes = sz > 0 ? tc * sz : -1,
                /* only fence epochs are matched across ranks */
                .epoch = p->fence && p->start == EV_NONE && !p->lock_all &&
                                 !p->nlocked ? p->nfence : -1,
                .put = kind,
                .op = so >= 0 ? (uint32_t)log_event_arg(&ev, so) : 1};
            if (util_grow(&m->ops, &m->capops, m->nops + 1,
                          sizeof *m->ops) < 0) {
                rc = -1;
                break;
            }
            m->ops[m->nops++] = o;
        }
    }
    for (size_t j = 0; j < capep; j++) {
        free(ep[j].locked);
        free(ep[j].locked_at);
    }
    free(ep);
    return rc;
}

/* ---- rma.range, rma.conflict: the operations against the targets -------- */

/* The target's window of operation O: the world rank and its window, or
 * NULL (not logged, dynamic, not matched). */
static const struct win *target_win(struct rma *m, const struct op *o,
                                    int *tr)
{
    struct ev_run *x = m->c->x;
    const struct win *w = &m->w[o->rank].v[o->w];
    const struct ev_comm *cm = w->comm >= 0 ? ev_comm_at(x, w->comm) : NULL;
    if (!cm || cm->inter || o->target < 0 || o->target >= cm->na)
        return NULL;
    int t = cm->a[o->target];
    *tr = t;
    if (t < 0 || t >= x->world_size)
        return NULL;
    const struct rank_wins *tw = &m->w[t];
    for (size_t i = 0; i < tw->n; i++)
        if (tw->v[i].comm == w->comm && tw->v[i].k == w->k)
            return tw->v[i].size >= 0 ? &tw->v[i] : NULL;
    return NULL;
}

static void check_range(struct rma *m)
{
    for (size_t i = 0; i < m->nops; i++) {
        const struct op *o = &m->ops[i];
        int t;
        const struct win *tw = o->bytes >= 0 ? target_win(m, o, &t) : NULL;
        if (!tw)
            continue;
        int64_t lo = o->disp * tw->disp, hi = lo + o->bytes;
        if (o->disp >= 0 && hi <= tw->size)
            continue;
        struct log_event ev;
        if (ev_event(m->c->x, o->rank, o->event, &ev, NULL, 0) < 0)
            continue;
        report(m, "rma.range", o->rank, o->event, "called here", tw->made,
               "window created here", t, "%s to rank %d writes or reads "
               "bytes [%" PRId64 ", %" PRId64 ") of its window, which has "
               "%" PRId64 " (target_disp %" PRId64 " x disp_unit %" PRId64
               "): the target buffer must lie inside the target window "
               "(MPI 4.0 12.3)", ev.desc->name, o->target, lo, hi, tw->size,
               o->disp, tw->disp);
    }
}

/* An operation at its target: the world rank, the window, the bytes. */
struct key {
    int t;
    const struct win *tw;
    struct op o;
    int64_t lo, hi;
};

/* By target window, epoch, first byte, then origin and event. */
static int by_bytes(const void *a, const void *b)
{
    const struct key *x = a, *y = b;
    if (x->tw != y->tw)
        return (uintptr_t)x->tw < (uintptr_t)y->tw ? -1 : 1;
    if (x->o.epoch != y->o.epoch)
        return x->o.epoch < y->o.epoch ? -1 : 1;
    if (x->lo != y->lo)
        return x->lo < y->lo ? -1 : 1;
    if (x->o.rank != y->o.rank)
        return x->o.rank < y->o.rank ? -1 : 1;
    return (x->o.event > y->o.event) - (x->o.event < y->o.event);
}

/* Two operations of one fence epoch on overlapping target bytes, one of
 * them a put (or a get and an accumulate), or accumulates with different
 * ops: one finding per pair of call sites. */
static void check_conflict(struct rma *m)
{
    /* the fence-epoch operations with a known extent, each with its
     * target's world rank and window, sorted by epoch and displacement
     * per (target, window) */
    struct key *v = malloc((m->nops ? m->nops : 1) * sizeof *v);
    size_t n = 0;
    if (!v) {
        m->oom = 1;
        return;
    }
    for (size_t i = 0; i < m->nops; i++) {
        const struct op *o = &m->ops[i];
        int t;
        const struct win *tw;
        if (o->epoch < 0 || o->bytes <= 0 || !(tw = target_win(m, o, &t)))
            continue;
        v[n] = (struct key){t, tw, *o, o->disp * tw->disp,
                            o->disp * tw->disp + o->bytes};
        n++;
    }
    qsort(v, n, sizeof *v, by_bytes);
    size_t reported = 0;
    for (size_t i = 0; i < n && reported < 64; i++)
        for (size_t j = i + 1; j < n && reported < 64; j++) {
            const struct key *a = &v[i], *b = &v[j];
            if (a->tw != b->tw || a->o.epoch != b->o.epoch ||
                b->lo >= a->hi)
                break; /* sorted: none further overlaps a */
            int pa = a->o.put, pb = b->o.put;
            int clash = (pa == 1 || pb == 1) ? 1
                        : (pa == 2 && pb == 2) ? a->o.op != b->o.op
                                                : pa != pb; /* get + acc */
            if (!clash)
                continue;
            struct log_event ea, eb;
            if (ev_event(m->c->x, a->o.rank, a->o.event, &ea, NULL, 0) < 0 ||
                ev_event(m->c->x, b->o.rank, b->o.event, &eb, NULL, 0) < 0)
                continue;
            report(m, "rma.conflict", a->o.rank, a->o.event, "accesses",
                   b->o.event, "accesses", b->o.rank, "%s from rank %d and "
                   "%s from rank %d access bytes [%" PRId64 ", %" PRId64
                   ") of rank %d's window in the same fence epoch (#%d), "
                   "%s: conflicting accesses are erroneous (MPI 4.0 12.7)",
                   ea.desc->name, a->o.rank, eb.desc->name, b->o.rank,
                   a->lo > b->lo ? a->lo : b->lo, a->hi < b->hi ? a->hi
                                                                 : b->hi,
                   a->t, a->o.epoch, pa == 2 && pb == 2
                   ? "accumulates with different ops"
                   : pa == 1 || pb == 1 ? "one of them a put"
                                        : "a get and an accumulate");
            reported++;
        }
    free(v);
}

/* ---- the checks ----------------------------------------------------------- */


static int collect(struct rma *m, struct ev_check_ctx *c)
{
    memset(m, 0, sizeof *m);
    m->c = c;
    m->w = calloc((size_t)c->x->world_size, sizeof *m->w);
    if (!m->w)
        return -1;
    for (int i = 0; i < c->x->nlogged; i++) {
        int r = c->x->logged[i];
        if (c->x->ranks[r].present && walk_rank(m, r, 0) < 0)
            return -1;
    }
    return 0;
}

static void release(struct rma *m)
{
    for (int r = 0; m->w && r < m->c->x->world_size; r++)
        free(m->w[r].v);
    free(m->w);
    free(m->ops);
}

int ev__rma_explain(struct ev_check_ctx *c, int r, uint64_t n, char *buf,
                    size_t len)
{
    struct rma m;
    buf[0] = 0;
    int rc = collect(&m, c);
    if (rc == 0) {
        m.explain = buf;
        m.explain_len = len;
        m.explain_event = n;
        rc = walk_rank(&m, r, 1);
    }
    release(&m);
    return rc < 0 ? -1 : buf[0] != 0;
}

static int run(struct ev_check_ctx *c, char *err, size_t errlen, int which)
{
    struct rma m;
    int rc = collect(&m, c);
    for (int i = 0; rc == 0 && which == 0 && i < c->x->nlogged; i++) {
        int r = c->x->logged[i];
        if (c->x->ranks[r].present)
            rc = walk_rank(&m, r, 1);
    }
    if (rc == 0 && which == 1)
        check_range(&m);
    if (rc == 0 && which == 2)
        check_conflict(&m);
    if (m.oom)
        rc = -1;
    release(&m);
    if (rc < 0)
        snprintf(err, errlen, "out of memory");
    return rc;
}

static int run_epoch(struct ev_check_ctx *c, char *err, size_t errlen)
{
    return run(c, err, errlen, 0);
}

static int run_range(struct ev_check_ctx *c, char *err, size_t errlen)
{
    return run(c, err, errlen, 1);
}

static int run_conflict(struct ev_check_ctx *c, char *err, size_t errlen)
{
    return run(c, err, errlen, 2);
}

const struct ev_check_def ev_check_rma_defs[] = {
    {"rma.epoch", EV_CHECK_ERROR,
     "a one-sided operation outside an access epoch, an epoch ended that "
     "was not open, epochs that overlap, a window freed with one open",
     run_epoch},
    {"rma.range", EV_CHECK_ERROR,
     "a one-sided operation beyond the target's window", run_range},
    {"rma.conflict", EV_CHECK_ERROR,
     "conflicting one-sided accesses to the same bytes in one fence epoch",
     run_conflict},
    {NULL, 0, NULL, NULL},
};
