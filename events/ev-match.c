/*
 * Messages and their matching (events.h: struct ev_msg; the rules in
 * docs/events.md). While a rank's log is read, each send or receive becomes
 * one message instance whose peer and tag come from its arguments or, for a
 * receive, from its status once it has one. After every rank is read, the
 * messages that can match fall into channels (communicator, sender,
 * receiver, tag), and MPI's non-overtaking rule pairs them: the k-th send
 * of a channel matches its k-th receive, in the order MPI matched them.
 */
#include <stdlib.h>
#include <string.h>

#include "ev-int.h"
#include "log-abi.h"

/* ---- message instances of the rank being read ---------------------------- */

int32_t ev__msg_new(struct ev__pass *p, uint64_t event, int fn, int send)
{
    if (util_grow(&p->cur, &p->capcur, p->ncur + 1, sizeof *p->cur) < 0 ||
        p->mbase + p->ncur >= INT32_MAX) {
        p->ix->oom = 1;
        return -1;
    }
    struct ev_msg *m = &p->cur[p->ncur];
    memset(m, 0, sizeof *m);
    m->event = m->order = m->done = event;
    m->init = EV_NONE;
    m->bytes = -1;
    m->rank = p->rank;
    m->peer = m->peer_local = -1;
    m->tag = -1;
    m->comm = -1;
    m->match = -1;
    m->fn = (uint16_t)fn;
    m->flags = send ? EV_M_SEND : 0;
    return (int32_t)(p->mbase + p->ncur++);
}

/* ---- messages as the index keeps them (struct ev__msg) ---------------- */

_Static_assert(EV_M_FREED <= 0x100u, "EV_M_* fit in EV__MF_PUBLIC");

static uint32_t shape_hash(const struct ev__shape *s)
{
    uint32_t h = util_hash32((uint32_t)s->count ^
                             (uint32_t)((uint64_t)s->count >> 32));
    h = util_hash32(h ^ (uint32_t)s->bytes * 0x9e3779b1u ^
                    (uint32_t)((uint64_t)s->bytes >> 32));
    return util_hash32(h ^ s->datatype);
}

static int shape_same(const struct ev__shape *a, const struct ev__shape *b)
{
    return a->count == b->count && a->bytes == b->bytes &&
           a->datatype == b->datatype;
}

static uint64_t shape_hash_at(const struct ev_index *ix, size_t k)
{
    return shape_hash(&ix->shapes[k]);
}

/* The shape S's id (made when new), or -1 (no memory). */
static int32_t shape_of(struct ev_index *ix, const struct ev__shape *s)
{
    if ((ix->nshapes + 1) * 2 > ix->shapetab_cap &&
        ev__itab_grow(&ix->shapetab, &ix->shapetab_cap, 64, ix, ix->nshapes,
                      shape_hash_at) < 0)
        return -1;
    size_t i = shape_hash(s) & (ix->shapetab_cap - 1);
    for (; ix->shapetab[i] >= 0; i = (i + 1) & (ix->shapetab_cap - 1))
        if (shape_same(&ix->shapes[ix->shapetab[i]], s))
            return ix->shapetab[i];
    if (ix->nshapes >= INT32_MAX ||
        util_grow(&ix->shapes, &ix->capshapes, ix->nshapes + 1,
                  sizeof *ix->shapes) < 0)
        return -1;
    ix->shapes[ix->nshapes] = *s;
    ix->shapetab[i] = (int32_t)ix->nshapes;
    return (int32_t)ix->nshapes++;
}

/* Keeps field F of message I aside (entries come by message, then
 * field). */
static void mesc_add(struct ev_index *ix, size_t i, unsigned f, uint64_t v)
{
    if (util_grow(&ix->mesc, &ix->capmesc, ix->nmesc + 1,
                  sizeof *ix->mesc) < 0) {
        ix->oom = 1;
        return;
    }
    ix->mesc[ix->nmesc++] = (struct ev__mesc){(uint32_t)i, f, v};
}

uint64_t ev__mesc_get(const struct ev_index *ix, int32_t i, unsigned f)
{
    uint64_t key = (uint64_t)(uint32_t)i << 3 | f;
    size_t lo = 0, hi = ix->nmesc;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const struct ev__mesc *e = &ix->mesc[mid];
        if (((uint64_t)e->i << 3 | e->field) < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < ix->nmesc && ix->mesc[lo].i == (uint32_t)i &&
                   ix->mesc[lo].field == f
               ? ix->mesc[lo].v : 0;
}

/* The peer message C's fields say, from side SIDE of its communicator. */
static int32_t peer_from(const struct ev_index *ix, const struct ev__msg *c,
                         int side)
{
    if ((c->flags & (EV_M_PROC_NULL | EV_M_UNKNOWN)) || c->comm < 0)
        return -1;
    return ev__world_of(ix, c->comm, side, c->peer_local);
}

void ev__msgs_keep(struct ev__pass *p)
{
    struct ev_index *ix = p->ix;
    if (util_grow(&ix->msgs, &ix->capmsgs, ix->nmsgs + p->ncur,
                  sizeof *ix->msgs) < 0) {
        ix->oom = 1;
        return;
    }
    for (size_t k = 0; k < p->ncur && !ix->oom; k++) {
        const struct ev_msg *m = &p->cur[k];
        size_t i = ix->nmsgs + k;
        struct ev__msg c;
        memset(&c, 0, sizeof c);
        c.match = m->match;
        c.peer_local = m->peer_local;
        c.tag = m->tag;
        c.comm = m->comm;
        c.fn = m->fn;
        c.flags = m->flags & EV__MF_PUBLIC;
        c.event = (uint32_t)m->event;
        if (m->event >= EV__M32_NONE) {
            c.flags |= EV__MF_EVENT;
            mesc_add(ix, i, EV__MX_EVENT, m->event);
        }
        c.done = m->done == EV_NONE ? EV__M32_NONE : (uint32_t)m->done;
        if (m->done != EV_NONE && m->done >= EV__M32_NONE) {
            c.flags |= EV__MF_DONE;
            mesc_add(ix, i, EV__MX_DONE, m->done);
        }
        if (m->order != m->event) {
            c.flags |= EV__MF_ORDER;
            mesc_add(ix, i, EV__MX_ORDER, m->order);
        }
        if (m->init != EV_NONE) {
            c.flags |= EV__MF_INIT;
            mesc_add(ix, i, EV__MX_INIT, m->init);
        }
        if (peer_from(ix, &c, 0) == m->peer) {
        } else if (peer_from(ix, &c, 1) == m->peer) {
            c.flags |= EV__MF_SIDE;
        } else {
            c.flags |= EV__MF_PEER;
            mesc_add(ix, i, EV__MX_PEER, (uint64_t)(int64_t)m->peer);
        }
        struct ev__shape sh = {m->count, m->bytes, m->datatype};
        int32_t s = shape_of(ix, &sh);
        if (s < 0) {
            ix->oom = 1;
            break;
        }
        c.shape = s < EV__M16_ESC ? (uint16_t)s : EV__M16_ESC;
        if (s >= EV__M16_ESC)
            mesc_add(ix, i, EV__MX_SHAPE, (uint64_t)s);
        c.elem = m->done_elem < EV__M16_ESC ? (uint16_t)m->done_elem
                                            : EV__M16_ESC;
        if (m->done_elem >= EV__M16_ESC)
            mesc_add(ix, i, EV__MX_ELEM, m->done_elem);
        ix->msgs[i] = c;
    }
    ix->nmsgs += p->ncur;
    p->mbase = ix->nmsgs;
    p->ncur = 0;
}

int32_t ev__m_peer(const struct ev_index *ix, int32_t i)
{
    const struct ev__msg *c = &ix->msgs[i];
    return c->flags & EV__MF_PEER
               ? (int32_t)ev__mesc_get(ix, i, EV__MX_PEER)
               : peer_from(ix, c, (c->flags & EV__MF_SIDE) != 0);
}

int32_t ev__m_rank(const struct ev_index *ix, int32_t i)
{
    /* the last rank whose messages start at or before I */
    size_t lo = 0, hi = ix->nranks;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (ix->mfirst[mid] <= (size_t)i)
            lo = mid;
        else
            hi = mid;
    }
    return (int32_t)lo;
}

struct ev_msg ev__msg(const struct ev_index *ix, int32_t i)
{
    const struct ev__msg *c = &ix->msgs[i];
    struct ev_msg m;
    memset(&m, 0, sizeof m);
    m.event = ev__m_event(ix, i);
    m.done = ev__m_done(ix, i);
    m.order = c->flags & EV__MF_ORDER ? ev__mesc_get(ix, i, EV__MX_ORDER)
                                      : m.event;
    m.init = c->flags & EV__MF_INIT ? ev__mesc_get(ix, i, EV__MX_INIT)
                                    : EV_NONE;
    const struct ev__shape *sh =
        &ix->shapes[c->shape == EV__M16_ESC ? ev__mesc_get(ix, i, EV__MX_SHAPE)
                                             : c->shape];
    m.count = sh->count;
    m.bytes = sh->bytes;
    m.datatype = sh->datatype;
    m.rank = ev__m_rank(ix, i);
    m.peer = ev__m_peer(ix, i);
    m.peer_local = c->peer_local;
    m.tag = c->tag;
    m.comm = c->comm;
    m.match = c->match;
    m.done_elem = c->elem == EV__M16_ESC
                      ? (uint32_t)ev__mesc_get(ix, i, EV__MX_ELEM) : c->elem;
    m.fn = c->fn;
    m.flags = c->flags & EV__MF_PUBLIC;
    return m;
}

void ev__send_peer(struct ev__pass *p, struct ev_msg *m, int32_t comm,
                   int side, int32_t dest)
{
    m->comm = comm;
    m->peer_local = dest;
    int64_t sz = log_mpi_type_size(m->datatype);
    m->bytes = sz ? m->count * sz : -1;
    if (dest == EV_PROC_NULL)
        m->flags |= EV_M_PROC_NULL;
    else if ((m->peer = ev__world_of(p->ix, comm, side, dest)) < 0)
        m->flags |= EV_M_UNKNOWN;
}

void ev__recv_status(struct ev__pass *p, struct ev_msg *m, int side,
                     const int32_t st[LOG_ST_N])
{
    m->flags &= (uint16_t)~EV_M_NOSTATUS;
    if (log_status_cancelled(st)) {
        /* MPI leaves the rest of a cancelled receive's status alone. */
        m->flags |= EV_M_CANCELLED;
        return;
    }
    m->flags &= (uint16_t)~EV_M_UNKNOWN;
    m->peer = -1;
    m->peer_local = st[LOG_ST_SOURCE];
    m->tag = st[LOG_ST_TAG];
    m->bytes = log_status_bytes(st);
    if (st[LOG_ST_SOURCE] == EV_PROC_NULL)
        m->flags |= EV_M_PROC_NULL;
    else if (st[LOG_ST_SOURCE] < 0 || st[LOG_ST_TAG] < 0 ||
             (m->peer = ev__world_of(p->ix, m->comm, side,
                                     st[LOG_ST_SOURCE])) < 0)
        m->flags |= EV_M_UNKNOWN;
}

void ev__recv_posted(struct ev__pass *p, struct ev_msg *m, int32_t comm,
                     int side, int32_t source, int32_t tag)
{
    m->comm = comm;
    m->flags |= EV_M_NOSTATUS;
    m->peer_local = source;
    if (source == EV_PROC_NULL) {
        m->flags |= EV_M_PROC_NULL;
        return;
    }
    /* Until a status says otherwise: a specific source and tag are where
     * it stands in its channel; a wildcard is nowhere. */
    m->tag = tag;
    if (source < 0 || tag < 0 ||
        (m->peer = ev__world_of(p->ix, comm, side, source)) < 0) {
        m->peer = -1;
        m->flags |= EV_M_UNKNOWN;
    }
}

int ev__first_status(const struct log_event *ev, int32_t st[LOG_ST_N])
{
    struct log_field f;
    size_t cur = 0;
    while (log_event_next_stored(ev, &cur, &f) == 1)
        if (f.kind == LOG_F_STATUS && log_field_status(&f, st) == 0)
            return 1;
    return 0;
}

/* ---- channels ------------------------------------------------------------ */

static uint32_t chan_hash(int32_t comm, int32_t src, int32_t dst,
                          int32_t tag)
{
    uint32_t h = util_hash32((uint32_t)comm * 0x9e3779b1u ^ (uint32_t)src);
    h = util_hash32(h ^ (uint32_t)dst * 0x85ebca6bu);
    return util_hash32(h ^ (uint32_t)tag);
}

static uint64_t chan_hash_at(const struct ev_index *ix, size_t c)
{
    const struct ev__chan *ch = &ix->chans[c];
    return chan_hash(ch->comm, ch->src, ch->dst, ch->tag);
}

int32_t ev__chan_of(struct ev_index *ix, int32_t comm, int32_t src,
                    int32_t dst, int32_t tag, int create)
{
    if (create && (ix->nchans + 1) * 2 > ix->chantab_cap &&
        ev__itab_grow(&ix->chantab, &ix->chantab_cap, 256, ix, ix->nchans,
                      chan_hash_at) < 0) {
        ix->oom = 1;
        return -1;
    }
    if (!ix->chantab_cap)
        return -1;
    size_t i = chan_hash(comm, src, dst, tag) & (ix->chantab_cap - 1);
    for (; ix->chantab[i] >= 0; i = (i + 1) & (ix->chantab_cap - 1)) {
        const struct ev__chan *ch = &ix->chans[ix->chantab[i]];
        if (ch->comm == comm && ch->src == src && ch->dst == dst &&
            ch->tag == tag)
            return ix->chantab[i];
    }
    if (!create)
        return -1;
    if (util_grow(&ix->chans, &ix->capchans, ix->nchans + 1,
                  sizeof *ix->chans) < 0) {
        ix->oom = 1;
        return -1;
    }
    ix->chans[ix->nchans] = (struct ev__chan){comm, src, dst, tag, 0, 0, 0, 0};
    ix->chantab[i] = (int32_t)ix->nchans;
    return (int32_t)ix->nchans++;
}

/* ---- the matching -------------------------------------------------------- */

/* Whether message M can match at all, and its channel's ends. */
static int matchable(const struct ev_msg *m, int32_t *src, int32_t *dst)
{
    if (m->flags & (EV_M_PROC_NULL | EV_M_CANCELLED | EV_M_UNKNOWN))
        return 0;
    if (m->comm < 0 || m->peer < 0 || m->tag < 0)
        return 0;
    *src = m->flags & EV_M_SEND ? m->rank : m->peer;
    *dst = m->flags & EV_M_SEND ? m->peer : m->rank;
    return 1;
}

/* qsort_r comparator over message indices; ARG is the index. */
static int cmp_order(const void *a, const void *b, void *arg)
{
    const struct ev_index *ix = arg;
    int32_t i = *(const int32_t *)a, j = *(const int32_t *)b;
    uint64_t x = ev__m_order(ix, i), y = ev__m_order(ix, j);
    if (x != y)
        return x < y ? -1 : 1;
    return (i > j) - (i < j);
}

/* Sorts V[0..N) by order unless it already is. */
static void sort_by_order(struct ev_index *ix, int32_t *v, size_t n)
{
    for (size_t k = 1; k < n; k++) {
        uint64_t a = ev__m_order(ix, v[k - 1]), b = ev__m_order(ix, v[k]);
        if (a > b || (a == b && v[k - 1] > v[k])) {
            qsort_r(v, n, sizeof *v, cmp_order, ix);
            return;
        }
    }
}

void ev__match_p2p(struct ev_index *ix)
{
    size_t n = ix->nmsgs;
    int32_t *chan = malloc((n ? n : 1) * sizeof *chan);
    if (!chan) {
        ix->oom = 1;
        return;
    }
    /* Channels and their sizes. */
    for (size_t i = 0, r = 0; i < n && !ix->oom; i++) {
        int32_t src, dst;
        while (ix->mfirst[r + 1] <= i) /* its rank */
            r++;
        const struct ev__msg *c = &ix->msgs[i];
        struct ev_msg mm = {.flags = c->flags & EV__MF_PUBLIC,
                            .comm = c->comm, .tag = c->tag,
                            .rank = (int32_t)r}, *m = &mm;
        chan[i] = -1;
        if (m->flags & (EV_M_PROC_NULL | EV_M_CANCELLED | EV_M_UNKNOWN))
            continue;
        m->peer = ev__m_peer(ix, (int32_t)i);
        if (!matchable(m, &src, &dst))
            continue;
        chan[i] = ev__chan_of(ix, m->comm, src, dst, m->tag, 1);
        if (chan[i] < 0)
            continue;
        if (m->flags & EV_M_SEND)
            ix->chans[chan[i]].s_n++;
        else
            ix->chans[chan[i]].r_n++;
    }
    if (ix->oom) {
        free(chan);
        return;
    }
    uint32_t s = 0, r = 0;
    for (size_t c = 0; c < ix->nchans; c++) {
        ix->chans[c].s_first = s;
        ix->chans[c].r_first = r;
        s += ix->chans[c].s_n;
        r += ix->chans[c].r_n;
        ix->chans[c].s_n = ix->chans[c].r_n = 0;
    }
    /* As long as the sends and receives that fall in channels. */
    ix->sorder = malloc((s ? s : 1) * sizeof *ix->sorder);
    ix->rorder = malloc((r ? r : 1) * sizeof *ix->rorder);
    ix->nsorder = s;
    ix->nrorder = r;
    if (!ix->sorder || !ix->rorder) {
        free(chan);
        ix->oom = 1;
        return;
    }
    for (size_t i = 0; i < n; i++) {
        if (chan[i] < 0)
            continue;
        struct ev__chan *ch = &ix->chans[chan[i]];
        if (ix->msgs[i].flags & EV_M_SEND)
            ix->sorder[ch->s_first + ch->s_n++] = (int32_t)i;
        else
            ix->rorder[ch->r_first + ch->r_n++] = (int32_t)i;
    }
    free(chan);
    /* The k-th send of a channel matches its k-th receive. */
    for (size_t c = 0; c < ix->nchans; c++) {
        struct ev__chan *ch = &ix->chans[c];
        sort_by_order(ix, ix->sorder + ch->s_first, ch->s_n);
        sort_by_order(ix, ix->rorder + ch->r_first, ch->r_n);
        uint32_t k = ch->s_n < ch->r_n ? ch->s_n : ch->r_n;
        for (uint32_t j = 0; j < k; j++) {
            int32_t si = ix->sorder[ch->s_first + j];
            int32_t ri = ix->rorder[ch->r_first + j];
            ix->msgs[si].match = ri;
            ix->msgs[ri].match = si;
        }
    }
}
