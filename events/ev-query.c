/*
 * Questions to the index (events.h), each building it first when needed:
 * raw access to messages, collectives and communicators; what an event is
 * about (ev_uses); the communicator a handle was bound to; an event's
 * partners (including the send a Probe or Iprobe saw, worked out here from
 * the channels: a probe takes no message); collective instances; what was
 * pending at a point; counts over the run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ev-int.h"
#include "log-abi.h"

static struct ev_index *index_of(struct ev_run *x)
{
    return x->ix || ev_build(x, NULL, 0) == 0 ? x->ix : NULL;
}

/* ---- raw access ---------------------------------------------------------- */

size_t ev_nmsgs(struct ev_run *x)
{
    struct ev_index *ix = index_of(x);
    return ix ? ix->nmsgs : 0;
}

const struct ev_msg *ev_msg_at(struct ev_run *x, int32_t i,
                               struct ev_msg *m)
{
    struct ev_index *ix = index_of(x);
    if (!ix || i < 0 || (size_t)i >= ix->nmsgs)
        return NULL;
    *m = ev__msg(ix, i);
    return m;
}

size_t ev_nreq_issues(struct ev_run *x)
{
    struct ev_index *ix = index_of(x);
    return ix ? ix->nrqis : 0;
}

const struct ev_req_issue *ev_req_issue_at(struct ev_run *x, size_t i)
{
    struct ev_index *ix = index_of(x);
    return ix && i < ix->nrqis ? &ix->rqis[i] : NULL;
}

size_t ev_ncolls(struct ev_run *x)
{
    struct ev_index *ix = index_of(x);
    return ix ? ix->ncolls : 0;
}

const struct ev_coll *ev_coll_at(struct ev_run *x, int32_t i)
{
    struct ev_index *ix = index_of(x);
    return ix && i >= 0 && (size_t)i < ix->ncolls ? &ix->colls[i] : NULL;
}

int ev_ncomms(struct ev_run *x)
{
    struct ev_index *ix = index_of(x);
    return ix ? (int)ix->ncomms : 0;
}

const struct ev_comm *ev_comm_at(struct ev_run *x, int id)
{
    struct ev_index *ix = index_of(x);
    return ix && id >= 0 && (size_t)id < ix->ncomms ? &ix->comms[id] : NULL;
}

int ev_uses(struct ev_run *x, int rank, uint64_t n, struct ev_use *out,
            int max)
{
    struct ev_index *ix = index_of(x);
    return ix ? ev__uses(ix, x->world_size, rank, n, out, max) : -1;
}

int ev__uses(const struct ev_index *ix, int world_size, int rank,
             uint64_t n, struct ev_use *out, int max)
{
    if (rank < 0 || rank >= world_size)
        return -1;
    const struct ev__rank_ix *ri = &ix->r[rank];
    size_t lo = ev__ref_lower(ix, ri, n);
    int k = 0;
    for (; lo < ri->nrefs && ev__ref_event(ix, ri, lo) == n; lo++, k++)
        if (k < max) {
            struct ev__xref e = ev__ref_at(ix, ri, lo);
            out[k] = (struct ev_use){e.role, e.i};
        }
    return k;
}

int64_t ev_sent_bytes(struct ev_run *x, int rank, uint64_t n)
{
    struct ev_index *ix = index_of(x);
    if (!ix || rank < 0 || rank >= x->world_size)
        return -1;
    const struct ev__rank_ix *ri = &ix->r[rank];
    int64_t sent = -1;
    for (size_t lo = ev__ref_lower(ix, ri, n);
         lo < ri->nrefs && ev__ref_event(ix, ri, lo) == n; lo++) {
        struct ev__xref e = ev__ref_at(ix, ri, lo);
        if (e.role != EV_CALL || !(ev__m_flags(ix, e.i) & EV_M_SEND))
            continue;
        const struct ev_msg sm = ev__msg(ix, e.i), *s = &sm;
        int64_t mb = s->match >= 0 ? ev__msg(ix, s->match).bytes : -1;
        int64_t b = mb >= 0 ? mb : s->bytes;
        if (b >= 0)
            sent = (sent < 0 ? 0 : sent) + b;
    }
    return sent;
}

int ev_comm_of(struct ev_run *x, int rank, uint64_t n, uint32_t h,
               int *side)
{
    struct ev_index *ix = index_of(x);
    *side = 0;
    return ix ? ev__comm_of(ix, x->world_size, rank, n, h, side) : -1;
}

int ev__comm_of(const struct ev_index *ix, int world_size, int rank,
                uint64_t n, uint32_t h, int *side)
{
    *side = 0;
    if (rank < 0 || rank >= world_size)
        return -1;
    const struct ev__rank_ix *ri = &ix->r[rank];
    for (size_t k = ri->nbinds; k-- > 0;)
        if (ri->binds[k].handle == h && ri->binds[k].event <= n) {
            *side = ri->binds[k].side;
            return ri->binds[k].comm;
        }
    return -1;
}

/* ---- partners ------------------------------------------------------------ */

static void ref_msg(struct ev_index *ix, struct ev_ref *r, int32_t self,
                    int32_t other)
{
    const struct ev_msg om = ev__msg(ix, other), *o = &om;
    memset(r, 0, sizeof *r);
    r->kind = o->flags & EV_M_SEND ? EV_K_SEND : EV_K_RECV;
    r->rank = o->rank;
    r->event = o->event;
    r->done = o->done;
    r->comm = o->comm;
    r->tag = o->tag;
    /* A send's status says nothing: the size is the receive's. */
    r->bytes = !(o->flags & EV_M_SEND) ? o->bytes
               : self >= 0 ? ev__msg(ix, self).bytes
               : o->match >= 0 ? ev__msg(ix, o->match).bytes : o->bytes;
    r->instance = -1;
    r->self = self;
    r->other = other;
}

int ev_instance(struct ev_run *x, int comm, int k, int32_t *out, int max)
{
    struct ev_index *ix = index_of(x);
    if (!ix)
        return 0;
    size_t lo = 0, hi = ix->ncolls;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const struct ev_coll *c = &ix->colls[ix->coll_sorted[mid]];
        if (c->comm < comm || (c->comm == comm && c->instance < k))
            lo = mid + 1;
        else
            hi = mid;
    }
    int got = 0;
    for (; lo < ix->ncolls; lo++) {
        const struct ev_coll *c = &ix->colls[ix->coll_sorted[lo]];
        if (c->comm != comm || c->instance != k)
            break;
        if (got < max)
            out[got] = ix->coll_sorted[lo];
        got++;
    }
    return got;
}

/* Probe/Iprobe at rank R's event N: the send it saw, or -1. */
static int32_t probed_send(struct ev_run *x, int rank, uint64_t n)
{
    struct ev_index *ix = x->ix;
    struct log_event ev;
    int32_t st[LOG_ST_N], flag = 1;
    struct log_field f;
    if (ev_event(x, rank, n, &ev, NULL, 0) < 0 ||
        ev__fn(ix, ev.fn)->cls != EV__C_PROBE || ev.ret != 0)
        return -1;
    if (log_event_find(&ev, 3, LOG_F_RAW, &f) && f.len == 4)
        memcpy(&flag, f.data, 4);
    if (!flag || !ev__first_status(&ev, st) || st[LOG_ST_SOURCE] < 0 ||
        st[LOG_ST_TAG] < 0)
        return -1;
    int side, ci = ev__fn(ix, ev.fn)->comm;
    int64_t a[8];
    if (ci < 0 || ci >= 8 || log_event_args(&ev, a, 8) <= ci)
        return -1;
    int32_t comm = ev_comm_of(x, rank, n, (uint32_t)a[ci], &side);
    int32_t src = ev__world_of(ix, comm, side, st[LOG_ST_SOURCE]);
    int32_t c = src < 0 ? -1
                        : ev__chan_of(ix, comm, src, rank, st[LOG_ST_TAG], 0);
    if (c < 0)
        return -1;
    /* The message the next receive would get: after those that receives
     * ordered before the probe took. */
    const struct ev__chan *ch = &ix->chans[c];
    uint32_t k = 0;
    while (k < ch->r_n && ev__m_order(ix, ix->rorder[ch->r_first + k]) < n)
        k++;
    return k < ch->s_n ? ix->sorder[ch->s_first + k] : -1;
}

int ev_partners(struct ev_run *x, int rank, uint64_t n, struct ev_ref *out,
                int max, char *err, size_t errlen)
{
    struct log_event ev;
    if (ev_event(x, rank, n, &ev, err, errlen) < 0)
        return -1;
    if (ev_build(x, err, errlen) < 0)
        return -1;
    struct ev_index *ix = x->ix;
    struct ev_use small[16], *use = small;
    int nu = ev_uses(x, rank, n, small, 16);
    if (nu > 16) {
        if (!(use = malloc((size_t)nu * sizeof *use))) {
            log_errf(err, errlen, "out of memory");
            return -1;
        }
        ev_uses(x, rank, n, use, nu);
    }
    int k = 0, about = nu > 0;
    for (int u = 0; u < nu; u++) {
        if (use[u].role == EV_COLL || use[u].role == EV_COLL_DONE) {
            const struct ev_coll *c = &ix->colls[use[u].i];
            if (c->comm < 0)
                continue;
            int32_t mem[64], *mp = mem;
            int nm = ev_instance(x, c->comm, c->instance, mem, 64);
            if (nm > 64 && (mp = malloc((size_t)nm * sizeof *mp)))
                ev_instance(x, c->comm, c->instance, mp, nm);
            for (int j = 0; j < nm && mp; j++, k++)
                if (k < max) {
                    const struct ev_coll *o = &ix->colls[mp[j]];
                    memset(&out[k], 0, sizeof out[k]);
                    out[k].kind = EV_K_COLL;
                    out[k].rank = o->rank;
                    out[k].event = o->event;
                    out[k].done = o->done;
                    out[k].comm = o->comm;
                    out[k].tag = -1;
                    out[k].bytes = -1;
                    out[k].instance = o->instance;
                    out[k].self = use[u].i;
                    out[k].other = mp[j];
                }
            if (mp != mem)
                free(mp);
            continue;
        }
        int32_t match = ev__m_match(ix, use[u].i);
        if (match >= 0) {
            if (k < max)
                ref_msg(ix, &out[k], use[u].i, match);
            k++;
        }
    }
    if (use != small)
        free(use);
    if (!about) {
        int32_t s = probed_send(x, rank, n);
        if (s >= 0) {
            if (max > 0)
                ref_msg(ix, &out[0], -1, s);
            return 1;
        }
        const struct ev__fninfo *fi = ev__fn(ix, ev.fn);
        if (fi->cls == EV__C_PROBE || fi->cls == EV__C_MPROBE)
            log_errf(err, errlen, "rank %d event %llu (%s) found no message "
                     "to match", rank, (unsigned long long)n,
                     log_func_name(ev.fn));
        else if (fi->cls == EV__C_DONE1 || fi->cls == EV__C_DONEN)
            log_errf(err, errlen, "rank %d event %llu (%s) completed no "
                     "message or collective", rank, (unsigned long long)n,
                     log_func_name(ev.fn));
        else
            log_errf(err, errlen, "rank %d event %llu (%s) has no partner: "
                     "only messages, their completions and collectives "
                     "have", rank, (unsigned long long)n,
                     log_func_name(ev.fn));
        return -1;
    }
    return k;
}

/* ---- queues and counts --------------------------------------------------- */

/* By rank, then event (then index). */
static int cmp_sender(const void *a, const void *b, void *arg)
{
    const struct ev_index *ix = arg;
    int32_t i = *(const int32_t *)a, j = *(const int32_t *)b;
    int32_t xr = ev__m_rank(ix, i), yr = ev__m_rank(ix, j);
    if (xr != yr)
        return xr < yr ? -1 : 1;
    uint64_t xe = ev__m_event(ix, i), ye = ev__m_event(ix, j);
    if (xe != ye)
        return xe < ye ? -1 : 1;
    return (*(const int32_t *)a > *(const int32_t *)b) -
           (*(const int32_t *)a < *(const int32_t *)b);
}

static int push(int32_t **v, size_t *n, size_t *cap, int32_t i)
{
    if (util_grow(v, cap, *n + 1, sizeof **v) < 0)
        return -1;
    (*v)[(*n)++] = i;
    return 0;
}

int ev_pending(struct ev_run *x, int rank, uint64_t n, struct ev_queue *q,
               char *err, size_t errlen)
{
    struct log_event ev;
    size_t capi = 0, capr = 0, capc = 0;
    memset(q, 0, sizeof *q);
    /* N may be the end of the log (after its last event). */
    if ((rank >= 0 && rank < x->world_size && x->ranks[rank].present &&
         n == x->ranks[rank].log.nevents) ? 0
        : ev_event(x, rank, n, &ev, err, errlen) < 0)
        return -1;
    if (ev_build(x, err, errlen) < 0)
        return -1;
    struct ev_index *ix = x->ix;
    int bad = 0;
    for (size_t c = 0; c < ix->nchans && !bad; c++) {
        const struct ev__chan *ch = &ix->chans[c];
        if (ch->dst != rank)
            continue;
        for (uint32_t k = 0; k < ch->s_n && !bad; k++) {
            int32_t si = ix->sorder[ch->s_first + k];
            int32_t ri = ev__m_match(ix, si);
            if (ri < 0 || ev__m_done(ix, ri) == EV_NONE ||
                ev__m_done(ix, ri) >= n)
                bad = push(&q->incoming, &q->nincoming, &capi, si) < 0;
        }
    }
    const struct ev__rank_ix *ri = &ix->r[rank];
    for (size_t k = 0; k < ri->nrefs && ev__ref_event(ix, ri, k) < n && !bad;
         k++) {
        const struct ev__xref rr = ev__ref_at(ix, ri, k), *r = &rr;
        if (r->role == EV_CALL) {
            const struct ev_msg mm = ev__msg(ix, r->i), *m = &mm;
            if ((m->flags & EV_M_NONBLOCKING) && m->event == r->event &&
                (m->done == EV_NONE || m->done >= n))
                bad = push(&q->requests, &q->nrequests, &capr, r->i) < 0;
        } else if (r->role == EV_COLL) {
            const struct ev_coll *c = &ix->colls[r->i];
            if (c->nonblocking && (c->done == EV_NONE || c->done >= n))
                bad = push(&q->colls, &q->ncolls, &capc, r->i) < 0;
        }
    }
    if (bad) {
        ev_queue_release(q);
        log_errf(err, errlen, "out of memory");
        return -1;
    }
    /* No incoming message: the array is NULL, which qsort_r must not get. */
    if (q->nincoming > 1)
        qsort_r(q->incoming, q->nincoming, sizeof *q->incoming, cmp_sender,
                ix);
    return 0;
}

void ev_queue_release(struct ev_queue *q)
{
    free(q->incoming);
    free(q->requests);
    free(q->colls);
    memset(q, 0, sizeof *q);
}

void ev_stats(struct ev_run *x, struct ev_stats *st)
{
    struct ev_index *ix = index_of(x);
    memset(st, 0, sizeof *st);
    if (!ix)
        return;
    for (size_t i = 0; i < ix->nmsgs; i++) {
        int32_t k = (int32_t)i;
        const struct ev_msg mm = {.flags = (uint16_t)ev__m_flags(ix, k),
                                  .match = ev__m_match(ix, k),
                                  .done = ev__m_done(ix, k)},
                            *m = &mm;
        int send = (m->flags & EV_M_SEND) != 0;
        send ? st->sends++ : st->recvs++;
        if (m->match >= 0) {
            st->matched += send;
            continue;
        }
        if (m->flags & (EV_M_PROC_NULL | EV_M_CANCELLED))
            continue;
        if (send)
            st->unmatched_sends++;
        else if (m->done != EV_NONE && !(m->flags & EV_M_NOSTATUS))
            st->unmatched_recvs++;
    }
    st->colls = ix->ncolls;
    for (size_t i = 0; i < ix->ncolls;) {
        const struct ev_coll *c = &ix->colls[ix->coll_sorted[i]];
        size_t j = i;
        while (j < ix->ncolls &&
               ix->colls[ix->coll_sorted[j]].comm == c->comm &&
               ix->colls[ix->coll_sorted[j]].instance == c->instance)
            j++;
        if (c->comm >= 0) {
            const struct ev_comm *cm = &ix->comms[c->comm];
            st->instances++;
            /* Members whose logs exist all have a call. */
            size_t want = 0;
            for (int g = 0; g < cm->na + cm->nb; g++) {
                int32_t w = g < cm->na ? ix->pool[ix->comm_aoff[c->comm] +
                                                  (size_t)g]
                                       : ix->pool[ix->comm_boff[c->comm] +
                                                  (size_t)(g - cm->na)];
                want += w >= 0 && w < x->world_size &&
                        x->ranks[w].present;
            }
            if (j - i < want)
                st->incomplete_instances++;
        }
        i = j;
    }
    st->comms = (int)ix->ncomms;
    st->index_bytes = ev__index_bytes(ix, x);
    for (int r = 0; r < x->world_size; r++)
        if (x->ranks[r].present)
            st->table_bytes += log_rank_table_bytes(&x->ranks[r].log);
}

int ev__wildcard_at(struct ev_run *x, int r, uint64_t e)
{
    struct log_event ev;
    struct ev_brief b;
    int w = 0;
    if (e == EV_NONE || r < 0 || r >= x->world_size ||
        !x->ranks[r].present ||
        log_rank_event(&x->ranks[r].log, e, &ev, NULL, 0) < 0)
        return 0;
    ev_brief_of(&ev, &b);
    if (b.has_peer && b.peer == EV_ANY_SOURCE)
        w |= EV__WILD_SOURCE;
    if (b.has_tag && b.tag == EV_ANY_TAG)
        w |= EV__WILD_TAG;
    return w;
}

/* ---- the call in progress when a log ends --------------------------------- */

const char *ev__comm_name(int32_t comm, char *buf, size_t len)
{
    if (comm == 0)
        return "MPI_COMM_WORLD";
    if (comm < 0)
        return "an unknown communicator";
    snprintf(buf, len, "communicator %d", (int)comm);
    return buf;
}

/* Appends ", NAME V" (ANYNAME for the wildcard ANY) to BUF at *LEN, when
 * the call has the argument. */
static void add_arg(char *buf, size_t size, int *len, const char *name,
                    int32_t v, int32_t any, const char *anyname)
{
    if (v == LOG_CALL_NONE || *len >= (int)size)
        return;
    const char *sep = buf[*len - 1] == '(' ? "" : ", ";
    if (v == any)
        *len += snprintf(buf + *len, size - (size_t)*len, "%s%s", sep,
                         anyname);
    else
        *len += snprintf(buf + *len, size - (size_t)*len, "%s%s %d", sep,
                         name, (int)v);
}

void ev__slot_call(struct ev_index *ix, int fn, const struct log_call_slot *s,
                   int32_t comm, char *buf, size_t size)
{
    const struct ev__fninfo *fi = ev__fn(ix, fn);
    int recv = fi->cls == EV__C_RECV || fi->cls == EV__C_PROBE ||
               fi->cls == EV__C_MPROBE;
    char cb[32];
    int len = snprintf(buf, size, "%s(", log_func_name(fn));
    if (fi->coll) {
        /* a collective's root and op (the slot's peer and tag) */
        const char *on = s->tag == LOG_CALL_NONE
                             ? NULL
                             : log_mpi_handle_name("MPI_Op",
                                                   (uint32_t)s->tag);
        add_arg(buf, size, &len, "root", s->peer, DRDB_MPI_ROOT,
                "MPI_ROOT");
        if (on && len < (int)size)
            len += snprintf(buf + len, size - (size_t)len, "%s%s",
                            buf[len - 1] == '(' ? "" : ", ", on);
        else
            add_arg(buf, size, &len, "op", s->tag, LOG_CALL_NONE, "");
    } else {
        add_arg(buf, size, &len, recv ? "source" : "dest", s->peer,
                EV_ANY_SOURCE, "MPI_ANY_SOURCE");
        add_arg(buf, size, &len, "tag", s->tag, EV_ANY_TAG, "MPI_ANY_TAG");
    }
    add_arg(buf, size, &len, "source", s->peer2, EV_ANY_SOURCE,
            "MPI_ANY_SOURCE");
    add_arg(buf, size, &len, "recvtag", s->tag2, EV_ANY_TAG, "MPI_ANY_TAG");
    if (s->comm && len < (int)size)
        len += snprintf(buf + len, size - (size_t)len, "%s%s",
                        buf[len - 1] == '(' ? "" : ", ",
                        ev__comm_name(comm, cb, sizeof cb));
    if (s->nreq && len < (int)size)
        len += snprintf(buf + len, size - (size_t)len, "%u request%s",
                        (unsigned)s->nreq, s->nreq == 1 ? "" : "s");
    if (len < (int)size)
        snprintf(buf + len, size - (size_t)len, ")");
}

int ev_call_in_progress(struct ev_run *x, int rank, char *buf, size_t len)
{
    struct ev_index *ix = index_of(x);
    struct log_call_slot s;
    buf[0] = '\0';
    if (!ix || rank < 0 || rank >= x->world_size || !x->ranks[rank].present) {
        snprintf(buf, len, "no index of rank %d's log", rank);
        return -1;
    }
    const struct log_rank *lg = &x->ranks[rank].log;
    int got = log_call_in_progress(x->dir, lg, &s);
    if (got < 0 || (got > 0 && s.fn == LOG_CALL_THREADS)) {
        snprintf(buf, len, "%s", got < 0
                 ? "the run does not say which call it was in"
                 : "its threads' calls in progress are not kept");
        return -1;
    }
    if (!got)
        return 0;
    int side = 0;
    int32_t comm = s.comm ? ev_comm_of(x, rank, lg->nevents ? lg->nevents - 1
                                                             : 0,
                                       s.comm, &side)
                          : -1;
    ev__slot_call(ix, (int)s.fn, &s, comm, buf, len);
    return 1;
}
