/*
 * Building the index (events.h: ev_build()): one pass over each rank's log,
 * each event dispatched by what its function is (ev-func.c) to the
 * communicators (ev-comm.c), the messages (ev-match.c) and the requests
 * (ev-req.c) it makes or completes; collective calls are numbered here, per
 * communicator. When every rank is read, messages are matched and the
 * collective calls sorted into instances.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ev-int.h"
#include "log.h"

/* A new collective call. */
static int32_t coll_new(struct ev__pass *p, const struct log_event *ev,
                        int32_t comm, uint32_t datatype, int nonblocking)
{
    struct ev_index *ix = p->ix;
    if (util_grow(&ix->colls, &ix->capcolls, ix->ncolls + 1,
                  sizeof *ix->colls) < 0) {
        ix->oom = 1;
        return -1;
    }
    int32_t inst = -1;
    if (comm >= 0) {
        size_t old = p->capcount;
        if (util_grow(&p->coll_count, &p->capcount, (size_t)comm + 1,
                      sizeof *p->coll_count) < 0) {
            ix->oom = 1;
            return -1;
        }
        if (p->capcount > old)
            memset(p->coll_count + old, 0,
                   (p->capcount - old) * sizeof *p->coll_count);
        inst = p->coll_count[comm]++;
    }
    struct ev_coll *c = &ix->colls[ix->ncolls];
    c->event = ev->index;
    c->done = nonblocking ? EV_NONE : ev->index;
    c->rank = p->rank;
    c->comm = comm;
    c->instance = inst;
    c->datatype = datatype;
    c->done_elem = 0;
    c->fn = (uint16_t)ev->fn;
    c->nonblocking = (uint16_t)nonblocking;
    ev__ref_add(p, ev->index, EV_COLL, (int32_t)ix->ncolls);
    return (int32_t)ix->ncolls++;
}

/* The call being dispatched: its record, what its function is, its
 * by-value arguments, and the communicator it names (global id and side). */
struct call {
    const struct log_event *ev;
    const struct ev__fninfo *fi;
    int64_t a[24];
    int ok;          /* it returned MPI_SUCCESS */
    int32_t comm;
    int side;
};

/* The by-value argument at position K (struct ev__fninfo), 0 when none. */
static int64_t arg(const struct call *c, int k)
{
    return k >= 0 && k < 24 ? c->a[k] : 0;
}

/* Send, Isend, Sendrecv, Isendrecv: a send, and a receive for the last. */
static void on_send(struct ev__pass *p, const struct call *c)
{
    const struct ev__fninfo *fi = c->fi;
    const struct log_event *ev = c->ev;
    uint64_t n = ev->index;
    int32_t st[LOG_ST_N];
    if (!c->ok)
        return;
    int nb = fi->cls == EV__C_ISEND || fi->cls == EV__C_ISENDRECV;
    int32_t si = ev__msg_new(p, n, ev->fn, 1), ri = -1;
    if (si < 0)
        return;
    struct ev_msg *m = ev__pmsg(p, si);
    m->count = arg(c, fi->count);
    m->datatype = (uint32_t)arg(c, fi->type);
    m->tag = (int32_t)arg(c, fi->tag);
    ev__send_peer(p, m, c->comm, c->side, (int32_t)arg(c, fi->dest));
    if (nb) {
        m->flags |= EV_M_NONBLOCKING;
        m->done = EV_NONE;
    }
    ev__ref_add(p, n, EV_CALL, si);
    if (fi->cls == EV__C_SENDRECV || fi->cls == EV__C_ISENDRECV) {
        ri = ev__msg_new(p, n, ev->fn, 0);
        if (ri < 0)
            return;
        m = ev__pmsg(p, ri);
        m->count = arg(c, fi->rcount);
        m->datatype = (uint32_t)arg(c, fi->rtype);
        ev__recv_posted(p, m, c->comm, c->side, (int32_t)arg(c, fi->source),
                        (int32_t)arg(c, fi->rtag));
        if (nb) {
            m->flags |= EV_M_NONBLOCKING;
            m->done = EV_NONE;
        } else if (ev__first_status(ev, st)) {
            ev__recv_status(p, m, c->side, st);
        }
        ev__ref_add(p, n, EV_CALL, ri);
    }
    if (nb) {
        int32_t qi = ev__req_new(p, ev__out_handle(ev, fi->req_arg),
                                 EV__RQ_P2P, n);
        if (qi >= 0) {
            p->rq[qi].m0 = si;
            p->rq[qi].m1 = ri;
            p->rq[qi].side = c->side;
        }
    }
}

/* Recv, Irecv. A failed Recv that logged a status still received. */
static void on_recv(struct ev__pass *p, const struct call *c)
{
    const struct ev__fninfo *fi = c->fi;
    const struct log_event *ev = c->ev;
    uint64_t n = ev->index;
    int32_t st[LOG_ST_N];
    if (!c->ok && !(fi->cls == EV__C_RECV && ev__first_status(ev, st)))
        return;
    int32_t mi = ev__msg_new(p, n, ev->fn, 0);
    if (mi < 0)
        return;
    struct ev_msg *m = ev__pmsg(p, mi);
    m->count = arg(c, fi->count);
    m->datatype = (uint32_t)arg(c, fi->type);
    ev__recv_posted(p, m, c->comm, c->side, (int32_t)arg(c, fi->source),
                    (int32_t)arg(c, fi->tag));
    if (fi->cls == EV__C_RECV) {
        if (ev__first_status(ev, st))
            ev__recv_status(p, m, c->side, st);
    } else {
        m->flags |= EV_M_NONBLOCKING;
        m->done = EV_NONE;
        int32_t qi = ev__req_new(p, ev__out_handle(ev, fi->req_arg),
                                 EV__RQ_P2P, n);
        if (qi >= 0) {
            p->rq[qi].m0 = mi;
            p->rq[qi].side = c->side;
        }
    }
    ev__ref_add(p, n, EV_CALL, mi);
}

/* Send_init, Recv_init, ...: a persistent request, the template of the
 * messages each start makes. */
static void on_persistent_init(struct ev__pass *p, const struct call *c)
{
    const struct ev__fninfo *fi = c->fi;
    if (!c->ok)
        return;
    int32_t qi = ev__req_new(p, ev__out_handle(c->ev, fi->req_arg),
                             fi->cls == EV__C_PSEND ? EV__RQ_PSEND
                                                    : EV__RQ_PRECV,
                             c->ev->index);
    if (qi < 0)
        return;
    struct ev__req *q = &p->rq[qi];
    q->send = fi->cls == EV__C_PSEND;
    q->comm = c->comm;
    q->side = c->side;
    q->count = arg(c, fi->count);
    q->datatype = (uint32_t)arg(c, fi->type);
    q->peer_local = (int32_t)(q->send ? arg(c, fi->dest)
                                      : arg(c, fi->source));
    q->tag = (int32_t)arg(c, fi->tag);
}

static void on_startall(struct ev__pass *p, const struct call *c)
{
    const struct log_event *ev = c->ev;
    int count = (int)arg(c, 0);
    struct log_field f;
    /* A Startall that lists its requests (RAW, argument 1). */
    if (count > 0 && log_event_find(ev, 1, LOG_F_RAW, &f) &&
        f.len == 4 * (uint64_t)count) {
        for (int k = 0; k < count; k++) {
            uint32_t h;
            memcpy(&h, f.data + 4 * k, 4);
            ev__req_start(p, h, ev->index, ev->fn, c->ok);
        }
        return;
    }
    if (c->ok)
        ev__startall_unlisted(p, ev->index, count, ev->fn);
}

/* Mprobe, Improbe: the message it matched, received later by its
 * Mrecv/Imrecv. */
static void on_mprobe(struct ev__pass *p, const struct call *c)
{
    const struct log_event *ev = c->ev;
    struct log_field f;
    int32_t flag = 1, st[LOG_ST_N];
    if (log_event_find(ev, 3, LOG_F_RAW, &f) && f.len == 4)
        memcpy(&flag, f.data, 4); /* Improbe's flag */
    if (!c->ok || !flag || !ev__first_status(ev, st) ||
        st[LOG_ST_SOURCE] == EV_PROC_NULL)
        return;
    int32_t mi = ev__msg_new(p, ev->index, ev->fn, 0);
    if (mi < 0)
        return;
    struct ev_msg *m = ev__pmsg(p, mi);
    m->comm = c->comm;
    m->done = EV_NONE;
    ev__recv_status(p, m, c->side, st);
    m->flags |= EV_M_PROBED;
    ev__ref_add(p, ev->index, EV_PROBE, mi);
    if (util_grow(&p->probed, &p->capprobed, p->nprobed + 1,
                  sizeof *p->probed) < 0) {
        p->ix->oom = 1;
        return;
    }
    p->probed[p->nprobed++] = mi;
}

static void on_mrecv(struct ev__pass *p, const struct call *c)
{
    const struct log_event *ev = c->ev;
    uint64_t n = ev->index;
    int32_t st[LOG_ST_N], mi;
    if (!ev__first_status(ev, st))
        return;
    if (st[LOG_ST_SOURCE] == EV_PROC_NULL) {
        /* MPI_MESSAGE_NO_PROC: a receive from MPI_PROC_NULL */
        if ((mi = ev__msg_new(p, n, ev->fn, 0)) < 0)
            return;
        ev__pmsg(p, mi)->flags |= EV_M_PROC_NULL;
        ev__pmsg(p, mi)->peer_local = EV_PROC_NULL;
    } else if ((mi = ev__probed_take(p, st)) < 0) {
        return;
    }
    struct ev_msg *m = ev__pmsg(p, mi);
    m->event = m->done = n;
    m->fn = (uint16_t)ev->fn;
    m->flags &= (uint16_t)~EV_M_NONBLOCKING;
    m->count = arg(c, c->fi->count);
    m->datatype = (uint32_t)arg(c, c->fi->type);
    ev__ref_add(p, n, EV_CALL, mi);
}

static void on_imrecv(struct ev__pass *p, const struct call *c)
{
    if (!c->ok)
        return;
    int32_t qi = ev__req_new(p, ev__out_handle(c->ev, c->fi->req_arg),
                             EV__RQ_IMRECV, c->ev->index);
    if (qi >= 0) {
        p->rq[qi].fn = c->ev->fn;
        p->rq[qi].count = arg(c, c->fi->count);
        p->rq[qi].datatype = (uint32_t)arg(c, c->fi->type);
    }
}

static void on_request_free(struct ev__pass *p, const struct call *c)
{
    struct log_field f;
    uint32_t h;
    if (c->ok && log_event_find(c->ev, 0, LOG_F_REQUEST, &f) &&
        log_field_handle(&f, &h) == 0)
        ev__req_free(p, h, c->ev->index);
}

/* What else a call makes: a collective call (and its request when
 * nonblocking or persistent), another request, a new communicator. */
/* A struct ev__op for the rank's call EVENT; -1 out of memory. */
static int32_t op_new(struct ev__pass *p, uint64_t event)
{
    struct ev_index *ix = p->ix;
    if (util_grow(&ix->ops, &ix->capops, ix->nops + 1, sizeof *ix->ops) < 0) {
        ix->oom = 1;
        return -1;
    }
    ix->ops[ix->nops] = (struct ev__op){event, EV_NONE, p->rank};
    return (int32_t)ix->nops++;
}

static void on_other(struct ev__pass *p, const struct call *c)
{
    const struct ev__fninfo *fi = c->fi;
    const struct log_event *ev = c->ev;
    if (fi->coll && c->ok) {
        int32_t ci = coll_new(p, ev, c->comm, (uint32_t)arg(c, fi->rtype),
                              fi->coll == EV__K_NONBLOCKING);
        if (ci >= 0 && fi->coll != EV__K_BLOCKING) {
            int32_t qi = ev__req_new(p, ev__out_handle(ev, fi->req_arg),
                                     fi->coll == EV__K_PERSISTENT
                                         ? EV__RQ_PCOLL : EV__RQ_COLL,
                                     ev->index);
            if (qi >= 0)
                p->rq[qi].coll = fi->coll == EV__K_PERSISTENT ? -1 : ci;
        }
    } else if (fi->req_arg >= 0 && c->ok && fi->cls == EV__C_OTHER) {
        /* MPI_Psend_init, MPI_Precv_init: persistent, as an *_init
         * collective's request (not freed by its completion). Another
         * (MPI_File_iread, MPI_Rget, ...): an operation on the buffers
         * its record may carry (struct ev__op). */
        const struct log_func_desc *d = log_func_by_id(ev->fn);
        int persistent = d && (d->roles & LOG_R_PERSISTENT);
        int32_t qi = ev__req_new(p, ev__out_handle(ev, fi->req_arg),
                                 persistent ? EV__RQ_PPART : EV__RQ_OTHER,
                                 ev->index);
        if (qi >= 0 && !persistent && d && d->nbufs)
            p->rq[qi].op = op_new(p, ev->index);
    }
    if (fi->newcomm_arg >= 0 && c->ok)
        ev__comm_new(p, ev, fi->newcomm_arg);
}

/* One event of the rank being read, by what its function is. */
static void one_event(struct ev__pass *p, const struct log_event *ev)
{
    struct call c;
    c.ev = ev;
    c.fi = ev__fn(p->ix, ev->fn);
    c.ok = ev->ret == 0;
    c.comm = -1;
    c.side = 0;
    log_event_args(ev, c.a, 24);
    if (c.fi->comm >= 0)
        c.comm = ev__comm_lookup(p, (uint32_t)arg(&c, c.fi->comm), &c.side);

    switch (c.fi->cls) {
    case EV__C_SEND:
    case EV__C_ISEND:
    case EV__C_SENDRECV:
    case EV__C_ISENDRECV:
        on_send(p, &c);
        break;
    case EV__C_RECV:
    case EV__C_IRECV:
        on_recv(p, &c);
        break;
    case EV__C_PSEND:
    case EV__C_PRECV:
        on_persistent_init(p, &c);
        break;
    case EV__C_START:
        ev__req_start(p, ev__out_handle(ev, 0), ev->index, ev->fn, c.ok);
        break;
    case EV__C_STARTALL:
        on_startall(p, &c);
        break;
    case EV__C_MPROBE:
        on_mprobe(p, &c);
        break;
    case EV__C_MRECV:
        on_mrecv(p, &c);
        break;
    case EV__C_IMRECV:
        on_imrecv(p, &c);
        break;
    case EV__C_DONE1:
        ev__completions(p, ev, 0);
        break;
    case EV__C_DONEN:
        ev__completions(p, ev, 1);
        break;
    case EV__C_REQFREE:
        on_request_free(p, &c);
        break;
    default:
        break;
    }
    on_other(p, &c);
}

static int cmp_xref(const void *a, const void *b)
{
    const struct ev__xref *x = a, *y = b;
    if (x->event != y->event)
        return x->event < y->event ? -1 : 1;
    if (x->role != y->role)
        return x->role < y->role ? -1 : 1;
    return (x->i > y->i) - (x->i < y->i);
}

/* The refs' order within one event (cmp_xref's role, then index) as one
 * unsigned key. */
static uint64_t xref_key(const struct ev__xref *x)
{
    return (uint64_t)((uint32_t)x->role ^ 0x80000000u) << 32 |
           ((uint32_t)x->i ^ 0x80000000u);
}

/* Sorts the N refs of one event at V by role and index: a radix sort of
 * xref_key, a byte a pass, skipping the bytes all refs share. 0, or -1
 * out of memory (V unchanged). */
static int radix_refs(struct ev__xref *v, size_t n)
{
    struct ev__xref *tmp = malloc(n * sizeof *tmp);
    if (!tmp)
        return -1;
    size_t cnt[257];
    struct ev__xref *src = v, *dst = tmp;
    for (int shift = 0; shift < 64; shift += 8) {
        memset(cnt, 0, sizeof cnt);
        for (size_t k = 0; k < n; k++)
            cnt[(xref_key(&src[k]) >> shift & 0xff) + 1]++;
        if (cnt[(xref_key(&src[0]) >> shift & 0xff) + 1] == n)
            continue; /* one digit for all */
        for (size_t d = 1; d <= 256; d++)
            cnt[d] += cnt[d - 1];
        for (size_t k = 0; k < n; k++)
            dst[cnt[xref_key(&src[k]) >> shift & 0xff]++] = src[k];
        struct ev__xref *t = src;
        src = dst;
        dst = t;
    }
    if (src != v)
        memcpy(v, src, n * sizeof *v);
    free(tmp);
    return 0;
}

/* Sorts RI's refs by cmp_xref in time linear in their number and in
 * NEVENTS (their events lie below it): a stable counting sort by event,
 * then each event's refs by role and index. Refs come mostly in event
 * order already (a completion refers back to its request's start), but a
 * comparison sort of a million of them cost a third of the whole build.
 * Falls back to qsort where the counts would not fit. */
static void sort_refs(struct ev__rank_ix *ri, uint64_t nevents)
{
    uint32_t *end = NULL;
    struct ev__xref *out = NULL;
    if (ri->nrefs < UINT32_MAX && nevents < SIZE_MAX / sizeof *end - 1) {
        end = calloc((size_t)nevents + 1, sizeof *end);
        out = end ? malloc(ri->nrefs * sizeof *out) : NULL;
    }
    for (size_t k = 0; out && k < ri->nrefs; k++)
        if (ri->refs[k].event >= nevents) { /* cannot happen */
            free(out);
            out = NULL;
        }
    if (!out) {
        free(end);
        qsort(ri->refs, ri->nrefs, sizeof *ri->refs, cmp_xref);
        return;
    }
    /* end[n + 1]: the refs of events up to n; then end[n]: where event
     * n's next ref goes, which ends as the end of its refs */
    for (size_t k = 0; k < ri->nrefs; k++)
        end[ri->refs[k].event + 1]++;
    for (uint64_t n = 1; n <= nevents; n++)
        end[n] += end[n - 1];
    for (size_t k = 0; k < ri->nrefs; k++)
        out[end[ri->refs[k].event]++] = ri->refs[k];
    for (uint64_t n = 0, b = 0; n < nevents; b = end[n++]) {
        size_t e = end[n];
        if (e - b > 16) { /* a Waitall's completions */
            if (radix_refs(out + b, e - b) < 0)
                qsort(out + b, e - b, sizeof *out, cmp_xref);
            continue;
        }
        for (size_t k = b + 1; k < e; k++) { /* insertion: one or two */
            struct ev__xref x = out[k];
            size_t j = k;
            for (; j > b && cmp_xref(&out[j - 1], &x) > 0; j--)
                out[j] = out[j - 1];
            out[j] = x;
        }
    }
    free(end);
    free(ri->refs);
    ri->refs = out;
    ri->caprefs = ri->nrefs;
}

/* RI's refs kept narrow (refs32) when every index fits and every event is
 * the one its message or collective holds for the role (the messages of
 * the rank are kept already: ev__msgs_keep), else wide at their length;
 * either way no room beyond them. */
static void narrow_refs(const struct ev_index *ix, struct ev__rank_ix *ri)
{
    int fits = 1;
    for (size_t k = 0; fits && k < ri->nrefs; k++) {
        const struct ev__xref *e = &ri->refs[k];
        fits = e->i >= 0 && e->i < EV__XREF32_MAX_I && e->role >= EV_CALL &&
               e->role <= EV_COLL_DONE &&
               ev__ref_event_of(ix, e->role, e->i) == e->event;
    }
    uint32_t *v = fits && ri->nrefs ? malloc(ri->nrefs * sizeof *v) : NULL;
    if (!v) {
        /* wide: at their length (the array grew by doubling) */
        struct ev__xref *w = ri->nrefs && ri->caprefs > ri->nrefs
            ? realloc(ri->refs, ri->nrefs * sizeof *w) : NULL;
        if (w) {
            ri->refs = w;
            ri->caprefs = ri->nrefs;
        }
        return;
    }
    for (size_t k = 0; k < ri->nrefs; k++)
        v[k] = (uint32_t)ri->refs[k].i << 3 | (uint32_t)ri->refs[k].role;
    free(ri->refs);
    ri->refs = NULL;
    ri->refs32 = v;
    ri->caprefs = ri->nrefs;
}

static void read_rank(struct ev__pass *p)
{
    const struct log_rank *lr = &p->x->ranks[p->rank].log;

    util_htab_clear(&p->comms);
    util_htab_clear(&p->reqs);
    p->nrq = p->nfree = p->nsa = p->nprobed = 0;
    if (p->capcount)
        memset(p->coll_count, 0, p->capcount * sizeof *p->coll_count);

    /* MPI_COMM_WORLD and MPI_COMM_SELF exist from the start. */
    ev__comm_predefined(p);

    for (uint64_t n = 0; n < lr->nevents && !p->ix->oom; n++) {
        struct log_event ev;
        if (log_rank_event(lr, n, &ev, NULL, 0) < 0)
            continue;
        if (ev.flags & (LOG_REC_REPEAT | LOG_REC_TRUNC))
            continue;
        if (ev__fn(p->ix, ev.fn)->cls == EV__C_NONE)
            continue;
        one_event(p, &ev);
    }
    ev__req_live_at_end(p);
    ev__msgs_keep(p);

    struct ev__rank_ix *ri = &p->ix->r[p->rank];
    for (size_t k = 1; k < ri->nrefs; k++)
        if (cmp_xref(&ri->refs[k - 1], &ri->refs[k]) > 0) {
            sort_refs(ri, lr->nevents);
            break;
        }
    narrow_refs(p->ix, ri);
}

/* qsort_r comparator over collective indices; ARG is the array. */
static int cmp_coll(const void *a, const void *b, void *arg)
{
    const struct ev_coll *colls = arg;
    const struct ev_coll *x = &colls[*(const int32_t *)a];
    const struct ev_coll *y = &colls[*(const int32_t *)b];
    if (x->comm != y->comm)
        return x->comm < y->comm ? -1 : 1;
    if (x->instance != y->instance)
        return x->instance < y->instance ? -1 : 1;
    return (x->rank > y->rank) - (x->rank < y->rank);
}

/* Collective calls in instance order: by (comm, instance, rank). */
static void sort_colls(struct ev_index *ix)
{
    ix->coll_sorted = malloc((ix->ncolls ? ix->ncolls : 1) *
                             sizeof *ix->coll_sorted);
    if (!ix->coll_sorted) {
        ix->oom = 1;
        return;
    }
    for (size_t i = 0; i < ix->ncolls; i++)
        ix->coll_sorted[i] = (int32_t)i;
    qsort_r(ix->coll_sorted, ix->ncolls, sizeof *ix->coll_sorted, cmp_coll,
            ix->colls);
}

/* Array *P of N elements of SIZE bytes with room for *CAP: the room cut to
 * N (the arrays grew by doubling; a built index is only read). Left as it
 * is when realloc fails. */
static void fit(void *pp, size_t *cap, size_t n, size_t size)
{
    void **p = pp;
    if (!n || n >= *cap)
        return;
    void *q = realloc(*p, n * size);
    if (q) {
        *p = q;
        *cap = n;
    }
}

/* The index's arrays, each as long as what it holds. */
static void fit_all(struct ev_index *ix)
{
    fit(&ix->msgs, &ix->capmsgs, ix->nmsgs, sizeof *ix->msgs);
    fit(&ix->mesc, &ix->capmesc, ix->nmesc, sizeof *ix->mesc);
    fit(&ix->shapes, &ix->capshapes, ix->nshapes, sizeof *ix->shapes);
    fit(&ix->colls, &ix->capcolls, ix->ncolls, sizeof *ix->colls);
    fit(&ix->chans, &ix->capchans, ix->nchans, sizeof *ix->chans);
    fit(&ix->rqis, &ix->caprqis, ix->nrqis, sizeof *ix->rqis);
    fit(&ix->ops, &ix->capops, ix->nops, sizeof *ix->ops);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Rank p->rank's communicator creations and nothing else: the ids a
 * later rank's communicators get depend on them (ev__comm_create numbers
 * communicators as ranks first make them). Only the records of functions
 * that make one are decoded; the same gates as read_rank and one_event. */
static void read_rank_comms(struct ev__pass *p)
{
    const struct log_rank *lr = &p->x->ranks[p->rank].log;
    util_htab_clear(&p->comms);
    ev__comm_predefined(p);
    for (uint64_t n = 0; n < lr->nevents && !p->ix->oom; n++) {
        const struct ev__fninfo *fi =
            ev__fn(p->ix, ev_fn(p->x, p->rank, n));
        if (fi->cls == EV__C_NONE || fi->newcomm_arg < 0)
            continue;
        struct log_event ev;
        if (log_rank_event(lr, n, &ev, NULL, 0) < 0 ||
            (ev.flags & (LOG_REC_REPEAT | LOG_REC_TRUNC)) || ev.ret != 0)
            continue;
        ev__comm_new(p, &ev, fi->newcomm_arg);
    }
}

/* The index of X begun in P (cleared here): MPI_COMM_WORLD made, no rank
 * read. The index, or NULL when out of memory (P left with nothing to
 * free). */
static struct ev_index *begin(struct ev_run *x, struct ev__pass *p)
{
    struct ev_index *ix = calloc(1, sizeof *ix);
    if (!ix || ev__fninfo_build(ix) < 0 ||
        !(ix->r = calloc((size_t)x->world_size, sizeof *ix->r)) ||
        !(ix->mfirst = calloc((size_t)x->world_size + 1,
                              sizeof *ix->mfirst))) {
        ev__index_free(ix, x);
        return NULL;
    }
    /* MPI_COMM_WORLD is communicator 0: created here first (by no rank),
     * then by each rank as its first communicator. */
    memset(p, 0, sizeof *p);
    p->comms = (struct util_htab)EV__HMAP_INIT;
    p->reqs = (struct util_htab)EV__RQMAP_INIT;
    p->x = x;
    p->ix = ix;
    p->world = malloc((size_t)x->world_size * sizeof *p->world);
    if (p->world) {
        int side;
        for (int r = 0; r < x->world_size; r++)
            p->world[r] = r;
        ev__comm_create(ix, -1, EV_NONE, p->world, x->world_size, NULL, 0,
                        &side);
    } else {
        ix->oom = 1;
    }
    ix->nranks = x->world_size;
    return ix;
}

/* Rank R read into P's index, in rank order (after every rank below R):
 * all of it, or (ONLY > R) its communicator creations alone, or (ONLY >= 0
 * and below R) nothing. */
static void pass_rank(struct ev__pass *p, int r, int only)
{
    struct ev_index *ix = p->ix;
    /* ranks without a log, up to R, have no messages */
    while (p->mnext <= r)
        ix->mfirst[p->mnext++] = ix->nmsgs;
    if (ix->oom || !p->x->ranks[r].present || (only >= 0 && r > only))
        return;
    p->rank = r;
    if (only >= 0 && r < only)
        read_rank_comms(p);
    else
        read_rank(p);
}

/* P's index with every rank read: P's state freed, the messages matched
 * (unless ONLY >= 0), the collective calls sorted. The index, or NULL when
 * out of memory (freed). */
static struct ev_index *finish(struct ev__pass *p, int only)
{
    struct ev_run *x = p->x;
    struct ev_index *ix = p->ix;
    while (p->mnext <= x->world_size)
        ix->mfirst[p->mnext++] = ix->nmsgs;
    util_htab_release(&p->comms);
    util_htab_release(&p->reqs);
    free(p->rq);
    free(p->rq_free);
    free(p->sa);
    free(p->probed);
    free(p->coll_count);
    free(p->world);
    free(p->cur);
    memset(p, 0, sizeof *p);

    if (!ix->oom && only < 0)
        ev__match_p2p(ix);
    if (!ix->oom)
        sort_colls(ix);
    if (!ix->oom)
        fit_all(ix);
    if (ix->oom) {
        ev__index_free(ix, x);
        return NULL;
    }
    for (size_t c = 0; c < ix->ncomms; c++) {
        ix->comms[c].a = ix->pool + ix->comm_aoff[c];
        ix->comms[c].b = ix->pool + ix->comm_boff[c];
    }
    return ix;
}

/*
 * The index of X: of every rank (ONLY -1), or of rank ONLY's events alone
 * (its messages, collective calls, requests and communicator handles, with
 * the communicator ids the whole index gives them: the ranks before it are
 * read for their communicators only), without matching. NULL when out of
 * memory.
 */
static struct ev_index *build(struct ev_run *x, int only)
{
    struct ev__pass p;
    if (!begin(x, &p))
        return NULL;
    for (int i = 0; i < x->nlogged; i++)
        pass_rank(&p, x->logged[i], only);
    return finish(&p, only);
}

/* The build ev_build_feed() began: its pass, the next rank to read (an
 * index in x->logged). */
struct ev__feed {
    struct ev__pass p;
    int next;
};

/* The build ev_build_feed() began, finished (every rank read already),
 * or with DROP freed: the index, or NULL. */
static struct ev_index *feed_end(struct ev_run *x, int drop)
{
    struct ev__feed *f = x->feed;
    if (drop)
        f->p.ix->oom = 1; /* finish() frees it */
    struct ev_index *ix = finish(&f->p, -1);
    free(f);
    x->feed = NULL;
    return ix;
}

void ev__feed_free(struct ev_run *x)
{
    if (x->feed)
        feed_end(x, 1);
}

void ev_build_feed(struct ev_run *x, int upto)
{
    if (x->ix || upto <= 0)
        return;
    double t0 = now_s();
    if (!x->feed) {
        if (!(x->feed = calloc(1, sizeof *x->feed)))
            return;
        if (!begin(x, &x->feed->p)) {
            free(x->feed);
            x->feed = NULL;
            return;
        }
    }
    struct ev__feed *f = x->feed;
    for (; f->next < x->nlogged && x->logged[f->next] < upto; f->next++)
        pass_rank(&f->p, x->logged[f->next], -1);
    x->feed_s += now_s() - t0;
}

int ev_build(struct ev_run *x, char *err, size_t errlen)
{
    if (x->ix)
        return 0;
    double t0 = now_s();
    if (x->feed) { /* the ranks left, then matched */
        ev_build_feed(x, x->world_size);
        x->ix = feed_end(x, 0);
    } else {
        x->ix = build(x, -1);
    }
    if (!x->ix) {
        log_errf(err, errlen, "out of memory indexing '%s'", x->dir);
        return -1;
    }
    x->build_s = now_s() - t0;
    return 0;
}

struct ev_index *ev__index_for(struct ev_run *x, int rank, char *err,
                               size_t errlen)
{
    if (x->ix)
        return x->ix;
    if (x->feed) /* the whole index is being built */
        return ev_build(x, err, errlen) < 0 ? NULL : x->ix;
    if (x->rank_ix && x->rank_ix_rank == rank)
        return x->rank_ix;
    if (x->rank_ix || rank < 0 || rank >= x->world_size)
        return ev_build(x, err, errlen) < 0 ? NULL : x->ix;
    if (!(x->rank_ix = build(x, rank))) {
        log_errf(err, errlen, "out of memory indexing '%s'", x->dir);
        return NULL;
    }
    x->rank_ix_rank = rank;
    return x->rank_ix;
}
