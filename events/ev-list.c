/*
 * Listing events (events.h): the filter and the one-line form of `drdb log
 * events` and of the console's `events`, one implementation for both. An
 * event's peer and tag are what its message matched (the index's), so a
 * wildcard receive shows its source and tag and `--peer 3` finds the
 * receives that matched rank 3.
 *
 * A listing shows nothing that other ranks' logs decide but communicator
 * ids (a receive's peer and tag come from its own status): while the
 * whole index is not built, the listing of one rank builds that rank's
 * alone (ev__index_for: its events, and the ranks before it read for
 * their communicators only).
 */
#include <fnmatch.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "ev-int.h"

int ev_filter_check(const struct ev_filter *f, char *err, size_t errlen)
{
    if (!f->call || strpbrk(f->call, "*?["))
        return 0;
    char buf[128];
    const char *name = f->call;
    if (strncasecmp(name, "MPI_", 4) != 0 &&
        strncasecmp(name, "MPIX_", 5) != 0) {
        snprintf(buf, sizeof buf, "MPI_%s", name);
        name = buf;
    }
    if (log_func_by_name(name))
        return 0;
    snprintf(err, errlen, "no MPI function '%s': 'drdb functions' lists "
             "them", f->call);
    return -1;
}

/* Whether function FN is NAME: case-insensitive, "MPI_" optional, shell
 * wildcards allowed ("Wait*"). */
static int call_is(int fn, const char *name)
{
    const char *f = log_func_name(fn);
    if (strncasecmp(name, "MPI_", 4) != 0 && strncasecmp(f, "MPI_", 4) == 0)
        f += 4;
    return fnmatch(name, f, FNM_CASEFOLD) == 0;
}

/* Whether EV (rank R's, its uses USE[0..NU) in IX) passes F. */
static int passes(const struct ev_index *ix, const struct ev_filter *f,
                  const struct log_event *ev, const struct ev_use *use,
                  int nu)
{
    if (f->call && (!call_is(ev->fn, f->call) || ev_callback_kind(ev)))
        return 0; /* a callback entry is no call */
    if (f->peer < 0 && f->tag < 0)
        return 1;
    for (int u = 0; u < nu; u++) {
        if (use[u].role == EV_COLL || use[u].role == EV_COLL_DONE)
            continue;
        struct ev_msg m_buf;
        const struct ev_msg *m = ev__msgp(ix, use[u].i, &m_buf);
        if ((f->peer < 0 || m->peer == f->peer) &&
            (f->tag < 0 || m->tag == f->tag))
            return 1;
    }
    return 0;
}

void ev_print_events_header(FILE *out)
{
    fprintf(out, "%4s %8s  %-22s %6s %6s %-6s %7s %9s %10s\n", "rank",
            "event", "function", "peer", "tag", "comm", "count", "bytes",
            "dur (us)");
}

/* The columns of EV (rank R's, its uses USE[0..NU)) into *ROW. */
static void fill_row(struct ev_run *x, const struct ev_index *ix, int rank,
                     const struct log_event *ev, const struct ev_use *use,
                     int nu, struct ev_row *row)
{
    struct ev_brief in;
    struct ev_msg mb;
    const struct ev_msg *m = NULL;
    int nmsg = 0;

    memset(row, 0, sizeof *row);
    strcpy(row->peer, "-");
    strcpy(row->tag, "-");
    strcpy(row->comm, "-");
    strcpy(row->count, "-");
    ev_brief_of(ev, &in);
    for (int u = 0; u < nu; u++)
        if (use[u].role != EV_COLL && use[u].role != EV_COLL_DONE &&
            !nmsg++)
            m = ev__msgp(ix, use[u].i, &mb);
    if (m) {
        const char *more = nmsg > 1 ? "+" : "";
        if (m->flags & EV_M_PROC_NULL)
            snprintf(row->peer, sizeof row->peer, "null%s", more);
        else if (m->peer >= 0)
            snprintf(row->peer, sizeof row->peer, "%d%s", m->peer, more);
        else
            snprintf(row->peer, sizeof row->peer, "?%s", more);
        if (m->tag >= 0)
            snprintf(row->tag, sizeof row->tag, "%d", m->tag);
        if (m->comm >= 0)
            snprintf(row->comm, sizeof row->comm, "#%d", m->comm);
    } else {
        ev_brief_peer_tag(&in, row->peer, row->tag);
    }
    if (!m && in.has_comm) {
        int side;
        int c = ev__comm_of(ix, x->world_size, rank, ev->index,
                            (uint32_t)in.comm, &side);
        if (c >= 0)
            snprintf(row->comm, sizeof row->comm, "#%d", c);
        else
            snprintf(row->comm, sizeof row->comm, "%#" PRIx64,
                     (uint64_t)(uint32_t)in.comm);
    }
    if (in.has_count)
        snprintf(row->count, sizeof row->count, "%" PRId64, in.count);
    row->rank = rank;
    row->event = ev->index;
    /* A callback entry is no call of the function that registered the
     * callback: its note (row->callback) says what MPI ran. */
    row->function = ev_callback_kind(ev) ? "(callback)"
                    : ev->desc           ? ev->desc->name
                                         : "(end)";
    row->bytes = in.bytes;
    row->dur_us = (double)ev->dur_ns / 1000.0;
    row->has_ret = (ev->flags & LOG_REC_RET) != 0;
    row->ret = ev->ret;
    row->died = (ev->flags & LOG_REC_DIED) != 0;
    row->repeat = ev->flags & LOG_REC_REPEAT ? ev->repeat : 0;
    ev_brief_callback(ev, row->callback);
    ev_brief_cycle(ev, row->cycle, sizeof row->cycle);
    row->has_thread = (ev->flags & LOG_REC_THREAD) != 0;
    row->thread = ev->thread;
}

void ev_print_row(FILE *out, const struct ev_row *row, int mark)
{
    fprintf(out, "%4d %8" PRIu64 "  %-22s %6s %6s %-6s %7s %9" PRIu64
            " %10.3f", row->rank, row->event, row->function, row->peer,
            row->tag, row->comm, row->count, row->bytes, row->dur_us);
    if (row->has_ret)
        fprintf(out, "  ret=%d", row->ret);
    if (row->died)
        fputs("  died here (MPI ended the rank in the call)", out);
    if (row->repeat)
        fprintf(out, "  x%" PRIu64 "%s", row->repeat, row->cycle);
    fputs(row->callback, out);
    if (row->has_thread) {
        char th[32];
        log_thread_name(th, sizeof th, row->thread);
        fprintf(out, "  thread %s", th);
    }
    if (mark)
        fputs(mark == EV_MARK_INSIDE ? "  <= inside" : "  <= here", out);
    fputc('\n', out);
}

static void print_row(void *ud, const struct ev_row *row, int mark)
{
    ev_print_row(ud, row, mark);
}

long long ev_print_events(struct ev_run *x, FILE *out, int rank,
                          uint64_t from, uint64_t count,
                          const struct ev_filter *f, long long mark,
                          char *err, size_t errlen)
{
    return ev_list_events(x, rank, from, count, f, mark, print_row, out, err,
                          errlen);
}

long long ev_list_events(struct ev_run *x, int rank, uint64_t from,
                         uint64_t count, const struct ev_filter *f,
                         long long mark, ev_row_fn *fn, void *ud, char *err,
                         size_t errlen)
{
    if (rank < 0 || rank >= x->world_size || !x->ranks[rank].present)
        return ev_build(x, err, errlen) < 0 ? -1 : 0;
    const struct ev_index *ix = ev__index_for(x, rank, err, errlen);
    if (!ix)
        return -1;
    const struct log_rank *lr = &x->ranks[rank].log;
    uint64_t shown = 0;
    for (uint64_t n = from; n < lr->nevents && shown < count; n++) {
        struct log_event ev;
        struct ev_use use[64];
        if (ev_event(x, rank, n, &ev, err, errlen) < 0)
            return -1;
        int nu = ev__uses(ix, x->world_size, rank, n, use, 64);
        if (nu > 64)
            nu = 64;
        if (nu < 0)
            nu = 0;
        if (!passes(ix, f, &ev, use, nu))
            continue;
        struct ev_row row;
        fill_row(x, ix, rank, &ev, use, nu, &row);
        fn(ud, &row, mark >= 0 && (uint64_t)mark == n);
        shown++;
    }
    return (long long)shown;
}
