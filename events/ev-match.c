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
    struct ev_index *ix = p->ix;
    if (util_grow(&ix->msgs, &ix->capmsgs, ix->nmsgs + 1,
                  sizeof *ix->msgs) < 0) {
        ix->oom = 1;
        return -1;
    }
    struct ev_msg *m = &ix->msgs[ix->nmsgs];
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
    return (int32_t)ix->nmsgs++;
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

static int chantab_rehash(struct ev_index *ix)
{
    size_t cap = ix->chantab_cap ? ix->chantab_cap * 2 : 256;
    int32_t *t = malloc(cap * sizeof *t);
    if (!t)
        return -1;
    for (size_t i = 0; i < cap; i++)
        t[i] = -1;
    for (size_t c = 0; c < ix->nchans; c++) {
        const struct ev__chan *ch = &ix->chans[c];
        size_t i = chan_hash(ch->comm, ch->src, ch->dst, ch->tag) & (cap - 1);
        while (t[i] >= 0)
            i = (i + 1) & (cap - 1);
        t[i] = (int32_t)c;
    }
    free(ix->chantab);
    ix->chantab = t;
    ix->chantab_cap = cap;
    return 0;
}

int32_t ev__chan_of(struct ev_index *ix, int32_t comm, int32_t src,
                    int32_t dst, int32_t tag, int create)
{
    if (create && (ix->nchans + 1) * 2 > ix->chantab_cap &&
        chantab_rehash(ix) < 0) {
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

/* qsort_r comparator over message indices; ARG is the message array. */
static int cmp_order(const void *a, const void *b, void *arg)
{
    const struct ev_msg *msgs = arg;
    const struct ev_msg *x = &msgs[*(const int32_t *)a];
    const struct ev_msg *y = &msgs[*(const int32_t *)b];
    if (x->order != y->order)
        return x->order < y->order ? -1 : 1;
    return (*(const int32_t *)a > *(const int32_t *)b) -
           (*(const int32_t *)a < *(const int32_t *)b);
}

/* Sorts V[0..N) by order unless it already is. */
static void sort_by_order(const struct ev_msg *msgs, int32_t *v, size_t n)
{
    for (size_t k = 1; k < n; k++)
        if (msgs[v[k - 1]].order > msgs[v[k]].order ||
            (msgs[v[k - 1]].order == msgs[v[k]].order && v[k - 1] > v[k])) {
            qsort_r(v, n, sizeof *v, cmp_order, (void *)msgs);
            return;
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
    for (size_t i = 0; i < n && !ix->oom; i++) {
        int32_t src, dst;
        struct ev_msg *m = &ix->msgs[i];
        chan[i] = -1;
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
        sort_by_order(ix->msgs, ix->sorder + ch->s_first, ch->s_n);
        sort_by_order(ix->msgs, ix->rorder + ch->r_first, ch->r_n);
        uint32_t k = ch->s_n < ch->r_n ? ch->s_n : ch->r_n;
        for (uint32_t j = 0; j < k; j++) {
            int32_t si = ix->sorder[ch->s_first + j];
            int32_t ri = ix->rorder[ch->r_first + j];
            ix->msgs[si].match = ri;
            ix->msgs[ri].match = si;
        }
    }
}
