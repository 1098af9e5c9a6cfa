/*
 * Printing one event in full (events.h: ev_print_event()): its times and
 * return code, its arguments named where MPI names them, every field it
 * logged (statuses, data by datatype, members, handles and the requests
 * they stand for) and, last, what it matched (ev_print_match()).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ev-int.h"
#include "ev-srcline.h"
#include "log-abi.h"

/* A by-value argument's value, named where MPI names it; BRIEF: a
 * named handle by its name alone, a communicator by its global id. */
static void print_arg(struct ev_run *x, FILE *out, int rank, uint64_t n,
                      const struct log_arg_desc *a, int64_t v, int brief)
{
    if (a->enc == LOG_ENC_HANDLE) {
        uint32_t h = (uint32_t)v;
        const char *name = log_mpi_handle_name(a->ctype, h);
        int comm = strcmp(a->ctype, "MPI_Comm") == 0 && h != EV_COMM_NULL;
        int side, c = comm ? ev_comm_of(x, rank, n, h, &side) : -1;
        if (name && brief)
            fputs(name, out);
        else if (name)
            fprintf(out, "%s (0x%08x)", name, h);
        else if (brief && c >= 0)
            fprintf(out, "comm #%d", c);
        else
            fprintf(out, "0x%08x", h);
        if (comm && !brief && c >= 0)
            fprintf(out, " = comm #%d", c);
        else if (comm && !brief)
            fputs(" = an unknown communicator", out);
        return;
    }
    if (a->enc == LOG_ENC_PTR) {
        fprintf(out, "0x%" PRIx64, (uint64_t)v);
        return;
    }
    fprintf(out, "%" PRId64, v);
    const char *name = a->enc == LOG_ENC_INT ? log_mpi_int_name(a->name, v)
                                             : NULL;
    if (name)
        fprintf(out, " (%s)", name);
}

/* What the fields of one event are about: for a completion, the message
 * or collective each element (request index) completed; for a receive
 * call, its receive. */
struct subjects {
    int32_t *msg, *coll; /* by element, -1 none */
    uint64_t n;
    int32_t recv;        /* the receive of a call, -1 none */
};

static void subjects_of(struct ev_run *x, int rank, uint64_t n,
                        struct subjects *s)
{
    memset(s, 0, sizeof *s);
    s->recv = -1;
    int nu = ev_uses(x, rank, n, NULL, 0);
    struct ev_use *use = nu > 0 ? malloc((size_t)nu * sizeof *use) : NULL;
    if (!use)
        return;
    ev_uses(x, rank, n, use, nu);
    uint64_t max = 0;
    for (int u = 0; u < nu; u++) {
        struct ev_msg mb;
        uint64_t e = use[u].role == EV_DONE
                         ? ev_msg_at(x, use[u].i, &mb)->done_elem
                     : use[u].role == EV_COLL_DONE
                         ? ev_coll_at(x, use[u].i)->done_elem : 0;
        if (e + 1 > max && e < (1u << 24))
            max = e + 1;
    }
    s->msg = malloc((max ? max : 1) * sizeof *s->msg);
    s->coll = malloc((max ? max : 1) * sizeof *s->coll);
    if (!s->msg || !s->coll) {
        free(s->msg);
        free(s->coll);
        s->msg = s->coll = NULL;
        free(use);
        return;
    }
    s->n = max;
    for (uint64_t e = 0; e < max; e++)
        s->msg[e] = s->coll[e] = -1;
    for (int u = 0; u < nu; u++) {
        struct ev_msg mb;
        const struct ev_msg *m;
        switch (use[u].role) {
        case EV_DONE:
            m = ev_msg_at(x, use[u].i, &mb);
            /* An Isendrecv's two halves share the element: the receive
             * is what the fields describe. */
            if (m->done_elem < max &&
                (s->msg[m->done_elem] < 0 || !(m->flags & EV_M_SEND)))
                s->msg[m->done_elem] = use[u].i;
            break;
        case EV_COLL_DONE:
            if (ev_coll_at(x, use[u].i)->done_elem < max)
                s->coll[ev_coll_at(x, use[u].i)->done_elem] = use[u].i;
            break;
        case EV_CALL:
        case EV_PROBE:
            m = ev_msg_at(x, use[u].i, &mb);
            if (!(m->flags & EV_M_SEND) && s->recv < 0)
                s->recv = use[u].i;
            break;
        }
    }
    free(use);
}

static void subjects_release(struct subjects *s)
{
    free(s->msg);
    free(s->coll);
}

/* The receive message the fields of element ELEM describe, or -1. */
static int32_t subject_recv(struct ev_run *x, const struct subjects *s,
                            int completion, uint64_t elem)
{
    if (!completion)
        return s->recv;
    if (elem >= s->n || s->msg[elem] < 0 ||
        ev_msg_at(x, s->msg[elem], &(struct ev_msg){0})->flags & EV_M_SEND)
        return -1;
    return s->msg[elem];
}

static const char *kind_name(unsigned k)
{
    static const char *const names[] = {
        "?", "raw", "data", "status", "string", "members", "request", "size",
        "handle", "data", "windiff", "elided", "object", "array", "neighbors",
        "frame",
    };
    return k < sizeof names / sizeof names[0] ? names[k] : "?";
}

/* The first lines: the function, times, return code, flags. */
static void print_head(FILE *out, int rank, const struct log_event *ev)
{
    const struct log_func_desc *d = ev->desc;
    fprintf(out, "rank %d event %" PRIu64 ": %s\n", rank, ev->index,
            d ? d->name : "(logging stopped)");
    fprintf(out, "  enter     %.9f s after the log's start\n",
            (double)ev->enter_ns / 1e9);
    fprintf(out, "  duration  %.3f us\n", (double)ev->dur_ns / 1000.0);
    if (ev->flags & LOG_REC_DIED) {
        char e[64];
        fprintf(out, "  died here: MPI ended the rank in this call, which "
                "did not return");
        if (ev->ret)
            fprintf(out, " (%s)", log_mpi_err_str(e, sizeof e, ev->ret));
        fputc('\n', out);
    } else if (ev->flags & LOG_REC_TRUNC)
        fprintf(out, "  logging stopped here (error %d)\n", -ev->ret);
    else if (ev->flags & LOG_REC_RET)
        fprintf(out, "  return    %d (an error code)\n", ev->ret);
    else
        fprintf(out, "  return    MPI_SUCCESS\n");
    if (ev->cycle)
        fprintf(out, "  repeat    %" PRIu64 " runs of a polling cycle of "
                "%u calls (%" PRIu64 " calls)\n", ev->repeat, ev->cycle,
                log_event_calls(ev));
    else if (ev->flags & LOG_REC_REPEAT)
        fprintf(out, "  repeat    %" PRIu64 " identical calls\n",
                ev->repeat);
    if (ev->flags & LOG_REC_THREAD) {
        char th[32];
        log_thread_name(th, sizeof th, ev->thread);
        fprintf(out, "  thread    %s\n", th);
    }
    if (ev->flags & LOG_REC_PARTIAL)
        fprintf(out, "  partial   some outputs were not logged\n");
    if (ev->flags & LOG_REC_CALLBACK) {
        char cb[EV_CB_LEN];
        ev_brief_callback(ev, cb);
        fprintf(out, "  callback %s%s\n", cb + 1,
                ev->cb_entry ? " (MPI ran the program's function)" : "");
        struct log_cb c;
        struct log_cb_op op;
        if (log_event_cb(ev, &c) == 0 && c.what == LOG_CB_OP &&
            log_event_cb_op(ev, &op) == 0)
            fprintf(out, "  vectors   %" PRId64 " bytes from offset %"
                    PRId64 "; logged: %zu of invec, %zu of inoutvec\n",
                    op.span, op.lo, op.in_len, op.inout_len);
    }
}

/* "called from FILE:LINE (FUNCTION)", or what is known and why no more
 * (ev-srcline.h). */
static void print_site(struct ev_run *x, FILE *out, int rank,
                       const struct log_event *ev)
{
    struct ev_srcloc loc;
    char why[1300], err[256], where[2400];
    int rc = ev_srcline_why(x, rank, ev->index, &loc, why, sizeof why, err,
                            sizeof err);
    if (rc < 0)
        return;
    if (rc == 0) {
        fprintf(out, "  called from unknown (%s)\n", why);
        return;
    }
    ev_srcloc_format(&loc, where, sizeof where);
    fprintf(out, "  called from %s%s%s%s\n", where,
            why[0] ? " (no line: " : "", why, why[0] ? ")" : "");
}

/* The buffers of a call that starts a request, or of a blocking one made
 * while one was pending (log_event_bufaddr). */
static void print_bufs(FILE *out, const struct log_event *ev)
{
    struct log_bufaddr b;
    for (int i = 0; ev->desc && i < ev->desc->nbufs; i++) {
        int rc = log_event_bufaddr(ev, i, &b);
        if (rc == 0)
            return;
        if (!i)
            fprintf(out, "  buffers\n");
        if (rc < 0) {
            fprintf(out, "    (malformed)\n");
            return;
        }
        fprintf(out, "    %-14s %#" PRIx64, ev->desc->args[b.arg].name,
                b.addr);
        if (!b.known)
            fprintf(out, " (its extent was not logged)\n");
        else if (b.lb)
            fprintf(out, " %" PRIu64 " bytes from offset %" PRId64 "\n",
                    b.span, b.lb);
        else
            fprintf(out, " %" PRIu64 " bytes\n", b.span);
    }
}

static void print_args(struct ev_run *x, FILE *out, int rank,
                       const struct log_event *ev)
{
    const struct log_func_desc *d = ev->desc;
    int64_t vals[32];
    if (log_event_args(ev, vals, 32) <= 0)
        return;
    fprintf(out, "  arguments\n");
    for (int i = 0, k = 0; i < d->nargs && k < 32; i++) {
        if (!d->args[i].enc)
            continue;
        fprintf(out, "    %-14s ", d->args[i].name);
        print_arg(x, out, rank, ev->index, &d->args[i], vals[k++], 0);
        fputc('\n', out);
    }
}

/* The event whose fields are being printed. */
struct shown {
    struct ev_run *x;
    FILE *out;
    int rank;
    const struct log_event *ev;
    int raw;
    /* A completion (the Wait and Test families) logs per-request fields
     * whose argument is the request (array). */
    int completion;
    struct subjects subj;
};

static void print_status(const struct shown *s, const struct log_field *f)
{
    FILE *out = s->out;
    int32_t st[LOG_ST_N];
    if (log_field_status(f, st) < 0) {
        fputs("(malformed)", out);
        return;
    }
    fputs("source ", out);
    if (st[LOG_ST_SOURCE] == EV_PROC_NULL)
        fputs("MPI_PROC_NULL", out);
    else if (st[LOG_ST_SOURCE] == EV_ANY_SOURCE)
        fputs("MPI_ANY_SOURCE", out);
    else
        fprintf(out, "%d", st[LOG_ST_SOURCE]);
    int32_t mi = subject_recv(s->x, &s->subj, s->completion, f->elem);
    struct ev_msg m_buf;
    const struct ev_msg *m = mi >= 0 ? ev_msg_at(s->x, mi, &m_buf) : NULL;
    if (m && m->peer >= 0 && m->comm != 0 &&
        st[LOG_ST_SOURCE] == m->peer_local)
        fprintf(out, " (world rank %d)", m->peer);
    if (st[LOG_ST_TAG] == EV_ANY_TAG)
        fputs(", tag MPI_ANY_TAG", out);
    else
        fprintf(out, ", tag %d", st[LOG_ST_TAG]);
    fprintf(out, ", count %" PRId64 " bytes, error %d",
            log_status_bytes(st), st[LOG_ST_ERROR]);
    /* MPI sets MPI_ERROR only where a call returns MPI_ERR_IN_STATUS: the
     * completions of request arrays with an array of statuses (Waitall,
     * Waitsome, Testall, Testsome; Waitany's one status has no slot for
     * it). */
    const struct log_func_desc *d = s->ev->desc;
    int in_status = d->kind == LOG_K_COMPLETION &&
                    d->slot[LOG_S_REQUESTS] >= 0 && d->slot[LOG_S_STATUS] < 0;
    if (st[LOG_ST_ERROR] && !in_status)
        fputs(" (unset by MPI here)", out);
    if (log_status_cancelled(st))
        fputs(", cancelled", out);
}

static void print_field_data(const struct shown *s, const struct log_field *f)
{
    const struct subjects *subj = &s->subj;
    uint32_t type = 0;
    if (!s->completion)
        type = ev__data_type(s->ev, f->arg);
    else if (f->elem < subj->n && subj->msg[f->elem] >= 0)
        type = ev_msg_at(s->x, subj->msg[f->elem], &(struct ev_msg){0})
                   ->datatype;
    else if (f->elem < subj->n && subj->coll[f->elem] >= 0)
        type = ev_coll_at(s->x, subj->coll[f->elem])->datatype;
    ev__print_data(s->x, s->out, s->rank, s->ev->index, f, type, s->raw);
}

static void print_members(FILE *out, const struct log_field *f)
{
    fprintf(out, "%s group, world ranks:", f->elem ? "remote" : "local");
    for (uint64_t i = 0; i + 4 <= f->len && i < 4 * 64; i += 4) {
        int32_t w;
        memcpy(&w, f->data + i, 4);
        fprintf(out, " %d", w);
    }
    if (f->len > 4 * 64)
        fputs(" ...", out);
}

/* A neighbourhood collective's neighbours (NEIGHBORS): "cartesian, in
 * 3 1, out 3 1" (local ranks, -1 MPI_PROC_NULL). */
static void print_neighbors(FILE *out, const struct log_field *f)
{
    static const char *const topo[] = {"?", "cartesian", "graph",
                                       "distributed graph"};
    int32_t *v = malloc((f->len + 1) * sizeof *v);
    struct log_neighbors nb;
    if (!v || log_field_neighbors(f, v, f->len + 1, &nb) < 0) {
        fputs("(malformed)", out);
        free(v);
        return;
    }
    fprintf(out, "%s, in", topo[nb.kind]);
    for (int i = 0; i < nb.in; i++)
        fprintf(out, " %d", nb.src[i]);
    fputs(", out", out);
    for (int i = 0; i < nb.out; i++)
        fprintf(out, " %d", nb.dst[i]);
    free(v);
}

/* A HANDLE or REQUEST: its name, the communicator it is, the call a
 * completed request stood for. */
static void print_handle(const struct shown *s, const struct log_field *f)
{
    const struct log_func_desc *d = s->ev->desc;
    const struct subjects *subj = &s->subj;
    FILE *out = s->out;
    uint32_t h;
    if (log_field_handle(f, &h) < 0) {
        fputs("(malformed)", out);
        return;
    }
    const char *ct = f->arg < (unsigned)d->nargs ? d->args[f->arg].ctype : "";
    const char *name = log_mpi_handle_name(ct, h);
    fprintf(out, "0x%08x", h);
    if (name)
        fprintf(out, " (%s)", name);
    if (strncmp(ct, "MPI_Comm", 8) == 0 && h != EV_COMM_NULL) {
        int side;
        int c = ev_comm_of(s->x, s->rank, s->ev->index, h, &side);
        if (c >= 0)
            fprintf(out, " = comm #%d", c);
    }
    if (f->kind == LOG_F_REQUEST && f->elem < subj->n) {
        if (subj->msg[f->elem] >= 0) {
            struct ev_msg m_buf;
            const struct ev_msg *m =
                ev_msg_at(s->x, subj->msg[f->elem], &m_buf);
            fprintf(out, ": event %" PRIu64 " %s", m->event,
                    log_func_name(m->fn));
        } else if (subj->coll[f->elem] >= 0) {
            const struct ev_coll *c = ev_coll_at(s->x, subj->coll[f->elem]);
            fprintf(out, ": event %" PRIu64 " %s", c->event,
                    log_func_name(c->fn));
        }
    }
}

static void print_field(const struct shown *s, const struct log_field *f)
{
    FILE *out = s->out;
    switch (f->kind) {
    case LOG_F_STATUS:
        print_status(s, f);
        break;
    case LOG_F_DATA:
        print_field_data(s, f);
        break;
    case LOG_F_MEMBERS:
        print_members(out, f);
        break;
    case LOG_F_NEIGHBORS:
        print_neighbors(out, f);
        break;
    case LOG_F_REQUEST:
    case LOG_F_HANDLE:
        print_handle(s, f);
        break;
    case LOG_F_STRING:
        ev__print_cstring(out, f->data, f->len, 256);
        break;
    case LOG_F_SIZE:
        if (f->len == 8) {
            uint64_t v;
            memcpy(&v, f->data, 8);
            fprintf(out, "%" PRIu64, v);
        } else {
            ev__print_hex(out, f->data, f->len, 64);
        }
        break;
    case LOG_F_RAW:
        ev__print_raw(out, s->ev->desc, f, s->raw);
        break;
    case LOG_F_FRAME: {
        uint64_t cfa;
        if (log_event_frame(s->ev, &cfa) == 1)
            fprintf(out, "the calling frame's CFA 0x%" PRIx64, cfa);
        else
            fprintf(out, "(malformed)");
        break;
    }
    case LOG_F_ELIDED: {
        struct log_elided e;
        if (log_field_elided(f, &e) == 0)
            fprintf(out, "%" PRIu64 " bytes (%s)", e.len, log_fetch_error());
        else
            fprintf(out, "(malformed)");
        break;
    }
    default:
        fprintf(out, "%" PRIu64 " bytes: ", f->len);
        ev__print_hex(out, f->data, f->len, s->raw ? 1024 : 64);
        break;
    }
}

static void print_fields(struct ev_run *x, FILE *out, int rank,
                         const struct log_event *ev, int raw)
{
    const struct log_func_desc *d = ev->desc;
    struct shown s = {x, out, rank, ev, raw, d->kind == LOG_K_COMPLETION,
                      {NULL, NULL, 0, -1}};
    subjects_of(x, rank, ev->index, &s.subj);
    struct log_field f;
    size_t cur = 0;
    int rc, nf = 0;
    while ((rc = log_event_field(ev, &cur, &f)) == 1) {
        if (!nf++)
            fprintf(out, "  fields\n");
        const char *an = f.arg < (unsigned)d->nargs ? d->args[f.arg].name
                                                     : "-";
        char where[64];
        if ((s.completion || f.elem) && f.arg < (unsigned)d->nargs)
            snprintf(where, sizeof where, "%s[%" PRIu64 "]", an, f.elem);
        else
            snprintf(where, sizeof where, "%s", an);
        fprintf(out, "    %-8s %-14s ", kind_name(f.kind), where);
        print_field(&s, &f);
        fputc('\n', out);
    }
    subjects_release(&s.subj);
    if (rc < 0)
        fprintf(out, "    (malformed fields)\n");
}

/* What it matched: ev_print_match()'s lines, indented. */
static void print_matches(struct ev_run *x, FILE *out, int rank, uint64_t n)
{
    struct ev_use u1;
    struct ev_ref r1;
    if (ev_uses(x, rank, n, &u1, 1) <= 0 &&
        ev_partners(x, rank, n, &r1, 1, NULL, 0) <= 0)
        return;
    fprintf(out, "  matches\n");
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    if (!mem)
        return;
    ev_print_match(x, mem, rank, n, NULL, 0);
    fclose(mem);
    for (char *line = buf, *nl; line && *line; line = nl + 1) {
        if (!(nl = strchr(line, '\n')))
            break;
        fprintf(out, "    %.*s\n", (int)(nl - line), line);
    }
    free(buf);
}

/* A polling cycle: each call as an event of its own, then the values its
 * timer calls returned. */
static void print_cycle(struct ev_run *x, FILE *out, int rank,
                        const struct log_event *ev, int raw)
{
    for (unsigned j = 0; j < ev->cycle; j++) {
        struct log_event m;
        unsigned mf;
        if (log_cycle_member(ev, j, &m, &mf) < 0)
            return;
        fprintf(out, "  call %u of the cycle: %s%s\n", j + 1, m.desc->name,
                mf & LOG_CYCLE_VALUE ? " (its values below)" : "");
        print_args(x, out, rank, &m);
        print_fields(x, out, rank, &m, raw);
    }
    if (!ev->cycle_nvalues)
        return;
    struct log_cycle_values it;
    double v, first = 0, last = 0;
    uint64_t n = 0;
    log_cycle_values_init(ev, &it);
    while (log_cycle_value_next(&it, &v) == 1) {
        if (!n++)
            first = v;
        last = v;
    }
    fprintf(out, "  values    %" PRIu64 ", from %.9f to %.9f\n", n, first,
            last);
}

int ev_print_event(struct ev_run *x, FILE *out, int rank, uint64_t n,
                   int raw, char *err, size_t errlen)
{
    struct log_event ev;
    if (ev_event(x, rank, n, &ev, err, errlen) < 0 ||
        ev_build(x, err, errlen) < 0)
        return -1;
    print_head(out, rank, &ev);
    if (!ev.desc)
        return 0;
    print_site(x, out, rank, &ev);
    if (ev.cycle) {
        print_cycle(x, out, rank, &ev, raw);
        return 0;
    }
    print_args(x, out, rank, &ev);
    print_bufs(out, &ev);
    print_fields(x, out, rank, &ev, raw);
    print_matches(x, out, rank, n);
    return 0;
}

int ev_print_call(struct ev_run *x, FILE *out, int rank, uint64_t n,
                  char *err, size_t errlen)
{
    struct log_event ev;
    if (ev_event(x, rank, n, &ev, err, errlen) < 0)
        return -1;
    const struct log_func_desc *d = ev.desc;
    if (!d) {
        fputs("(logging stopped)", out);
        return 0;
    }
    int64_t vals[32];
    int nv = log_event_args(&ev, vals, 32);
    fprintf(out, "%s(", d->name);
    for (int i = 0, k = 0, first = 1; i < d->nargs && k < nv && k < 32;
         i++) {
        if (!d->args[i].enc)
            continue;
        fprintf(out, "%s%s=", first ? "" : ", ", d->args[i].name);
        print_arg(x, out, rank, n, &d->args[i], vals[k++], 1);
        first = 0;
    }
    fputc(')', out);
    if (ev.flags & LOG_REC_RET && !(ev.flags & LOG_REC_TRUNC))
        fprintf(out, " = error 0x%08x", (unsigned)ev.ret);
    return 0;
}
