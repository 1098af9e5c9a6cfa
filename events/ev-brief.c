/*
 * An event in brief (events.h: struct ev_brief): the peer, tag,
 * communicator and count its call named, its first status, the message
 * bytes it logged. Read from the record alone, no index: the columns of
 * `drdb log dump` and `drdb log events` and of the console's `events`.
 * Arguments are found by the names MPI gives them in the prototypes
 * ("dest", "source", "root", "rank"; "count", "sendcount", ...), which
 * span more calls than the spec's slots do.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "events.h"
#include "log-codec.h"

/* The value of EV's by-value argument NAME into *V: 1, or 0 when its
 * function has none. */
static int has_arg(const struct log_event *ev, const char *name, int64_t *v)
{
    if (!ev->desc)
        return 0;
    for (int i = 0; i < ev->desc->nargs; i++)
        if (strcmp(ev->desc->args[i].name, name) == 0 &&
            ev->desc->args[i].size) {
            *v = log_event_arg(ev, i);
            return 1;
        }
    return 0;
}

void ev_brief_of(const struct log_event *ev, struct ev_brief *b)
{
    static const char *const peers[] = {"dest", "source", "root", "rank"};
    static const char *const counts[] = {"count", "sendcount", "recvcount",
                                         "incount"};
    struct log_field f;
    size_t cur = 0;
    int64_t v;
    int rc;

    memset(b, 0, sizeof *b);
    for (size_t i = 0; i < sizeof peers / sizeof peers[0]; i++)
        if (has_arg(ev, peers[i], &v)) {
            b->peer = v;
            b->has_peer = 1;
            break;
        }
    if (has_arg(ev, "tag", &v) || has_arg(ev, "sendtag", &v)) {
        b->tag = v;
        b->has_tag = 1;
    }
    if (has_arg(ev, "comm", &v)) {
        b->comm = v;
        b->has_comm = 1;
    }
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
        if (has_arg(ev, counts[i], &v)) {
            b->count = v;
            b->has_count = 1;
            break;
        }
    while ((rc = log_event_next_stored(ev, &cur, &f)) == 1) {
        uint64_t len;
        if (log_field_data_len(&f, &len))
            b->bytes += len;
        int32_t st[LOG_ST_N];
        if (f.kind == LOG_F_STATUS && !b->has_status &&
            log_field_status(&f, st) == 0) {
            b->has_status = 1;
            b->st_source = st[LOG_ST_SOURCE];
            b->st_tag = st[LOG_ST_TAG];
        }
    }
    b->malformed = rc < 0;
}

void ev_brief_peer_tag(const struct ev_brief *in, char *peer, char *tag)
{
    if (in->has_status) {
        snprintf(peer, 32, "%d", in->st_source);
        snprintf(tag, 32, "%d", in->st_tag);
        return;
    }
    if (in->has_peer)
        snprintf(peer, 32, "%" PRId64, in->peer);
    if (in->has_tag)
        snprintf(tag, 32, "%" PRId64, in->tag);
}

static const char *const cb_what[LOG_CB_LAST + 1] = {
    "?", "copy", "delete", "error handler", "operator", "query", "free",
    "cancel"};

const char *ev_callback_kind(const struct log_event *ev)
{
    struct log_cb cb;
    if (!(ev->flags & LOG_REC_CALLBACK) || !ev->cb_entry ||
        log_event_cb(ev, &cb) < 0)
        return NULL;
    return cb_what[cb.what];
}

void ev_brief_callback(const struct log_event *ev, char *buf)
{
    const char *const *what = cb_what;
    struct log_cb cb;
    buf[0] = '\0';
    if (!(ev->flags & LOG_REC_CALLBACK))
        return;
    if (log_event_cb(ev, &cb) < 0)
        snprintf(buf, EV_CB_LEN, "  [in callback %u]", ev->depth);
    else if (cb.what == LOG_CB_ERRHANDLER)
        snprintf(buf, EV_CB_LEN, "  [callback %u: error handler %#x on %#"
                 PRIx64 ", code %d]", ev->depth, (unsigned)cb.handle,
                 (uint64_t)cb.obj, cb.code);
    else if (cb.what == LOG_CB_OP)
        snprintf(buf, EV_CB_LEN, "  [callback %u: operator %#x, len %" PRId64
                 ", datatype %#x]", ev->depth, (unsigned)cb.handle,
                 cb.obj, (unsigned)cb.code);
    else if (cb.what >= LOG_CB_GREQ_QUERY)
        snprintf(buf, EV_CB_LEN, "  [callback %u: %s of request %#x]",
                 ev->depth, what[cb.what], (unsigned)cb.handle);
    else
        snprintf(buf, EV_CB_LEN, "  [callback %u: %s, keyval %#x on %#"
                 PRIx64 "]", ev->depth, what[cb.what], (unsigned)cb.handle,
                 (uint64_t)cb.obj);
}

void ev_brief_cycle(const struct log_event *ev, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (unsigned j = 0; j < ev->cycle && used < len; j++) {
        struct log_event m;
        const char *name = log_cycle_member(ev, j, &m, NULL) == 0
                               ? m.desc->name : "?";
        used += (size_t)snprintf(buf + used, len - used, "%s%s%s",
                                 j ? " " : " (cycle: ", name,
                                 j + 1 == ev->cycle ? ")" : "");
    }
}
