/*
 * The run as Chrome trace-event JSON (ev-graph.h), the format Perfetto and
 * chrome://tracing open: https://docs.google.com/document/d/
 * 1CvAClvFfyA5R-PhYUmn5OOQtYMH4h6I0nSsKchNAySU (the "Trace Event Format").
 *
 * A process per rank (pid = rank, named "rank R"), its calls on thread 0
 * ("MPI calls"; under MPI_THREAD_MULTIPLE each other thread's on a track of
 * its own, "thread 1.2" as drdb log names it); each event a complete slice (ph X, microseconds
 * since the run's start); a matched message a flow (ph s at the send's
 * slice, ph f bound to the enclosing slice, "bp":"e", at the receive's
 * completion); a collective instance a flow from its first member's call
 * to each other member's. Written as it goes: nothing per event is kept.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ev-graph.h"
#include "ev-int.h"
#include "util.h"

/* A thread that made calls, under MPI_THREAD_MULTIPLE: its track. */
struct tw_thread {
    int rank;
    uint64_t thread;   /* as the log names it (log_thread_name) */
};

struct tw {
    struct ev_run *x;
    FILE *out;
    uint64_t t0;
    int first;
    struct ev_trace_stats *st;
    struct tw_thread *th; /* tid = index + 1; the main thread is tid 0 */
    size_t nth, capth;
    int oom;
};

static void sep(struct tw *w)
{
    fputs(w->first ? "\n" : ",\n", w->out);
    w->first = 0;
}

/* One trace record, built by hand: printf costs most of the time on a
 * million events (its format parsing, per field). */
struct jb {
    char b[1024];
    size_t n;
};

static void jb_s(struct jb *j, const char *s)
{
    size_t l = strlen(s);
    if (j->n + l < sizeof j->b) {
        memcpy(j->b + j->n, s, l);
        j->n += l;
    }
}

static void jb_u(struct jb *j, uint64_t v)
{
    char d[24];
    int k = 0;
    do
        d[k++] = (char)('0' + v % 10);
    while ((v /= 10));
    while (k && j->n < sizeof j->b)
        j->b[j->n++] = d[--k];
}

/* NS as microseconds with 3 decimals. */
static void jb_us(struct jb *j, uint64_t ns)
{
    jb_u(j, ns / 1000);
    char f[5] = {'.', (char)('0' + ns / 100 % 10), (char)('0' + ns / 10 % 10),
                 (char)('0' + ns % 10), 0};
    jb_s(j, f);
}

static void jb_out(struct tw *w, struct jb *j)
{
    fwrite(j->b, 1, j->n, w->out);
    j->n = 0;
}

static uint64_t ns_of(struct tw *w, int r, uint64_t n)
{
    return ev_walltime(w->x, r, n) - w->t0;
}

/* The track (tid) of rank R's calls by THREAD: 0 for the main thread,
 * else one per thread, numbered as first seen. */
static uint64_t tid_map(struct tw *w, int r, uint64_t thread)
{
    char name[32];
    log_thread_name(name, sizeof name, thread);
    if (!strcmp(name, "0"))
        return 0;
    for (size_t i = 0; i < w->nth; i++)
        if (w->th[i].rank == r && w->th[i].thread == thread)
            return i + 1;
    if (util_grow(&w->th, &w->capth, w->nth + 1, sizeof *w->th) < 0) {
        w->oom = 1;
        return 0;
    }
    w->th[w->nth++] = (struct tw_thread){r, thread};
    return w->nth;
}

/* The track of rank R's event N. */
static uint64_t tid_of(struct tw *w, int r, uint64_t n)
{
    struct log_event ev;
    if (!w->x->ranks[r].log.threads) /* no record names a thread */
        return 0;
    if (ev_event(w->x, r, n, &ev, NULL, 0) < 0 ||
        !(ev.flags & LOG_REC_THREAD))
        return 0;
    return tid_map(w, r, ev.thread);
}

static void slice(void *ud, const struct ev_row *row, int mark)
{
    struct tw *w = ud;
    struct jb j = {.n = 0};
    (void)mark;
    sep(w);
    jb_s(&j, "{\"ph\":\"X\",\"pid\":");
    jb_u(&j, (uint64_t)row->rank);
    jb_s(&j, ",\"tid\":");
    jb_u(&j, row->has_thread ? tid_map(w, row->rank, row->thread) : 0);
    jb_s(&j, ",\"ts\":");
    jb_us(&j, ns_of(w, row->rank, row->event));
    jb_s(&j, ",\"dur\":");
    jb_us(&j, (uint64_t)(row->dur_us * 1e3 + 0.5));
    jb_s(&j, ",\"cat\":\"mpi\",\"name\":\"");
    jb_s(&j, row->function);
    jb_s(&j, "\",\"args\":{\"event\":");
    jb_u(&j, row->event);
    jb_s(&j, ",\"peer\":\"");
    jb_s(&j, row->peer);
    jb_s(&j, "\",\"tag\":\"");
    jb_s(&j, row->tag);
    jb_s(&j, "\",\"comm\":\"");
    jb_s(&j, row->comm);
    jb_s(&j, "\",\"count\":\"");
    jb_s(&j, row->count);
    jb_s(&j, "\",\"bytes\":");
    /* a send logs no data: its bytes are its message's */
    int64_t sent = row->bytes ? -1
                              : ev_sent_bytes(w->x, row->rank, row->event);
    jb_u(&j, sent > 0 ? (uint64_t)sent : row->bytes);
    jb_out(w, &j);
    if (row->has_ret)
        fprintf(w->out, ",\"ret\":%d", row->ret);
    if (row->repeat)
        fprintf(w->out, ",\"repeat\":%" PRIu64, row->repeat);
    fputs("}}", w->out);
    w->st->slices++;
}

/* One end of a flow (PH "s" or "f") at rank R's event N. */
static void flow_end(struct tw *w, const char *ph, const char *cat,
                     const char *name, uint64_t id, int r, uint64_t n)
{
    struct jb j = {.n = 0};
    jb_s(&j, ph);
    jb_s(&j, ",\"pid\":");
    jb_u(&j, (uint64_t)r);
    jb_s(&j, ",\"tid\":");
    jb_u(&j, tid_of(w, r, n));
    jb_s(&j, ",\"ts\":");
    jb_us(&j, ns_of(w, r, n));
    jb_s(&j, ",\"cat\":\"");
    jb_s(&j, cat);
    jb_s(&j, "\",\"name\":\"");
    jb_s(&j, name);
    jb_s(&j, "\",\"id\":");
    jb_u(&j, id);
    jb_s(&j, "}");
    jb_out(w, &j);
}

/* A flow ID of category CAT from rank A's event AN to rank B's BN. */
static void flow(struct tw *w, const char *cat, const char *name,
                 uint64_t id, int a, uint64_t an, int b, uint64_t bn)
{
    sep(w);
    flow_end(w, "{\"ph\":\"s\"", cat, name, id, a, an);
    fputs(",\n", w->out);
    flow_end(w, "{\"ph\":\"f\",\"bp\":\"e\"", cat, name, id, b, bn);
}

static int present(struct ev_run *x, int r)
{
    return r >= 0 && r < x->world_size && x->ranks[r].present;
}

int ev_trace_write(struct ev_run *x, FILE *out, struct ev_trace_stats *st,
                   char *err, size_t errlen)
{
    memset(st, 0, sizeof *st);
    if (ev_build(x, err, errlen) < 0)
        return -1;
    struct tw w = {x, out, UINT64_MAX, 1, st, NULL, 0, 0, 0};
    for (int r = 0; r < x->world_size; r++)
        if (x->ranks[r].present && x->ranks[r].log.hdr.start_ns < w.t0)
            w.t0 = x->ranks[r].log.hdr.start_ns;
    fputs("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"run\":", out);
    ev__json_str(out, x->dir);
    fputs("},\"traceEvents\":[", out);
    for (int r = 0; r < x->world_size; r++) {
        if (!x->ranks[r].present)
            continue;
        const struct log_file_header *h = &x->ranks[r].log.hdr;
        char name[160];
        snprintf(name, sizeof name, "rank %d (pid %d on %.64s)", r, h->pid,
                 h->host);
        sep(&w);
        fprintf(out, "{\"ph\":\"M\",\"pid\":%d,\"name\":\"process_name\","
                "\"args\":{\"name\":", r);
        ev__json_str(out, name);
        fprintf(out, "}},\n{\"ph\":\"M\",\"pid\":%d,\"name\":"
                "\"process_sort_index\",\"args\":{\"sort_index\":%d}},\n"
                "{\"ph\":\"M\",\"pid\":%d,\"tid\":0,\"name\":\"thread_name\","
                "\"args\":{\"name\":\"MPI calls\"}}", r, r, r);
    }
    struct ev_filter all = {NULL, -1, -1};
    for (int r = 0; r < x->world_size; r++)
        if (x->ranks[r].present &&
            ev_list_events(x, r, 0, UINT64_MAX, &all, -1, slice, &w, err,
                           errlen) < 0) {
            free(w.th);
            return -1;
        }
    /* the other threads' tracks, named as drdb log names them */
    for (size_t i = 0; i < w.nth; i++) {
        char name[32];
        log_thread_name(name, sizeof name, w.th[i].thread);
        sep(&w);
        fprintf(out, "{\"ph\":\"M\",\"pid\":%d,\"tid\":%zu,\"name\":"
                "\"thread_name\",\"args\":{\"name\":\"thread %s\"}}",
                w.th[i].rank, i + 1, name);
    }
    size_t nm = ev_nmsgs(x);
    for (size_t i = 0; i < nm; i++) {
        struct ev_msg s_buf;
        const struct ev_msg *s = ev_msg_at(x, (int32_t)i, &s_buf);
        if (!(s->flags & EV_M_SEND) || s->match < 0)
            continue;
        struct ev_msg m_buf;
        const struct ev_msg *m = ev_msg_at(x, s->match, &m_buf);
        if (m->done == EV_NONE || !present(x, s->rank) ||
            !present(x, m->rank))
            continue;
        char name[32];
        snprintf(name, sizeof name, "tag %d", s->tag);
        flow(&w, "msg", name, i, s->rank, s->event, m->rank, m->done);
        st->flows++;
    }
    size_t nc = ev_ncolls(x);
    for (size_t i = 0; i < nc; i++) {
        const struct ev_coll *c = ev_coll_at(x, (int32_t)i);
        int32_t first;
        if (ev_instance(x, c->comm, c->instance, &first, 1) < 1 ||
            first == (int32_t)i)
            continue;
        const struct ev_coll *f = ev_coll_at(x, first);
        if (!present(x, f->rank) || !present(x, c->rank))
            continue;
        flow(&w, "coll", ev_fn_name(c->fn), nm + i, f->rank, f->event,
             c->rank, c->event);
        st->coll_flows++;
    }
    fputs("\n]}\n", out);
    free(w.th);
    if (w.oom) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (fflush(out) != 0 || ferror(out)) {
        snprintf(err, errlen, "writing the trace failed");
        return -1;
    }
    return 0;
}
