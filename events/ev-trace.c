/*
 * The run as Chrome trace-event JSON (ev-graph.h), the format Perfetto and
 * chrome://tracing open: https://docs.google.com/document/d/
 * 1CvAClvFfyA5R-PhYUmn5OOQtYMH4h6I0nSsKchNAySU (the "Trace Event Format").
 *
 * A process per rank (pid = rank, named "rank R"), its calls on thread 0
 * ("MPI calls"; a call a numbered thread made under MPI_THREAD_MULTIPLE on
 * that thread's track); each event a complete slice (ph X, microseconds
 * since the run's start); a matched message a flow (ph s at the send's
 * slice, ph f bound to the enclosing slice, "bp":"e", at the receive's
 * completion); a collective instance a flow from its first member's call
 * to each other member's. Written as it goes: nothing per event is kept.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ev-graph.h"

struct tw {
    struct ev_run *x;
    FILE *out;
    uint64_t t0;
    int first;
    struct ev_trace_stats *st;
};

static void sep(struct tw *w)
{
    fputs(w->first ? "\n" : ",\n", w->out);
    w->first = 0;
}

static void put_json_str(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c < 0x20)
            fprintf(out, "\\u%04x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}

/* NS as microseconds with 3 decimals into BUF (no floating point: printf's
 * is a third of the time on a million events). */
static const char *us(char *buf, uint64_t ns)
{
    snprintf(buf, 32, "%" PRIu64 ".%03u", ns / 1000, (unsigned)(ns % 1000));
    return buf;
}

static const char *us_of(struct tw *w, char *buf, int r, uint64_t n)
{
    return us(buf, ev_walltime(w->x, r, n) - w->t0);
}

/* The track (tid) of rank R's event N. */
static unsigned long long tid_of(struct ev_run *x, int r, uint64_t n)
{
    struct log_event ev;
    if (ev_event(x, r, n, &ev, NULL, 0) < 0 || !(ev.flags & LOG_REC_THREAD))
        return 0;
    return (unsigned long long)ev.thread;
}

static void slice(void *ud, const struct ev_row *row, int mark)
{
    struct tw *w = ud;
    (void)mark;
    char b1[32], b2[32];
    sep(w);
    fprintf(w->out, "{\"ph\":\"X\",\"pid\":%d,\"tid\":%llu,\"ts\":%s,"
            "\"dur\":%s,\"cat\":\"mpi\",\"name\":\"%s\",\"args\":{"
            "\"event\":%" PRIu64 ",\"peer\":\"%s\",\"tag\":\"%s\","
            "\"comm\":\"%s\",\"count\":\"%s\",\"bytes\":%" PRIu64,
            row->rank, row->has_thread ? (unsigned long long)row->thread
                                       : 0ULL,
            us_of(w, b1, row->rank, row->event),
            us(b2, (uint64_t)(row->dur_us * 1e3 + 0.5)), row->function,
            row->event, row->peer, row->tag, row->comm, row->count,
            row->bytes);
    if (row->has_ret)
        fprintf(w->out, ",\"ret\":%d", row->ret);
    if (row->repeat)
        fprintf(w->out, ",\"repeat\":%" PRIu64, row->repeat);
    fputs("}}", w->out);
    w->st->slices++;
}

/* A flow ID of category CAT from rank A's event AN to rank B's BN. */
static void flow(struct tw *w, const char *cat, const char *name,
                 uint64_t id, int a, uint64_t an, int b, uint64_t bn)
{
    char b1[32], b2[32];
    sep(w);
    fprintf(w->out, "{\"ph\":\"s\",\"pid\":%d,\"tid\":%llu,\"ts\":%s,"
            "\"cat\":\"%s\",\"name\":\"%s\",\"id\":%" PRIu64 "},\n", a,
            tid_of(w->x, a, an), us_of(w, b1, a, an), cat, name, id);
    fprintf(w->out, "{\"ph\":\"f\",\"bp\":\"e\",\"pid\":%d,\"tid\":%llu,"
            "\"ts\":%s,\"cat\":\"%s\",\"name\":\"%s\",\"id\":%" PRIu64
            "}", b, tid_of(w->x, b, bn), us_of(w, b2, b, bn), cat, name, id);
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
    struct tw w = {x, out, UINT64_MAX, 1, st};
    for (int r = 0; r < x->world_size; r++)
        if (x->ranks[r].present && x->ranks[r].log.hdr.start_ns < w.t0)
            w.t0 = x->ranks[r].log.hdr.start_ns;
    fputs("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"run\":", out);
    put_json_str(out, x->dir);
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
        put_json_str(out, name);
        fprintf(out, "}},\n{\"ph\":\"M\",\"pid\":%d,\"name\":"
                "\"process_sort_index\",\"args\":{\"sort_index\":%d}},\n"
                "{\"ph\":\"M\",\"pid\":%d,\"tid\":0,\"name\":\"thread_name\","
                "\"args\":{\"name\":\"MPI calls\"}}", r, r, r);
    }
    struct ev_filter all = {NULL, -1, -1};
    for (int r = 0; r < x->world_size; r++)
        if (x->ranks[r].present &&
            ev_list_events(x, r, 0, UINT64_MAX, &all, -1, slice, &w, err,
                           errlen) < 0)
            return -1;
    size_t nm = ev_nmsgs(x);
    for (size_t i = 0; i < nm; i++) {
        const struct ev_msg *s = ev_msg_at(x, (int32_t)i);
        if (!(s->flags & EV_M_SEND) || s->match < 0)
            continue;
        const struct ev_msg *m = ev_msg_at(x, s->match);
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
    if (fflush(out) != 0 || ferror(out)) {
        snprintf(err, errlen, "writing the trace failed");
        return -1;
    }
    return 0;
}
