/*
 * The requests of the rank being read (ev-int.h: struct ev__req): what each
 * live request handle stands for (a nonblocking message, a persistent
 * template, a nonblocking or persistent collective, a matched Imrecv), and
 * what its completion means: the message it completes, with the status a
 * Wait/Test-family record logged; a persistent request's instances, started
 * by MPI_Start or by a Startall; the messages MPI_Mprobe matched, taken by
 * their receive. Handles are reused, so a handle names its latest request.
 * What goes wrong with a request (a copy of a completed request's handle
 * waited on again, a persistent request started while active) and what is
 * left live at the end of the log are noted as issues (ev_req_issue).
 */
#include <stdlib.h>
#include <string.h>

#include "ev-int.h"

int32_t ev__req_new(struct ev__pass *p, uint32_t h, int type, uint64_t event)
{
    int32_t i;
    if (!h || h == EV_REQUEST_NULL)
        return -1;
    if (p->nfree)
        i = p->rq_free[--p->nfree];
    else {
        if (util_grow(&p->rq, &p->caprq, p->nrq + 1, sizeof *p->rq) < 0) {
            p->ix->oom = 1;
            return -1;
        }
        i = (int32_t)p->nrq++;
    }
    struct ev__req *q = &p->rq[i];
    memset(q, 0, sizeof *q);
    q->handle = h;
    q->type = type;
    q->m0 = q->m1 = q->coll = q->op = -1;
    q->event = q->last_done = event;
    q->started = EV_NONE;
    struct ev__rqent *e = util_htab_find(&p->reqs, (int32_t)h);
    /* A handle in use again means its former request is gone (a leaked or
     * freed one), except MPICH's builtin handles, which several completed
     * requests share. */
    if (e && !DRDB_MPI_HANDLE_BUILTIN(h)) {
        for (int32_t j = e->v; j >= 0; j = p->rq[j].next) {
            if (util_grow(&p->rq_free, &p->capfree, p->nfree + 1,
                          sizeof *p->rq_free) < 0) {
                p->ix->oom = 1;
                break;
            }
            p->rq_free[p->nfree++] = j;
        }
        e->v = -1;
    }
    q->next = e ? e->v : -1;
    if (e) {
        e->v = i;
    } else {
        struct ev__rqent n = {(int32_t)h, i, EV_NONE, EV_NONE};
        if (util_htab_put(&p->reqs, &n) < 0)
            p->ix->oom = 1;
    }
    return i;
}

int32_t ev__req_find(struct ev__pass *p, uint32_t h)
{
    const struct ev__rqent *e = util_htab_find(&p->reqs, (int32_t)h);
    int32_t i = e ? e->v : -1;
    /* Live requests that share a builtin handle (MPICH's, of operations
     * complete at once: every MPI_Rput of a loop) are completed oldest
     * first, as MPI_Waitany takes the lowest index of identical handles
     * and programs wait in the order they started: the newest first kept
     * the first one pending after the wait that completed it
     * (buf.overlap's false alarms). */
    if (i >= 0 && DRDB_MPI_HANDLE_BUILTIN(h))
        while (p->rq[i].next >= 0)
            i = p->rq[i].next;
    return i;
}

void ev__req_drop(struct ev__pass *p, int32_t i, uint64_t event)
{
    struct ev__rqent *e = util_htab_find(&p->reqs, (int32_t)p->rq[i].handle);
    if (!e)
        return;
    e->made = p->rq[i].event;
    e->gone = event;
    int32_t *head = &e->v;
    if (*head == i)
        *head = p->rq[i].next;
    else
        for (int32_t j = *head; j >= 0; j = p->rq[j].next)
            if (p->rq[j].next == i) {
                p->rq[j].next = p->rq[i].next;
                break;
            }
    if (util_grow(&p->rq_free, &p->capfree, p->nfree + 1,
                  sizeof *p->rq_free) < 0) {
        p->ix->oom = 1;
        return;
    }
    p->rq_free[p->nfree++] = i;
}

uint32_t ev__out_handle(const struct log_event *ev, int arg)
{
    struct log_field f;
    size_t cur = 0;
    uint32_t h;
    if (arg < 0)
        return 0;
    while (log_event_next_stored(ev, &cur, &f) == 1) {
        if (f.arg != (unsigned)arg)
            continue;
        if (f.kind == LOG_F_HANDLE && log_field_handle(&f, &h) == 0)
            return h;
        if (f.kind == LOG_F_RAW && f.len == 4) {
            memcpy(&h, f.data, 4);
            return h;
        }
    }
    return 0;
}

/* ---- what goes wrong ----------------------------------------------------- */

static void issue(struct ev__pass *p, int kind, uint64_t event,
                  const struct ev__req *q, uint64_t prev, uint32_t h)
{
    struct ev_index *ix = p->ix;
    if (util_grow(&ix->rqis, &ix->caprqis, ix->nrqis + 1,
                  sizeof *ix->rqis) < 0) {
        ix->oom = 1;
        return;
    }
    struct ev_req_issue *is = &ix->rqis[ix->nrqis++];
    memset(is, 0, sizeof *is);
    is->kind = kind;
    is->rank = p->rank;
    is->event = event;
    is->made = q ? q->event : EV_NONE;
    is->prev = prev;
    is->handle = h;
    is->persistent = q && (q->type == EV__RQ_PSEND ||
                           q->type == EV__RQ_PRECV ||
                           q->type == EV__RQ_PCOLL ||
                           q->type == EV__RQ_PPART);
    is->active = q && (!is->persistent || q->active);
}

/* A call at EVENT names handle H, which no live request has: when an
 * earlier call completed or freed a request with this handle, the program
 * used a copy of it (a handle never seen is left alone: its request may
 * come from a call the index does not follow). MPICH's builtin request
 * handles (of operations complete at once) are no exception: the first
 * completion made the program's handle MPI_REQUEST_NULL. */
static void dead_handle(struct ev__pass *p, uint32_t h, uint64_t event)
{
    if (!h || h == EV_REQUEST_NULL)
        return;
    const struct ev__rqent *e = util_htab_find(&p->reqs, (int32_t)h);
    if (!e || e->gone == EV_NONE)
        return;
    struct ev__req q = {.event = e->made};
    issue(p, EV_RQ_DEAD, event, &q, e->gone, h);
    p->ix->rqis[p->ix->nrqis - 1].active = 0;
}

void ev__req_free(struct ev__pass *p, uint32_t h, uint64_t event)
{
    int32_t qi = ev__req_find(p, h);
    if (qi >= 0) {
        /* An active operation goes on; the program learns it is over only
         * from other messages (buf.overlap). */
        const int32_t ms[2] = {p->rq[qi].m0, p->rq[qi].m1};
        for (int i = 0; i < 2; i++)
            if (ms[i] >= 0 && ev__pmsg(p, ms[i])->done == EV_NONE)
                ev__pmsg(p, ms[i])->flags |= EV_M_FREED;
        if (p->rq[qi].op >= 0)
            p->ix->ops[p->rq[qi].op].done = event;
        ev__req_drop(p, qi, event);
    } else
        dead_handle(p, h, event);
}

static int cmp_issue(const void *a, const void *b)
{
    const struct ev_req_issue *x = a, *y = b;
    return (x->event > y->event) - (x->event < y->event);
}

void ev__req_live_at_end(struct ev__pass *p)
{
    struct util_htab *t = &p->reqs;
    size_t n0 = p->ix->nrqis;
    for (size_t s = 0; s < t->cap; s++) {
        const struct ev__rqent *e = (const void *)(t->v + s * t->esize);
        if (e->h == t->null)
            continue;
        for (int32_t j = e->v; j >= 0; j = p->rq[j].next) {
            const struct ev__req *q = &p->rq[j];
            issue(p, EV_RQ_LIVE, q->event, q, q->active ? q->started
                                                         : EV_NONE,
                  q->handle);
        }
    }
    /* By event, as the other issues are (a loop may leak thousands). */
    qsort(p->ix->rqis + n0, p->ix->nrqis - n0, sizeof *p->ix->rqis,
          cmp_issue);
}

/* ---- persistent requests ------------------------------------------------- */

/* A persistent request's instance, started at EVENT by function FN. */
static int32_t instance_new(struct ev__pass *p, struct ev__req *q,
                            uint64_t event, int fn)
{
    int32_t mi = ev__msg_new(p, event, fn, q->send);
    if (mi < 0)
        return -1;
    struct ev_msg *m = ev__pmsg(p, mi);
    m->flags |= EV_M_NONBLOCKING | EV_M_PERSISTENT;
    m->count = q->count;
    m->datatype = q->datatype;
    m->done = EV_NONE;
    m->init = q->event;
    if (q->send) {
        m->tag = q->tag;
        ev__send_peer(p, m, q->comm, q->side, q->peer_local);
    } else {
        ev__recv_posted(p, m, q->comm, q->side, q->peer_local, q->tag);
    }
    ev__ref_add(p, event, EV_CALL, mi);
    return mi;
}

void ev__req_start(struct ev__pass *p, uint32_t h, uint64_t event, int fn,
                   int ok)
{
    int32_t qi = ev__req_find(p, h);
    if (qi < 0) {
        dead_handle(p, h, event);
        return;
    }
    struct ev__req *q = &p->rq[qi];
    if (q->active)
        issue(p, EV_RQ_RESTART, event, q, q->started, h);
    if (!ok)
        return;
    q->started = event;
    if (q->type == EV__RQ_PCOLL || q->type == EV__RQ_PPART) {
        q->active = 1;
        return;
    }
    if (q->type != EV__RQ_PSEND && q->type != EV__RQ_PRECV)
        return;
    int32_t mi = instance_new(p, q, event, fn);
    if (mi < 0)
        return;
    p->rq[qi].m0 = mi;
    p->rq[qi].active = 1;
}

void ev__startall_unlisted(struct ev__pass *p, uint64_t event, int count,
                           int fn)
{
    if (count > 0 &&
        util_grow(&p->sa, &p->capsa, p->nsa + 1, sizeof *p->sa) == 0)
        p->sa[p->nsa++] = (struct ev__startall){event, count, fn};
}

/* An inactive persistent request completed: the Startall (after its last
 * completion) that started it, or NULL when none did (a Wait on an
 * inactive request). */
static const struct ev__startall *startall_take(struct ev__pass *p,
                                                uint64_t after)
{
    for (size_t k = p->nsa; k-- > 0;) {
        struct ev__startall *s = &p->sa[k];
        if (s->event <= after)
            break;
        if (s->left > 0) {
            s->left--;
            return s;
        }
    }
    return NULL;
}

/* ---- completions --------------------------------------------------------- */

/* Completes message MI at EVENT (element ELEM of the call's arrays) with
 * status ST (NULL when not logged). */
static void msg_done(struct ev__pass *p, int32_t mi, uint64_t event,
                     uint64_t elem, const int32_t *st, int side)
{
    struct ev_msg *m = ev__pmsg(p, mi);
    m->done = event;
    m->done_elem = (uint32_t)elem;
    if (m->flags & EV_M_SEND) {
        if (st && log_status_cancelled(st))
            m->flags |= EV_M_CANCELLED;
    } else if (st) {
        ev__recv_status(p, m, side, st);
    }
    ev__ref_add(p, event, EV_DONE, mi);
}

int32_t ev__probed_take(struct ev__pass *p, const int32_t *st)
{
    size_t k = 0;
    if (!p->nprobed)
        return -1;
    if (st)
        for (size_t j = 0; j < p->nprobed; j++) {
            const struct ev_msg *m = ev__pmsg(p, p->probed[j]);
            if (m->peer_local == st[LOG_ST_SOURCE] &&
                m->tag == st[LOG_ST_TAG]) {
                k = j;
                break;
            }
        }
    int32_t mi = p->probed[k];
    memmove(p->probed + k, p->probed + k + 1,
            (p->nprobed - k - 1) * sizeof *p->probed);
    p->nprobed--;
    return mi;
}

/* The request H completed at EVENT (element ELEM), with status ST or
 * NULL. */
static void complete(struct ev__pass *p, uint32_t h, uint64_t event,
                     uint64_t elem, const int32_t *st)
{
    int32_t qi = ev__req_find(p, h);
    if (qi < 0) {
        dead_handle(p, h, event);
        return;
    }
    struct ev__req *q = &p->rq[qi];
    switch (q->type) {
    case EV__RQ_P2P:
        if (q->m0 >= 0)
            msg_done(p, q->m0, event, elem, q->m1 >= 0 ? NULL : st,
                     q->side);
        /* An MPI_Isendrecv(_replace): MPICH 4.0.2 leaves its request's
         * status empty (source 0, tag 0: docs/log-format.md), so its receive
         * keeps the source and tag it was posted with. */
        if (q->m1 >= 0)
            msg_done(p, q->m1, event, elem, NULL, q->side);
        ev__req_drop(p, qi, event);
        break;
    case EV__RQ_IMRECV: {
        int32_t mi = ev__probed_take(p, st);
        if (mi >= 0) {
            struct ev_msg *m = ev__pmsg(p, mi);
            m->event = q->event;
            m->fn = (uint16_t)q->fn;
            m->count = q->count;
            m->datatype = q->datatype;
            m->flags |= EV_M_NONBLOCKING;
            ev__ref_add(p, q->event, EV_CALL, mi);
            ev__ref_add(p, event, EV_DONE, mi);
            m->done = event;
            m->done_elem = (uint32_t)elem;
        }
        ev__req_drop(p, qi, event);
        break;
    }
    case EV__RQ_PSEND:
    case EV__RQ_PRECV: {
        int32_t mi = -1;
        if (q->active) {
            mi = q->m0;
        } else if (!(q->type == EV__RQ_PRECV && st &&
                     st[LOG_ST_SOURCE] == EV_ANY_SOURCE &&
                     st[LOG_ST_TAG] == EV_ANY_TAG)) {
            const struct ev__startall *sa = startall_take(p, q->last_done);
            if (sa)
                mi = instance_new(p, q, sa->event, sa->fn);
        }
        q->active = 0;
        if (mi >= 0) {
            q->last_done = event;
            msg_done(p, mi, event, elem, st, q->side);
        }
        break;
    }
    case EV__RQ_COLL:
        if (q->coll >= 0) {
            p->ix->colls[q->coll].done = event;
            p->ix->colls[q->coll].done_elem = (uint32_t)elem;
            ev__ref_add(p, event, EV_COLL_DONE, q->coll);
        }
        ev__req_drop(p, qi, event);
        break;
    case EV__RQ_PCOLL:
    case EV__RQ_PPART:
        if (q->active)
            q->active = 0;
        else if (!startall_take(p, q->last_done))
            break;
        q->last_done = event;
        break;
    default:
        if (q->op >= 0)
            p->ix->ops[q->op].done = event;
        ev__req_drop(p, qi, event);
        break;
    }
}

/* A completion record, read through log/'s codec (log_done_next_stored):
 * each request it names completes. A malformed completion is passed over
 * and the fields after it are read, unless the reader cannot go on. */
void ev__completions(struct ev__pass *p, const struct log_event *ev,
                     unsigned arg)
{
    struct log_done d;
    struct log_field other;
    size_t cur = 0, at;
    int rc;
    do {
        at = cur;
        rc = log_done_next_stored(ev, &cur, arg, &d, &other);
        if (rc == 1)
            complete(p, d.request, ev->index, d.elem,
                     d.has_status ? d.status : NULL);
    } while (rc > 0 || (rc < 0 && cur != at));
}
