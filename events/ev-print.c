/*
 * Printing what events have to do with each other (events.h): the
 * partners of an event (ev_print_match), every match of a run and every
 * collective instance (ev_print_all_matches), what was pending at a point
 * (ev_print_queues); one line each, in words, for `drdb log` and the
 * console.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ev-int.h"

const char *ev_fn_name(int fn)
{
    return log_func_name(fn);
}

/* ---- helpers ------------------------------------------------------------ */

/* The function of rank R's event N ("?" when unreadable). */
static const char *fn_at(struct ev_run *x, int rank, uint64_t n)
{
    int fn = n == EV_NONE ? -1 : ev_fn(x, rank, n);
    return fn < 0 ? "?" : log_func_name(fn);
}

static void comm_str(char *buf, size_t len, int32_t comm)
{
    if (comm < 0)
        snprintf(buf, len, "?");
    else
        snprintf(buf, len, "#%d", comm);
}

/* " on comm #C" unless C is MPI_COMM_WORLD. */
static void on_comm(char *buf, size_t len, int32_t comm)
{
    if (comm == 0)
        buf[0] = '\0';
    else if (comm < 0)
        snprintf(buf, len, " on an unknown communicator");
    else
        snprintf(buf, len, " on comm #%d", comm);
}

/* "from 2 tag 5" / "to 0 tag 5" and what matched: one message's side. */
static void msg_side(struct ev_run *x, char *buf, size_t len,
                     const struct ev_msg *m)
{
    char c[48], peer[32];
    on_comm(c, sizeof c, m->comm);
    if (m->flags & EV_M_PROC_NULL && m->comm < 0)
        c[0] = '\0';
    int send = (m->flags & EV_M_SEND) != 0;
    if (m->flags & EV_M_PROC_NULL)
        snprintf(peer, sizeof peer, "MPI_PROC_NULL");
    else if (m->peer >= 0)
        snprintf(peer, sizeof peer, "%d", m->peer);
    else if (!send && (m->flags & EV_M_NOSTATUS) && m->peer_local < 0)
        snprintf(peer, sizeof peer, "MPI_ANY_SOURCE");
    else
        snprintf(peer, sizeof peer, "?");
    if (m->tag >= 0)
        snprintf(buf, len, "%s %s tag %d%s", send ? "to" : "from", peer,
                 m->tag, c);
    else
        snprintf(buf, len, "%s %s%s", send ? "to" : "from", peer, c);
    (void)x;
}

/* "event 17 MPI_Irecv" for message M's own call (with its init). */
static void msg_call(struct ev_run *x, char *buf, size_t len,
                     const struct ev_msg *m)
{
    if (m->init != EV_NONE)
        snprintf(buf, len, "event %" PRIu64 " %s (of event %" PRIu64 " %s)",
                 m->event, log_func_name(m->fn), m->init,
                 fn_at(x, m->rank, m->init));
    else
        snprintf(buf, len, "event %" PRIu64 " %s", m->event,
                 log_func_name(m->fn));
}

/* Why message M matched nothing. */
static const char *no_match_why(struct ev_run *x, const struct ev_msg *m)
{
    if (m->peer >= 0 && m->peer < x->world_size &&
        !x->ranks[m->peer].present && !(m->flags & EV_M_CANCELLED))
        return m->flags & EV_M_SEND ? "unknown (the receiver was not "
                                      "recorded)"
                                    : "unknown (the sender was not "
                                      "recorded)";
    if (m->flags & EV_M_PROC_NULL)
        return "no message (MPI_PROC_NULL)";
    if (m->flags & EV_M_CANCELLED)
        return "no message (cancelled)";
    if (m->flags & EV_M_SEND) {
        if (m->flags & EV_M_UNKNOWN || m->comm < 0)
            return "unknown (its communicator or destination is unknown)";
        return "no receive took it";
    }
    if (m->flags & EV_M_NOSTATUS)
        return m->peer < 0 ? "unknown (never completed: no status says "
                             "what it matched)"
                           : "no send found (never completed)";
    if (m->flags & EV_M_UNKNOWN || m->comm < 0)
        return "unknown (its communicator or source is unknown)";
    return "no send found";
}

/* One line for message MI as seen from its own side, with its partner:
 * "rank 0 event 17 MPI_Recv from 2 tag 5 <- rank 2 event 9 MPI_Send". AT
 * (when not EV_NONE, and not the message's call) is the event asked
 * about (a completion or probe). */
static void print_msg_line(struct ev_run *x, FILE *out, int32_t mi,
                           uint64_t at, const char *at_fn)
{
    struct ev_msg m_buf;
    const struct ev_msg *m = ev_msg_at(x, mi, &m_buf);
    char side[96], call[160];
    msg_side(x, side, sizeof side, m);
    msg_call(x, call, sizeof call, m);
    int send = (m->flags & EV_M_SEND) != 0;
    if (at != EV_NONE && at != m->event)
        fprintf(out, "rank %d event %" PRIu64 " %s: ", m->rank, at, at_fn);
    fprintf(out, "rank %d %s %s %s ", m->rank, call, side,
            send ? "->" : "<-");
    if (m->match < 0) {
        fprintf(out, "%s\n", no_match_why(x, m));
        return;
    }
    struct ev_msg o_buf;
    const struct ev_msg *o = ev_msg_at(x, m->match, &o_buf);
    char ocall[160];
    msg_call(x, ocall, sizeof ocall, o);
    fprintf(out, "rank %d %s", o->rank, ocall);
    const struct ev_msg *r = send ? o : m;
    if (r->bytes >= 0)
        fprintf(out, " (%" PRId64 " bytes)", r->bytes);
    /* When the receive completed, if not in its own call. */
    if (r->done != r->event) {
        if (r->done == EV_NONE)
            fprintf(out, ", never completed");
        else
            fprintf(out, ", completed by event %" PRIu64 " %s", r->done,
                    fn_at(x, r->rank, r->done));
    }
    fputc('\n', out);
}

/* "MPI_Allreduce instance 3 of comm #2: rank 0 event 12, ..." */
static void print_instance(struct ev_run *x, FILE *out, int32_t comm,
                           int32_t k)
{
    int32_t small[64], *v = small;
    int n = ev_instance(x, comm, k, small, 64);
    if (n > 64) {
        if (!(v = malloc((size_t)n * sizeof *v)))
            return;
        ev_instance(x, comm, k, v, n);
    }
    if (n <= 0)
        return;
    int same = 1;
    for (int i = 1; i < n; i++)
        same &= ev_coll_at(x, v[i])->fn == ev_coll_at(x, v[0])->fn;
    if (same)
        fprintf(out, "%s ", log_func_name(ev_coll_at(x, v[0])->fn));
    fprintf(out, "instance %d of comm #%d:", k, comm);
    for (int i = 0; i < n; i++) {
        const struct ev_coll *c = ev_coll_at(x, v[i]);
        fprintf(out, "%s rank %d event %" PRIu64, i ? "," : "", c->rank,
                c->event);
        if (!same)
            fprintf(out, " %s", log_func_name(c->fn));
        if (c->nonblocking && c->done != EV_NONE)
            fprintf(out, " (completed by event %" PRIu64 ")", c->done);
    }
    /* Members whose logs exist but that have no call of this instance. */
    const struct ev_comm *cm = ev_comm_at(x, comm);
    int missing = 0;
    for (int g = 0; cm && g < cm->na + cm->nb; g++) {
        int32_t w = g < cm->na ? cm->a[g] : cm->b[g - cm->na];
        if (w < 0 || w >= x->world_size || !x->ranks[w].present)
            continue;
        int found = 0;
        for (int i = 0; i < n && !found; i++)
            found = ev_coll_at(x, v[i])->rank == w;
        if (!found)
            fprintf(out, "%s%d", missing++ ? "," : "; no call at rank ", w);
    }
    fputc('\n', out);
    if (v != small)
        free(v);
}

int ev_print_match(struct ev_run *x, FILE *out, int rank, uint64_t n,
                   char *err, size_t errlen)
{
    struct log_event ev;
    if (ev_event(x, rank, n, &ev, err, errlen) < 0 ||
        ev_build(x, err, errlen) < 0)
        return -1;
    struct ev_use small[16], *use = small;
    int nu = ev_uses(x, rank, n, small, 16);
    if (nu > 16) {
        if (!(use = malloc((size_t)nu * sizeof *use))) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        ev_uses(x, rank, n, use, nu);
    }
    const char *fn = log_func_name(ev.fn);
    for (int u = 0; u < nu; u++) {
        if (use[u].role == EV_COLL || use[u].role == EV_COLL_DONE) {
            const struct ev_coll *c = ev_coll_at(x, use[u].i);
            if (use[u].role == EV_COLL_DONE)
                fprintf(out, "rank %d event %" PRIu64 " %s completes event "
                        "%" PRIu64 " %s: ", rank, n, fn, c->event,
                        log_func_name(c->fn));
            if (c->comm < 0)
                fprintf(out, "rank %d event %" PRIu64 " %s: on an unknown "
                        "communicator\n", rank, c->event,
                        log_func_name(c->fn));
            else
                print_instance(x, out, c->comm, c->instance);
            continue;
        }
        if (use[u].role == EV_PROBE) {
            struct ev_msg m_buf;
            const struct ev_msg *m = ev_msg_at(x, use[u].i, &m_buf);
            char side[96];
            msg_side(x, side, sizeof side, m);
            fprintf(out, "rank %d event %" PRIu64 " %s matched a message "
                    "%s <- ", rank, n, fn, side);
            if (m->match >= 0) {
                struct ev_msg o_buf;
                const struct ev_msg *o = ev_msg_at(x, m->match, &o_buf);
                char ocall[160];
                msg_call(x, ocall, sizeof ocall, o);
                fprintf(out, "rank %d %s", o->rank, ocall);
            } else {
                fprintf(out, "%s", no_match_why(x, m));
            }
            if (m->event != n)
                fprintf(out, "; received by event %" PRIu64 " %s",
                        m->event, log_func_name(m->fn));
            else
                fprintf(out, "; never received");
            fputc('\n', out);
            continue;
        }
        print_msg_line(x, out, use[u].i, n, fn);
    }
    if (use != small)
        free(use);
    if (nu > 0)
        return 0;
    /* A Probe/Iprobe: the message it saw. */
    struct ev_ref ref;
    int k = ev_partners(x, rank, n, &ref, 1, err, errlen);
    if (k < 0)
        return 1;
    struct ev_msg s_buf;
    const struct ev_msg *s = ev_msg_at(x, ref.other, &s_buf);
    char side[96], call[160];
    msg_call(x, call, sizeof call, s);
    msg_side(x, side, sizeof side, s);
    fprintf(out, "rank %d event %" PRIu64 " %s sees rank %d %s %s", rank, n,
            fn, s->rank, call, side);
    if (s->match >= 0) {
        struct ev_msg r_buf;
        const struct ev_msg *r = ev_msg_at(x, s->match, &r_buf);
        fprintf(out, "; received by event %" PRIu64 " %s", r->event,
                log_func_name(r->fn));
    }
    fputc('\n', out);
    return 0;
}

void ev_print_all_matches(struct ev_run *x, FILE *out)
{
    size_t nm = ev_nmsgs(x);
    for (size_t i = 0; i < nm; i++) {
        struct ev_msg m_buf;
        const struct ev_msg *m = ev_msg_at(x, (int32_t)i, &m_buf);
        if (!(m->flags & EV_M_SEND) || m->match < 0)
            print_msg_line(x, out, (int32_t)i, EV_NONE, "");
    }
    int nc = ev_ncomms(x);
    for (int c = 0; c < nc; c++)
        for (int k = 0;; k++) {
            int32_t one;
            if (ev_instance(x, c, k, &one, 1) <= 0)
                break;
            print_instance(x, out, c, k);
        }
}

/* ---- queues ------------------------------------------------------------- */

/* One pending request of rank R: the call that started it, its peer and
 * tag, its communicator, the call that completed it. */
static void print_pending(struct ev_run *x, FILE *out, int rank,
                          uint64_t event, int fn, const char *peer,
                          const char *tag, int32_t comm, uint64_t done)
{
    char c[16], by[80];
    comm_str(c, sizeof c, comm);
    if (done == EV_NONE)
        snprintf(by, sizeof by, "never");
    else
        snprintf(by, sizeof by, "event %" PRIu64 " %s", done,
                 fn_at(x, rank, done));
    fprintf(out, "  %9" PRIu64 "  %-18s %6s %6s %-5s %s\n", event,
            log_func_name(fn), peer, tag, c, by);
}

/* One incoming message S of the queues' first list (SENT: "before",
 * "concurrent") or of their second (SENT NULL). */
static void print_incoming(struct ev_run *x, FILE *out, int rank,
                           const struct ev_msg *s, const char *sent)
{
    struct ev_msg r_buf;
    const struct ev_msg *r = s->match >= 0 ? ev_msg_at(x, s->match, &r_buf)
                                           : NULL;
    int64_t bytes = r && r->bytes >= 0 ? r->bytes : s->bytes;
    char comm[16], by[96], b[24];
    comm_str(comm, sizeof comm, s->comm);
    if (bytes >= 0)
        snprintf(b, sizeof b, "%" PRId64, bytes);
    else
        snprintf(b, sizeof b, "?");
    if (!r)
        snprintf(by, sizeof by, "none");
    else if (r->done == EV_NONE)
        snprintf(by, sizeof by, "event %" PRIu64 " %s, never completed",
                 r->event, log_func_name(r->fn));
    else if (r->done != r->event)
        snprintf(by, sizeof by, "event %" PRIu64 " %s (posted event "
                 "%" PRIu64 " %s)", r->done, fn_at(x, rank, r->done),
                 r->event, log_func_name(r->fn));
    else
        snprintf(by, sizeof by, "event %" PRIu64 " %s", r->event,
                 log_func_name(r->fn));
    fprintf(out, "  %5d %9" PRIu64 "  %-18s %6d %-5s %9s ", s->rank,
            s->event, log_func_name(s->fn), s->tag, comm, b);
    if (sent)
        fprintf(out, "%-10s ", sent);
    fprintf(out, "%s\n", by);
}

int ev_print_queues(struct ev_run *x, FILE *out, int rank, uint64_t n,
                    char *err, size_t errlen)
{
    struct ev_queue q;
    if (ev_pending(x, rank, n, &q, err, errlen) < 0)
        return -1;
    /* Where: before event N, or at the end of the log (N its count), in
     * the call the recorded rank never returned from (its slot). */
    char at[48], call[300];
    uint64_t nev = x->ranks[rank].log.nevents;
    if (n == nev) {
        snprintf(at, sizeof at, "at the end of its log");
        int got = ev_call_in_progress(x, rank, call, sizeof call);
        if (got > 0)
            fprintf(out, "rank %d at the end of its log, in %s (the call "
                    "the recorded rank never returned from)\n", rank, call);
        else if (got == 0)
            fprintf(out, "rank %d at the end of its log, in no MPI call\n",
                    rank);
        else
            fprintf(out, "rank %d at the end of its log (its call then is "
                    "not known: %s)\n", rank, call);
    } else {
        snprintf(at, sizeof at, "before event %" PRIu64, n);
        fprintf(out, "rank %d before event %" PRIu64 " (%s)\n", rank, n,
                fn_at(x, rank, n));
    }
    /* The messages whose receive completes at or after N split by
     * happened-before: sent before N (or concurrently: no order between
     * the send and N), and sent after N (the send follows N causally:
     * in no execution was it sent at N). */
    struct ev__causal *k = ev__causal_build(x);
    int64_t *past = calloc((size_t)x->world_size + 1, sizeof *past),
            *fut = calloc((size_t)x->world_size + 1, sizeof *fut);
    unsigned char *cls = calloc(q.nincoming + 1, 1); /* 0 before, 1 either,
                                                     * 2 after */
    if (!k || !past || !fut || !cls) {
        ev__causal_free(k);
        free(past), free(fut), free(cls);
        ev_queue_release(&q);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    memcpy(past, ev__causal_walk(k, x, rank, n, 0),
           (size_t)x->world_size * sizeof *past);
    memcpy(fut, ev__causal_walk(k, x, rank, n, 1),
           (size_t)x->world_size * sizeof *fut);
    past[rank] = (int64_t)n - 1; /* (a walk's own rank is N itself) */
    fut[rank] = (int64_t)n + 1;
    ev__causal_free(k);
    size_t nafter = 0;
    for (size_t i = 0; i < q.nincoming; i++) {
        struct ev_msg s_buf;
        const struct ev_msg *s = ev_msg_at(x, q.incoming[i], &s_buf);
        cls[i] = (int64_t)s->event <= past[s->rank]  ? 0
                 : (int64_t)s->event >= fut[s->rank] ? 2 : 1;
        nafter += cls[i] == 2;
    }
    if (n == nev)
        fprintf(out, "messages sent to rank %d and not received by the end "
                "of its log: %zu\n", rank, q.nincoming - nafter);
    else
        fprintf(out, "messages sent to rank %d before event %" PRIu64 " (or "
                "concurrently) and not received before it: %zu\n", rank, n,
                q.nincoming - nafter);
    if (q.nincoming > nafter)
        fprintf(out, "  %5s %9s  %-18s %6s %-5s %9s %-10s %s\n", "from",
                "event", "function", "tag", "comm", "bytes", "sent",
                "received by");
    for (size_t i = 0; i < q.nincoming; i++) {
        struct ev_msg s_buf;
        if (cls[i] != 2)
            print_incoming(x, out, rank, ev_msg_at(x, q.incoming[i], &s_buf),
                           cls[i] ? "concurrent" : "before");
    }
    if (nafter) {
        fprintf(out, "messages to rank %d sent after event %" PRIu64 " (their "
                "send follows it causally), received after it: %zu\n", rank,
                n, nafter);
        fprintf(out, "  %5s %9s  %-18s %6s %-5s %9s %s\n", "from", "event",
                "function", "tag", "comm", "bytes", "received by");
    }
    for (size_t i = 0; i < q.nincoming; i++) {
        struct ev_msg s_buf;
        if (cls[i] == 2)
            print_incoming(x, out, rank, ev_msg_at(x, q.incoming[i], &s_buf),
                           NULL);
    }
    free(past), free(fut), free(cls);
    fprintf(out, "pending requests of rank %d %s: %zu\n", rank, at,
            q.nrequests + q.ncolls);
    if (q.nrequests + q.ncolls)
        fprintf(out, "  %9s  %-18s %6s %6s %-5s %s\n", "event", "function",
                "peer", "tag", "comm", "completed by");
    for (size_t i = 0; i < q.nrequests; i++) {
        struct ev_msg m_buf;
        const struct ev_msg *m = ev_msg_at(x, q.requests[i], &m_buf);
        char peer[16], tag[16];
        if (m->flags & EV_M_PROC_NULL)
            snprintf(peer, sizeof peer, "null");
        else if (m->peer >= 0)
            snprintf(peer, sizeof peer, "%d", m->peer);
        else
            snprintf(peer, sizeof peer, "any");
        if (m->tag >= 0)
            snprintf(tag, sizeof tag, "%d", m->tag);
        else
            snprintf(tag, sizeof tag, "any");
        print_pending(x, out, rank, m->event, m->fn, peer, tag, m->comm,
                      m->done);
    }
    for (size_t i = 0; i < q.ncolls; i++) {
        const struct ev_coll *c = ev_coll_at(x, q.colls[i]);
        print_pending(x, out, rank, c->event, c->fn, "-", "-", c->comm,
                      c->done);
    }
    ev_queue_release(&q);
    return 0;
}
