/*
 * ev-check-buf.c - the buf.* checks (ev-check.h): memory that pending
 * nonblocking operations share.
 *
 * buf.overlap: two operations of one rank pending at the same time (each
 * from its call, or its persistent request's MPI_Start, to the call that
 * completed it) on overlapping memory, one of which MPI writes (a
 * receive, a collective's receive buffer): erroneous (MPI 4.0, 3.7.2:
 * "the buffer ... should not be accessed" while a receive is pending; a
 * send buffer may be shared by pending sends since MPI 3.0, so two reads
 * are not reported). A pending MPI_Isend's buffer written by another
 * nonblocking receive is one such pair; so is a blocking call made while
 * an operation is pending that writes its memory (a pending MPI_Isend's
 * buffer received into by MPI_Recv, a collective, MPI_Sendrecv_replace)
 * or reads a pending receive's (MPI_Send from an MPI_Irecv's buffer): the
 * blocking call is pending for its own event only. File and one-sided
 * operations that return a request (MPI_File_iread_at, MPI_Rget, ...:
 * struct ev__op) are pending from their call to its completion. A
 * message whose request MPI_Request_free freed while active is pending
 * until its rank could know that it completed: its first event in the
 * causal future of its match's completion (freed_ends).
 *
 * The memory is what the recorder logged at the call that started the
 * operation (log-format.h, LOG_REC_SITE: the address, and the bytes
 * count x datatype spans), and at a blocking call while its rank had a
 * request pending (LOG_REC_BUFS, format 6); calls of an
 * older log, or whose span the recorder could not tell (v- and
 * w-collectives), are left out and said so.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ev-check.h"
#include "ev-int.h"
#include "ev-typemap.h"
#include "log-abi.h"
#include "util.h"

/* One pending operation's memory at one rank. */
struct op {
    uint64_t start, end; /* pending in [start, end) (end EV_NONE: never
                          * completed) */
    uint64_t lo, hi;     /* the bytes MPI may touch */
    uint64_t event;      /* its call (a persistent one's MPI_Start) */
    int writes;          /* MPI writes there */
    int reads;           /* MPI reads there too (MPI_Sendrecv_replace) */
    int fn;
    int blocking;        /* a blocking call: pending in [event, event + 1) */
    uint32_t site_obj;   /* its call site (0, 0: not logged) */
    /* A derived datatype's buffer: 1 + its index in the run's table of
     * them (struct dtab), 0 for any other (in the padding before
     * site_off: struct op stays 72 bytes). */
    uint32_t dx;
    uint64_t site_off;
};
_Static_assert(sizeof(struct op) == 72, "struct op: 72 bytes");

/* A buffer of a derived datatype: the bytes it touches are its type
 * map's, COUNT times from ADDR, not all of [lo, hi); BEV: the record
 * that logged it. One table for the run: the operations only hold an
 * index (most have none), which keeps struct op at 72 bytes. */
struct derived {
    uint32_t type;
    int64_t count;
    uint64_t addr, bev;
};
struct dtab {
    struct derived *v;
    size_t n, cap;
    /* per function id and buffer: the indices of the by-value datatype and
     * count arguments its length annotation names (ev__data_args), worked
     * out once: 0 not yet, else 2 + index (1: none) */
    int16_t (*args)[LOG_SITE_BUFS][2];
    size_t nargs;
};

/* The datatype and count of buffer I (argument ARG) of EV: 1 with them,
 * 0 when its annotation names no such pair. */
static int type_count(struct dtab *d, const struct log_event *ev, int i,
                      unsigned arg, uint32_t *type, int64_t *count)
{
    int id = ev->desc->id;
    if ((size_t)id >= d->nargs) {
        size_t n = (size_t)id + 64;
        void *p = realloc(d->args, n * sizeof *d->args);
        if (!p)
            return 0;
        d->args = p;
        memset(d->args + d->nargs, 0, (n - d->nargs) * sizeof *d->args);
        d->nargs = n;
    }
    int16_t *a = d->args[id][i];
    if (!a[0]) {
        int t, c;
        ev__data_args(ev->desc, arg, &t, &c);
        a[0] = (int16_t)(t + 2);
        a[1] = (int16_t)(c + 2);
    }
    if (a[0] < 2 || a[1] < 2)
        return 0;
    *type = (uint32_t)log_event_arg(ev, a[0] - 2);
    *count = log_event_arg(ev, a[1] - 2);
    return 1;
}

struct ops {
    struct op *v;
    size_t n, cap;
    size_t unknown;  /* operations without a logged span */
    struct dtab *d;  /* the run's */
};

static int add(struct ops *o, const struct op *p)
{
    if (o->n == o->cap) {
        size_t cap = o->cap ? 2 * o->cap : 64;
        struct op *v = realloc(o->v, cap * sizeof *v);
        if (!v)
            return -1;
        o->v = v;
        o->cap = cap;
    }
    o->v[o->n++] = *p;
    return 0;
}

/*
 * The buffers rank R logged at event BEV (its own call, or a persistent
 * request's _init) as operations pending in [START, END): the one MPI
 * reads for a send (SIDE 1), writes for a receive (SIDE 2), every one of
 * a collective (SIDE 0). MPI_IN_PLACE and empty buffers are no memory.
 * BLOCKING: a blocking call, whose one buffer (MPI_Sendrecv_replace's) is
 * taken once, by its receive.
 */
static int add_bufs(struct ev_run *x, int r, uint64_t bev, uint64_t start,
                    uint64_t end, int side, int blocking, struct ops *o)
{
    struct log_event ev;
    if (ev_event(x, r, bev, &ev, NULL, 0) < 0 || !ev.desc)
        return 0;
    int found = 0;
    for (int i = 0; i < ev.desc->nbufs; i++) {
        struct log_bufaddr b;
        if (log_event_bufaddr(&ev, i, &b) != 1)
            break;
        int dir = ev.desc->args[b.arg].dir;
        int writes = dir != LOG_DIR_IN;
        found = 1;
        /* MPI_Isendrecv_replace: one buffer, read and written. */
        if (side && (ev.desc->nbufs > 1 || blocking) &&
            writes != (side == 2))
            continue;
        if (!b.known) {
            o->unknown++;
            continue;
        }
        if (b.addr == UINT64_MAX || b.span == 0)
            continue;
        uint32_t type = 0, dx = 0;
        int64_t count = 0;
        if (type_count(o->d, &ev, i, (unsigned)b.arg, &type, &count) &&
            type && !log_mpi_type_size(type)) {
            struct dtab *d = o->d;
            if (util_grow(&d->v, &d->cap, d->n + 1, sizeof *d->v) < 0)
                return -1;
            d->v[d->n++] = (struct derived){type, count, b.addr, bev};
            dx = (uint32_t)d->n;
        }
        struct op p = {start, end == EV_NONE ? UINT64_MAX : end,
                       b.addr + (uint64_t)b.lb,
                       b.addr + (uint64_t)b.lb + b.span, start, writes,
                       /* MPI_(I)Sendrecv_replace: sent from, too */
                       dir == LOG_DIR_INOUT || (ev.desc->kind ==
                                                LOG_K_SENDRECV &&
                                                ev.desc->nbufs == 1),
                       ev.fn, blocking, ev.site_obj,
                       dx, ev.site_off};
        if (add(o, &p) < 0)
            return -1;
    }
    if (!found && ev.desc->nbufs)
        o->unknown++;
    return 0;
}

static int by_start(const void *a, const void *b)
{
    const struct op *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start;
}

/* The pairs found, one per pair of call sites (and functions): a loop
 * that posts 128 receives into one buffer, or a line run 1,000 times, is
 * one finding with its count, not thousands. */
struct pair {
    int r;
    struct op a, b; /* the first pair */
    uint64_t count;
    uint64_t shared; /* the first pair's bytes in common */
};
struct pairs {
    struct pair *v;
    size_t n, cap;
    int oom;
    struct ev_run *x;
    const struct dtab *d;
    struct ev__ctors *ctors; /* per rank, read when first needed */
    unsigned char *scanned;
};

/* A range of bytes. */
struct rng {
    uint64_t lo, hi;
};

static int by_lo(const void *a, const void *b)
{
    const struct rng *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* The bytes operation O of rank R touches, into *V (N ranges, sorted;
 * *V to free): [lo, hi), or a derived datatype's type map count times
 * from its address (MPI 4.0 5.1: a strided column's elements, not the
 * gaps between them). The extent is the one the logged span implies. */
#define MAX_RANGES (1u << 20)
static int op_ranges(struct pairs *ps, int r, const struct op *o,
                     struct rng **v, size_t *n)
{
    *n = 0;
    *v = NULL;
    struct ev__tmap m = {0};
    const struct derived *dv = o->dx ? &ps->d->v[o->dx - 1] : NULL;
    if (dv && !ps->scanned[r]) {
        ps->scanned[r] = 1;
        if (ev__ctors_scan(ps->x, r, &ps->ctors[r]) < 0)
            return -1;
    }
    if (dv)
        ev__tmap_build(ps->x, &ps->ctors[r], r, dv->bev, dv->type, &m);
    int64_t count = dv ? dv->count : 0;
    uint64_t per = m.n, total = (uint64_t)count * per;
    if (!dv || m.bad || !per || count <= 0 || total > MAX_RANGES) {
        ev__tmap_release(&m);
        if (!(*v = malloc(sizeof **v)))
            return -1;
        (*v)[0] = (struct rng){o->lo, o->hi};
        *n = 1;
        return 0;
    }
    int64_t ext = m.ub - m.lb, tspan = m.tub - m.tlb;
    uint64_t span = o->hi - o->lo;
    if (count > 1 && span > (uint64_t)tspan &&
        (span - (uint64_t)tspan) % (uint64_t)(count - 1) == 0)
        ext = (int64_t)((span - (uint64_t)tspan) / (uint64_t)(count - 1));
    if (!(*v = malloc(total * sizeof **v))) {
        ev__tmap_release(&m);
        return -1;
    }
    for (int64_t k = 0; k < count; k++)
        for (size_t i = 0; i < m.n; i++) {
            uint64_t lo = dv->addr + (uint64_t)(k * ext + m.e[i].disp);
            (*v)[(*n)++] = (struct rng){lo, lo + (uint64_t)m.e[i].size};
        }
    ev__tmap_release(&m);
    qsort(*v, *n, sizeof **v, by_lo);
    size_t w = 0; /* merged */
    for (size_t i = 1; i < *n; i++)
        if ((*v)[i].lo <= (*v)[w].hi) {
            if ((*v)[i].hi > (*v)[w].hi)
                (*v)[w].hi = (*v)[i].hi;
        } else
            (*v)[++w] = (*v)[i];
    *n = w + 1;
    return 0;
}

/* The bytes A and B both touch (their spans overlap); -1 out of memory. */
static int64_t shared_bytes(struct pairs *ps, int r, const struct op *a,
                            const struct op *b)
{
    uint64_t lo = a->lo > b->lo ? a->lo : b->lo;
    uint64_t hi = a->hi < b->hi ? a->hi : b->hi;
    if (!a->dx && !b->dx)
        return (int64_t)(hi - lo);
    struct rng *x, *y;
    size_t nx, ny;
    if (op_ranges(ps, r, a, &x, &nx) < 0)
        return -1;
    if (op_ranges(ps, r, b, &y, &ny) < 0) {
        free(x);
        return -1;
    }
    uint64_t sum = 0;
    for (size_t i = 0, j = 0; i < nx && j < ny;) {
        uint64_t l = x[i].lo > y[j].lo ? x[i].lo : y[j].lo;
        uint64_t h = x[i].hi < y[j].hi ? x[i].hi : y[j].hi;
        if (l < h)
            sum += h - l;
        if (x[i].hi < y[j].hi)
            i++;
        else
            j++;
    }
    free(x);
    free(y);
    return (int64_t)sum;
}

static int same_site(const struct op *x, const struct op *y)
{
    return x->fn == y->fn && x->site_obj == y->site_obj &&
           x->site_off == y->site_off && x->writes == y->writes;
}

static void report(struct pairs *ps, int r, const struct op *a,
                   const struct op *b)
{
    int64_t shared = shared_bytes(ps, r, a, b);
    if (shared < 0)
        ps->oom = 1;
    if (shared <= 0) /* strided buffers that interleave */
        return;
    for (size_t i = ps->n; i-- > 0;)
        if (same_site(&ps->v[i].a, a) && same_site(&ps->v[i].b, b) &&
            ps->v[i].a.blocking == a->blocking &&
            ps->v[i].b.blocking == b->blocking) {
            ps->v[i].count++;
            return;
        }
    if (util_grow(&ps->v, &ps->cap, ps->n + 1, sizeof *ps->v) < 0) {
        ps->oom = 1;
        return;
    }
    ps->v[ps->n++] = (struct pair){r, *a, *b, 1, (uint64_t)shared};
}

static void emit_pairs(struct ev_check_ctx *c, const struct pairs *ps)
{
    for (size_t i = 0; i < ps->n; i++) {
        const struct pair *p = &ps->v[i];
        const struct op *a = &p->a, *b = &p->b;
        /* Two receives: MPI writes both, the bytes are undefined, harmless
         * to a program that never reads them (a warning); MPI writing a
         * pending send's buffer changes what it sends (an error). */
        struct ev_check_finding f = {"buf.overlap",
                                     a->writes && b->writes &&
                                             !a->reads && !b->reads
                                         ? EV_CHECK_WARNING
                                         : EV_CHECK_ERROR,
                                     "", NULL, 2};
        char more[96] = "";
        if (p->count > 1)
            snprintf(more, sizeof more, " (and %" PRIu64 " more pairs of "
                     "these two calls)", p->count - 1);
        snprintf(f.message, sizeof f.message,
                 "%s's buffer [%#" PRIx64 ", %#" PRIx64 ") and %s's [%#"
                 PRIx64 ", %#" PRIx64 ") share %" PRIu64 " bytes while %s "
                 "pending, and MPI writes %s%s",
                 log_func_name(a->fn), a->lo, a->hi, log_func_name(b->fn),
                 b->lo, b->hi, p->shared,
                 b->blocking ? "the first is" : "both are",
                 a->writes && b->writes ? "both"
                 : a->writes            ? "the first"
                                        : "the second", more);
        struct ev_check_site s[2] = {
            {p->r, a->event, a->writes ? "writes here" : "reads here"},
            {p->r, b->event, b->writes ? "writes here" : "reads here"},
        };
        f.sites = s;
        c->emit(c->ud, &f);
    }
}

/* Memory is looked at in granules of 64 bytes (a cache line: small
 * buffers of one array pending together mostly fall in different ones);
 * an operation over more than WIDE granules (16 KiB) is compared with
 * every pending one instead. */
#define GRAIN 6
#define WIDE 256

/* Whether A and B, A started first, are the pair buf.overlap reports. */
static int clash(const struct op *a, const struct op *b)
{
    return a->end > b->start && (a->writes || b->writes) && a->lo < b->hi &&
           b->lo < a->hi && a->start != b->start;
}

/* A list of operations (indices into the rank's array) that may still be
 * pending: pruned as it is scanned. */
struct act {
    uint32_t *v;
    size_t n, cap;
};

static int act_add(struct act *a, uint32_t i)
{
    return util_grow(&a->v, &a->cap, a->n + 1, sizeof *a->v) < 0
               ? -1 : (a->v[a->n++] = i, 0);
}

/* Compares B (index BI) with the operations of A still pending at its
 * start, dropping those that ended; FIRST_PAGE: report a pair only when
 * this is the first granule both touch (-1: always). */
static void act_scan(struct pairs *ps, int r, const struct op *v,
                     struct act *a, uint32_t bi, int64_t first_page)
{
    const struct op *b = &v[bi];
    for (size_t k = 0; k < a->n;) {
        const struct op *o = &v[a->v[k]];
        if (o->end <= b->start) {
            a->v[k] = a->v[--a->n];
            continue;
        }
        uint64_t lo = o->lo > b->lo ? o->lo : b->lo;
        if (clash(o, b) && (first_page < 0 || (int64_t)(lo >> GRAIN) ==
                                                  first_page))
            report(ps, r, o, b);
        k++;
    }
}


/* A granule's operations (the key: the granule's number hashed to an int:
 * granules that collide share a list, every pair is still compared
 * exactly). */
struct page {
    int key;
    struct act ops;
};

static int page_key(uint64_t page)
{
    return (int)((page ^ (page >> 31)) & 0x7fffffff);
}

/* The pairs of R's operations in O pending together on shared memory, one
 * of them written: a sweep in order of start, each operation compared
 * with the pending ones on its granules (a hash of them; wide ones with
 * every pending one), so the cost follows the pairs that could clash, not
 * the square of the operations. O is in order of start (add_blocking).
 * -1 out of memory. */
static int sweep(struct pairs *ps, int r, struct ops *o)
{
    struct util_htab pages = UTIL_HTAB_INIT(struct page, key, -1);
    struct act wide = {0}, narrow = {0};
    int rc = 0;
    for (uint32_t i = 0; rc == 0 && i < o->n; i++) {
        const struct op *b = &o->v[i];
        uint64_t p0 = b->lo >> GRAIN, p1 = (b->hi - 1) >> GRAIN;
        act_scan(ps, r, o->v, &wide, i, -1);
        if (p1 - p0 >= WIDE) {
            act_scan(ps, r, o->v, &narrow, i, -1);
            rc = act_add(&wide, i);
            continue;
        }
        rc = act_add(&narrow, i);
        for (uint64_t p = p0; rc == 0 && p <= p1; p++) {
            struct page *pg = util_htab_find(&pages, page_key(p));
            if (pg)
                act_scan(ps, r, o->v, &pg->ops, i, (int64_t)p);
            else {
                struct page n = {page_key(p), {0}};
                if (util_htab_put(&pages, &n) < 0 ||
                    !(pg = util_htab_find(&pages, page_key(p))))
                    rc = -1;
            }
            if (rc == 0)
                rc = act_add(&pg->ops, i);
        }
    }
    for (size_t k = 0; k < pages.cap; k++) {
        struct page *pg = (struct page *)(pages.v + k * pages.esize);
        if (pg->key != pages.null)
            free(pg->ops.v);
    }
    util_htab_release(&pages);
    free(wide.v);
    free(narrow.v);
    return rc;
}

/* The events during which some operation of O is pending: the union of
 * their [start, end), in order, disjoint; *N of them (O sorted by start
 * here). -1 out of memory. */
struct span {
    uint64_t start, end;
};

static int pending_spans(struct ops *o, struct span **out, size_t *n)
{
    qsort(o->v, o->n, sizeof *o->v, by_start);
    struct span *v = o->n ? malloc(o->n * sizeof *v) : NULL;
    size_t k = 0;
    if (o->n && !v)
        return -1;
    for (size_t i = 0; i < o->n; i++) {
        if (k && o->v[i].start <= v[k - 1].end) {
            if (o->v[i].end > v[k - 1].end)
                v[k - 1].end = o->v[i].end;
            continue;
        }
        v[k++] = (struct span){o->v[i].start, o->v[i].end};
    }
    *out = v;
    *n = k;
    return 0;
}

/* Whether event E is inside one of the N spans V. */
static int spans_cover(const struct span *v, size_t n, uint64_t e)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid].end <= e)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && v[lo].start < e;
}

/* Merges B's operations (sorted here) into O's (sorted), B emptied: -1
 * out of memory. */
static int merge(struct ops *o, struct ops *b)
{
    if (!b->n)
        return 0;
    qsort(b->v, b->n, sizeof *b->v, by_start);
    struct op *v = malloc((o->n + b->n) * sizeof *v);
    if (!v)
        return -1;
    size_t i = 0, j = 0, k = 0;
    while (i < o->n || j < b->n)
        v[k++] = j == b->n || (i < o->n && o->v[i].start <= b->v[j].start)
                     ? o->v[i++] : b->v[j++];
    free(o->v);
    o->v = v;
    o->n = o->cap = k;
    o->unknown += b->unknown;
    free(b->v);
    *b = (struct ops){.d = b->d};
    return 0;
}

/* Sorts each rank's operations in PER by start and adds the blocking
 * calls made while an operation with memory was pending at their rank
 * (only their records can carry buffers: the recorder logs them then,
 * LOG_REC_BUFS); the others are not looked at, so the cost follows the
 * calls that overlap pending operations. */
static int add_blocking(struct ev_run *x, struct ops *per)
{
    int n = x->world_size, rc = 0;
    struct span **sp = calloc((size_t)n, sizeof *sp);
    size_t *nsp = calloc((size_t)n, sizeof *nsp);
    struct ops *blk = calloc((size_t)n, sizeof *blk);
    for (int r = 0; sp && nsp && r < n && rc == 0; r++)
        rc = pending_spans(&per[r], &sp[r], &nsp[r]);
    if (!sp || !nsp || !blk)
        rc = -1;
    for (int r = 0; blk && r < n; r++)
        blk[r].d = per[r].d;
    for (size_t i = 0; i < ev_nmsgs(x) && rc == 0; i++) {
        struct ev_msg m_buf;
        const struct ev_msg *m = ev_msg_at(x, (int32_t)i, &m_buf);
        if (!(m->flags & (EV_M_NONBLOCKING | EV_M_PROC_NULL)) &&
            m->rank >= 0 && m->rank < n &&
            spans_cover(sp[m->rank], nsp[m->rank], m->event))
            rc = add_bufs(x, m->rank, m->event, m->event, m->event + 1,
                          m->flags & EV_M_SEND ? 1 : 2, 1, &blk[m->rank]);
    }
    for (size_t i = 0; i < ev_ncolls(x) && rc == 0; i++) {
        const struct ev_coll *k = ev_coll_at(x, (int32_t)i);
        if (!k->nonblocking && k->rank >= 0 && k->rank < n &&
            spans_cover(sp[k->rank], nsp[k->rank], k->event))
            rc = add_bufs(x, k->rank, k->event, k->event, k->event + 1, 0,
                          1, &blk[k->rank]);
    }
    for (int r = 0; blk && r < n; r++) {
        if (rc == 0)
            rc = merge(&per[r], &blk[r]);
        free(blk[r].v);
    }
    for (int r = 0; sp && r < n; r++)
        free(sp[r]);
    free(sp);
    free(nsp);
    free(blk);
    return rc;
}

/* One-sided operations that return no request (MPI_Put, MPI_Get, the
 * accumulates: their records carry their buffers since format 8): each
 * rank's are pending from the call to the synchronization that completes
 * them at the origin (MPI 4.0 12.5: a fence, MPI_Win_complete,
 * MPI_Win_unlock of the target or MPI_Win_unlock_all, a flush of the
 * target or of all, MPI_Win_free), found by the spec's roles. */
struct rma_open {
    uint64_t event;
    uint32_t win;
    int32_t target;
};

static int add_rma(struct ev_run *x, struct ops *per)
{
    const unsigned ends = LOG_R_RMA_FENCE | LOG_R_RMA_UNLOCK |
                          LOG_R_RMA_UNLOCK_ALL | LOG_R_RMA_COMPLETE |
                          LOG_R_RMA_FLUSH | LOG_R_FREE;
    int rc = 0;
    for (int i = 0; i < x->nlogged && rc == 0; i++) {
        int r = x->logged[i];
        struct rma_open *open = NULL;
        size_t n = 0, cap = 0;
        uint64_t nev = x->ranks[r].present ? x->ranks[r].log.nevents : 0;
        for (uint64_t e = 0; e < nev && rc == 0; e++) {
            const struct log_func_desc *d = log_func_by_id(ev_fn(x, r, e));
            struct log_event ev;
            /* an operation without a request (the R forms' are
             * ev__op's), or a synchronization that ends some */
            int op = d && d->kind == LOG_K_RMA && d->nbufs &&
                     d->slot[LOG_S_REQUEST] < 0;
            if (!d || d->kind != LOG_K_RMA || !(op || (d->roles & ends)) ||
                ev_event(x, r, e, &ev, NULL, 0) < 0 || ev.ret != 0)
                continue;
            if (op) {
                if (util_grow(&open, &cap, n + 1, sizeof *open) < 0) {
                    rc = -1;
                    break;
                }
                open[n++] = (struct rma_open){
                    e, (uint32_t)ev__arg_named(&ev, "win", 0),
                    (int32_t)ev__arg_named(&ev, "target_rank", -1)};
                continue;
            }
            /* MPI_Win_free's window is a pointer: it ends them all. */
            int64_t w = ev__arg_named(&ev, "win", -1);
            int32_t t = (int32_t)ev__arg_named(&ev, "rank", -1);
            for (size_t k = 0; k < n && rc == 0;) {
                if ((w >= 0 && open[k].win != (uint32_t)w) ||
                    (t >= 0 && open[k].target != t)) {
                    k++;
                    continue;
                }
                rc = add_bufs(x, r, open[k].event, open[k].event, e, 0, 0,
                              &per[r]);
                open[k] = open[--n];
            }
        }
        for (size_t k = 0; k < n && rc == 0; k++)
            rc = add_bufs(x, r, open[k].event, open[k].event, EV_NONE, 0, 0,
                          &per[r]);
        free(open);
    }
    return rc;
}

/* A freed operation (EV_M_FREED) that matched one completed at rank P's
 * event D. */
struct freed {
    int32_t msg, p;
    uint64_t d;
};

static int by_peer_done(const void *a, const void *b)
{
    const struct freed *x = a, *y = b;
    if (x->p != y->p)
        return x->p < y->p ? -1 : 1;
    return x->d > y->d ? -1 : x->d < y->d; /* futures in decreasing order */
}

/*
 * The end of each operation whose request MPI_Request_free freed while
 * active (MPI 4.0 3.7.3: the program may reuse the buffer once it knows
 * otherwise that the operation completed, as by a reply or a barrier
 * after the message was received): its rank's first event in the causal
 * future of its match's completion, EV_NONE (pending to the end) without
 * one. END[i] for message i; 0, or -1 out of memory.
 */
static int freed_ends(struct ev_run *x, uint64_t *end)
{
    struct freed *f = NULL;
    size_t n = 0, cap = 0;
    for (size_t i = 0; i < ev_nmsgs(x); i++) {
        struct ev_msg m_buf;
        const struct ev_msg *m = ev_msg_at(x, (int32_t)i, &m_buf);
        end[i] = m->done;
        if (!(m->flags & EV_M_FREED) || m->match < 0)
            continue;
        struct ev_msg o_buf;
        const struct ev_msg *o = ev_msg_at(x, m->match, &o_buf);
        if (o->done == EV_NONE)
            continue;
        if (util_grow((void **)&f, &cap, n + 1, sizeof *f) < 0) {
            free(f);
            return -1;
        }
        f[n++] = (struct freed){(int32_t)i, o->rank, o->done};
    }
    if (n == 0)
        return 0;
    struct ev__causal *k = ev__causal_build(x);
    if (!k) {
        free(f);
        return -1;
    }
    qsort(f, n, sizeof *f, by_peer_done);
    for (size_t j = 0; j < n; j++) {
        struct ev_msg m_buf;
        const struct ev_msg *m = ev_msg_at(x, f[j].msg, &m_buf);
        const int64_t *fut = ev__causal_walk(k, x, f[j].p, f[j].d, 1);
        if (fut[m->rank] != INT64_MAX && fut[m->rank] > (int64_t)m->event)
            end[f[j].msg] = (uint64_t)fut[m->rank];
    }
    ev__causal_free(k);
    free(f);
    return 0;
}

static int check_overlap(struct ev_check_ctx *c, char *err, size_t errlen)
{
    struct ev_run *x = c->x;
    struct ops *per = calloc((size_t)x->world_size, sizeof *per);
    uint64_t *end = malloc((ev_nmsgs(x) + 1) * sizeof *end);
    if (!per || !end || freed_ends(x, end) < 0) {
        free(per);
        free(end);
        log_errf(err, errlen, "out of memory");
        return -1;
    }
    int rc = 0;
    struct dtab dt = {0};
    for (int r = 0; r < x->world_size; r++)
        per[r].d = &dt;
    for (size_t i = 0; i < ev_nmsgs(x) && rc == 0; i++) {
        struct ev_msg m_buf;
        const struct ev_msg *m = ev_msg_at(x, (int32_t)i, &m_buf);
        if (!(m->flags & EV_M_NONBLOCKING) || (m->flags & EV_M_PROC_NULL))
            continue;
        uint64_t bev = m->init != EV_NONE ? m->init : m->event;
        rc = add_bufs(x, m->rank, bev, m->event, end[i],
                      m->flags & EV_M_SEND ? 1 : 2, 0, &per[m->rank]);
    }
    free(end);
    for (size_t i = 0; i < ev_ncolls(x) && rc == 0; i++) {
        const struct ev_coll *k = ev_coll_at(x, (int32_t)i);
        if (k->nonblocking)
            rc = add_bufs(x, k->rank, k->event, k->event, k->done, 0, 0,
                          &per[k->rank]);
    }
    for (size_t i = 0; i < x->ix->nops && rc == 0; i++) {
        const struct ev__op *op = &x->ix->ops[i];
        rc = add_bufs(x, op->rank, op->event, op->event, op->done, 0, 0,
                      &per[op->rank]);
    }
    if (rc == 0)
        rc = add_rma(x, per);
    if (rc == 0)
        rc = add_blocking(x, per);
    struct pairs ps = {.x = x, .d = &dt};
    ps.ctors = calloc((size_t)x->world_size, sizeof *ps.ctors);
    ps.scanned = calloc((size_t)x->world_size, 1);
    if (!ps.ctors || !ps.scanned)
        rc = -1;
    for (int r = 0; r < x->world_size; r++) {
        if (rc == 0 && !(c->interrupted && *c->interrupted))
            rc = sweep(&ps, r, &per[r]);
        if (per[r].unknown) {
            char msg[200];
            snprintf(msg, sizeof msg, "rank %d: %zu operations without a "
                     "logged buffer extent (a log older than format 5, or "
                     "6 for blocking calls; v- or w-collectives) are not "
                     "checked", r, per[r].unknown);
            c->note(c->ud, "buf.overlap", msg);
        }
        free(per[r].v);
    }
    free(per);
    emit_pairs(c, &ps);
    free(ps.v);
    for (int r = 0; ps.ctors && r < x->world_size; r++)
        free(ps.ctors[r].v);
    free(ps.ctors);
    free(ps.scanned);
    free(dt.v);
    free(dt.args);
    if (ps.oom)
        rc = -1;
    if (rc < 0)
        log_errf(err, errlen, "out of memory");
    return rc;
}

const struct ev_check_def ev_check_buf_defs[] = {
    {"buf.overlap", EV_CHECK_ERROR,
     "two pending nonblocking operations, or a blocking call and a "
     "pending one, on overlapping memory that MPI writes (two receives: "
     "a warning)",
     check_overlap},
    {NULL, 0, NULL, NULL},
};
