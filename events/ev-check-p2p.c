/* ev-check-p2p.c - the p2p.* checks (ev-check.h): point-to-point: type
 * signatures of matched sends and receives, truncation.
 *
 * Every matched pair of the index (a send and the receive that took it) is
 * judged by MPI 4.0's type-matching rules (section 3.3.1): the basic types
 * of the message, in order, are those of the send's count x datatype, and
 * the receive's count x datatype must start with the same ones (a receive
 * longer than the message: a prefix of its signature matches); MPI_PACKED
 * matches any type (the packed contents are not in the log); MPI_BYTE
 * matches only MPI_BYTE (untyped communication is MPI_BYTE on both sides).
 * Derived types are flattened through their constructors in each rank's
 * log (ev-check-types.h).
 *
 * Severities, following the standard (a mismatch is erroneous) and MUST
 * (which reports type mismatches, even MPI_CHAR against
 * MPI_UNSIGNED_CHAR, as errors):
 *   p2p.truncate        error: the message is longer than the receive
 *                       buffer (MPI_ERR_TRUNCATE);
 *   p2p.type-mismatch   error: the signatures differ (values read as
 *                       another type: MPI_INT as MPI_FLOAT, a struct's
 *                       members in another order, a receive that ends
 *                       mid-element);
 *   p2p.bytes-coincide  warning: values of one basic type received as
 *                       values of another size (4 MPI_INT as 2 MPI_DOUBLE
 *                       or 16 MPI_CHAR), or MPI_BYTE on one side only,
 *                       where the bytes make whole elements on both sides:
 *                       erroneous too, but MPI sees a consistent transfer
 *                       (no error, a defined count) and a byte or character
 *                       view of binary data is often deliberate.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ev-check-types.h"
#include "ev-check.h"
#include "log-abi.h"
#include "log-codec.h"

enum { K_TRUNCATE, K_MISMATCH, K_COINCIDE };

static const char *const names[] = {"p2p.truncate", "p2p.type-mismatch",
                                    "p2p.bytes-coincide"};

/* The event whose datatype handle message M names: its *_init for a
 * persistent request's instance. */
static uint64_t type_event(const struct ev_msg *m)
{
    return m->init != EV_NONE ? m->init : m->event;
}

/* Whether receive R's completion said MPI_ERR_TRUNCATE: its return code,
 * or the status of its element under MPI_ERR_IN_STATUS. */
static int said_truncate(struct ev_run *x, const struct ev_msg *r)
{
    struct log_event ev;
    char err[128];
    if (r->done == EV_NONE ||
        ev_event(x, r->rank, r->done, &ev, err, sizeof err) < 0)
        return 0;
    int cls = ev.ret & DRDB_MPI_ERR_CLASS_MASK;
    if (cls == DRDB_MPI_ERR_TRUNCATE)
        return 1;
    if (cls != DRDB_MPI_ERR_IN_STATUS)
        return 0;
    struct log_field f;
    size_t cur = 0;
    int32_t st[LOG_ST_N];
    while (log_event_next_stored(&ev, &cur, &f) == 1)
        if (f.kind == LOG_F_STATUS && f.elem == r->done_elem &&
            log_field_status(&f, st) == 0 &&
            (st[LOG_ST_ERROR] & DRDB_MPI_ERR_CLASS_MASK) ==
                DRDB_MPI_ERR_TRUNCATE)
            return 1;
    return 0;
}

/* Bytes of one element of S for "whole elements": its size, or its basic
 * type's for a uniform one; 0 when unknown. */
static int64_t grain(const struct ev__sig *s)
{
    if (s->state == EV__SIG_OK)
        return s->size;
    uint32_t l = ev__sig_leaf(s);
    return l ? log_mpi_type_size(l) : 0;
}

/* Which kind of defect a pair whose signatures differ (D) is. */
static int classify(const struct ev__sig *ss, const struct ev__sig *sr,
                    int64_t bytes, const struct ev__sigdiff *d)
{
    uint32_t ls = ev__sig_leaf(ss), lr = ev__sig_leaf(sr);
    int64_t gs = grain(ss), gr = grain(sr);
    int byte = d->ta == EV__MPI_BYTE || d->tb == EV__MPI_BYTE;
    if (!ls || !lr || bytes < 0 || gs <= 0 || gr <= 0)
        return K_MISMATCH;
    if (log_mpi_type_size(ls) == log_mpi_type_size(lr) && !byte)
        return K_MISMATCH;
    return bytes % gs == 0 && bytes % gr == 0 ? K_COINCIDE : K_MISMATCH;
}

struct scan {
    struct ev_check_ctx *c;
    struct ev__types *t;
    int want;
    size_t unknown;     /* pairs whose signatures are not known */
};

static void emit(struct scan *s, const struct ev_msg *m,
                 const struct ev_msg *r, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* A finding about send M and receive R: MESSAGE from FMT, where the first
 * two %s are the send's and the receive's calls. */
static void emit(struct scan *s, const struct ev_msg *m,
                 const struct ev_msg *r, const char *fmt, ...)
{
    struct ev_check_finding f;
    struct ev_check_site sites[2] = {
        {m->rank, m->event, "send"},
        {r->rank, r->event, "receive"},
    };
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f.message, sizeof f.message, fmt, ap);
    va_end(ap);
    f.check = names[s->want];
    f.severity = s->want == K_COINCIDE ? EV_CHECK_WARNING : EV_CHECK_ERROR;
    f.sites = sites;
    f.nsites = 2;
    s->c->emit(s->c->ud, &f);
}

/* One matched pair: send M, receive R. */
static void pair(struct scan *s, const struct ev_msg *m,
                 const struct ev_msg *r)
{
    struct ev_run *x = s->c->x;
    struct ev__sig ss, sr;
    ev__type_sig(s->t, m->rank, type_event(m), m->datatype, &ss);
    ev__type_sig(s->t, r->rank, type_event(r), r->datatype, &sr);
    int64_t sent = ev__sig_bytes(&ss, m->count);
    int64_t room = ev__sig_bytes(&sr, r->count);
    char cs[200], cr[200];
    int truncated = sent >= 0 && room >= 0 ? sent > room
                                           : said_truncate(x, r);
    if (truncated) {
        if (s->want != K_TRUNCATE)
            return;
        ev__call_str(x, s->t, m->rank, type_event(m), cs, sizeof cs);
        ev__call_str(x, s->t, r->rank, type_event(r), cr, sizeof cr);
        if (sent >= 0 && room >= 0)
            emit(s, m, r, "%s sent %" PRId64 " bytes, more than the %"
                 PRId64 " bytes %s has room for: the message is truncated "
                 "(MPI_ERR_TRUNCATE)", cs, sent, room, cr);
        else
            emit(s, m, r, "%s sent a message longer than %s has room for: "
                 "its completion returned MPI_ERR_TRUNCATE", cs, cr);
        return;
    }
    if (s->want == K_TRUNCATE || ev__sig_has_packed(&ss) ||
        ev__sig_has_packed(&sr))
        return;
    /* The bytes that arrived (the receive's status), else all sent. */
    int64_t bytes = r->bytes >= 0 ? r->bytes : sent;
    if (sent >= 0 && (bytes < 0 || bytes > sent))
        bytes = sent;
    struct ev__sigdiff d;
    if (ev__sig_compare(&ss, m->count, &sr, r->count, bytes, &d) < 0) {
        if (s->want == K_MISMATCH)
            s->unknown++;
        return;
    }
    if (!d.differ || classify(&ss, &sr, bytes, &d) != s->want)
        return;
    ev__call_str(x, s->t, m->rank, type_event(m), cs, sizeof cs);
    ev__call_str(x, s->t, r->rank, type_event(r), cr, sizeof cr);
    const char *ta = log_mpi_handle_name("MPI_Datatype", d.ta);
    const char *tb = log_mpi_handle_name("MPI_Datatype", d.tb);
    if (s->want == K_MISMATCH)
        emit(s, m, r, "%s was received by %s: the type signatures differ "
             "at byte %" PRId64 " of the message (%s sent, %s received)",
             cs, cr, d.offset, ta ? ta : "?", tb ? tb : "?");
    else
        emit(s, m, r, "%s was received by %s: %" PRId64 " bytes of %s "
             "received as %s: the byte counts coincide, the type signatures "
             "differ%s", cs, cr, bytes, ta ? ta : "?", tb ? tb : "?",
             d.ta == EV__MPI_BYTE || d.tb == EV__MPI_BYTE
                 ? " (MPI_BYTE matches only MPI_BYTE)" : "");
}

static int run(struct ev_check_ctx *c, int want, char *err, size_t errlen)
{
    struct scan s = {c, ev__types_build(c->x), want, 0};
    if (!s.t) {
        snprintf(err, errlen, "out of memory reading the datatypes");
        return -1;
    }
    size_t n = ev_nmsgs(c->x);
    for (size_t i = 0; i < n; i++) {
        if ((i & 4095) == 0 && c->interrupted && *c->interrupted)
            break;
        struct ev_msg m_buf;
        const struct ev_msg *m = ev_msg_at(c->x, (int32_t)i, &m_buf);
        if (!(m->flags & EV_M_SEND) || m->match < 0)
            continue;
        struct ev_msg r_buf;
        const struct ev_msg *r = ev_msg_at(c->x, m->match, &r_buf);
        if (r)
            pair(&s, m, r);
    }
    if (s.unknown) {
        char msg[200];
        snprintf(msg, sizeof msg, "%zu matched pairs use a datatype whose "
                 "type signature the log does not hold (an indexed or "
                 "subarray type of mixed types, a file view's): not "
                 "compared", s.unknown);
        c->note(c->ud, names[want], msg);
    }
    ev__types_free(s.t);
    return 0;
}

static int run_truncate(struct ev_check_ctx *c, char *err, size_t errlen)
{
    return run(c, K_TRUNCATE, err, errlen);
}

static int run_mismatch(struct ev_check_ctx *c, char *err, size_t errlen)
{
    return run(c, K_MISMATCH, err, errlen);
}

static int run_coincide(struct ev_check_ctx *c, char *err, size_t errlen)
{
    return run(c, K_COINCIDE, err, errlen);
}

const struct ev_check_def ev_check_p2p_defs[] = {
    {"p2p.type-mismatch", EV_CHECK_ERROR,
     "the type signature of a send differs from that of the receive that "
     "matched it (derived types flattened)", run_mismatch},
    {"p2p.truncate", EV_CHECK_ERROR,
     "a message longer than the buffer of the receive that matched it "
     "(MPI_ERR_TRUNCATE)", run_truncate},
    {"p2p.bytes-coincide", EV_CHECK_WARNING,
     "a send and its receive that agree on bytes only: values of one basic "
     "type received as another (4 MPI_INT as 2 MPI_DOUBLE, MPI_BYTE on one "
     "side)", run_coincide},
    {NULL, 0, NULL, NULL},
};
