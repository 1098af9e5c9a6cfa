/* drdb log: inspect a recorded run (info, dump, events, event, match,
 * queues). */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "args.h"
#include "ev-srcline.h"
#include "events.h"
#include "fe.h"
#include "log-abi.h"
#include "remote.h"
#include "log-reader.h"
#include "log.h"
#include "term-escape.h"

static void print_event(const struct log_event *ev)
{
    struct ev_brief in;
    char peer[32] = "-", tag[32] = "-", comm[32] = "-", count[32] = "-";

    ev_brief_of(ev, &in);
    ev_brief_peer_tag(&in, peer, tag);
    if (in.has_comm)
        snprintf(comm, sizeof comm, "%#" PRIx64, (uint64_t)(uint32_t)in.comm);
    if (in.has_count)
        snprintf(count, sizeof count, "%" PRId64, in.count);
    printf("%8" PRIu64 "  %-22s %6s %6s %-11s %7s %9" PRIu64 " %10.3f",
           ev->index, ev->desc ? ev->desc->name : "(end)", peer, tag, comm,
           count, in.bytes, (double)ev->dur_ns / 1000.0);
    if (ev->flags & LOG_REC_RET)
        printf("  ret=%d", ev->ret);
    if (ev->flags & LOG_REC_REPEAT) {
        char cyc[160];
        ev_brief_cycle(ev, cyc, sizeof cyc);
        printf("  x%" PRIu64 "%s", ev->repeat, cyc);
    }
    if (ev->flags & LOG_REC_THREAD) {
        char th[32];
        log_thread_name(th, sizeof th, ev->thread);
        printf("  thread=%s", th);
    }
    if (ev->flags & LOG_REC_PARTIAL)
        printf("  (partial)");
    if (ev->flags & LOG_REC_DIED) {
        char e[64];
        printf("  died here: MPI ended the rank in this call");
        if (ev->ret)
            printf(" (%s)", log_mpi_err_str(e, sizeof e, ev->ret));
    } else if (ev->flags & LOG_REC_TRUNC) /* ret: the errno, positive */
        printf("  logging stopped here (%s)",
               strerror(ev->ret < 0 ? -ev->ret : ev->ret));
    if (in.malformed)
        printf("  (malformed fields)");
    char cb[EV_CB_LEN];
    ev_brief_callback(ev, cb);
    fputs(cb, stdout);
    putchar('\n');
}

static void not_recorded(FILE *out, int a, int b)
{
    char ranks[32];
    snprintf(ranks, sizeof ranks, a == b ? "%d" : "%d-%d", a, b);
    fprintf(out, "%-6s %10s %12s %12s %10s %9s %12s %9s  not recorded\n",
            ranks, "-", "-", "-", "-", "-", "-", "-");
}

/* BYTES per second of SPAN, as "812", "31.2K", "2.71M", "1.05G" ("-": no
 * span). */
static void rate(char *buf, size_t len, uint64_t bytes, double span)
{
    double r = span > 0 ? (double)bytes / span : -1;
    if (r < 0)
        snprintf(buf, len, "-");
    else if (r < 1e3)
        snprintf(buf, len, "%.0f", r);
    else if (r < 1e6)
        snprintf(buf, len, "%.3gK", r / 1e3);
    else if (r < 1e9)
        snprintf(buf, len, "%.3gM", r / 1e6);
    else
        snprintf(buf, len, "%.3gG", r / 1e9);
}

/* One line per rank; returns the number of ranks with a problem. */
int fe_log_summary(const char *dir, FILE *out, int trusted)
{
    struct log_run run;
    char err[512];
    int bad = 0;

    if (log_run_open(&run, dir, err, sizeof err) < 0) {
        fprintf(out, "drdb: %s\n", err);
        return 1;
    }
    /* events: records; calls: the MPI calls they stand for (a repeated
     * poll or polling cycle is one event); log/s: log bytes per second of
     * the rank's run (the last line: all ranks' per second of the
     * longest). */
    fprintf(out, "%-6s %10s %12s %12s %10s %9s %12s %9s  %s\n", "rank",
            "events", "log bytes", "data bytes", "span (s)", "log/s",
            "calls", "recorder", "state");
    uint64_t all_events = 0, all_bytes = 0, all_data = 0, all_calls = 0;
    double all_span = 0;
    int nlogs = 0;
    /* The ranks with a log, each on its line; the ranks between them, with
     * none, on one line per run of them ("4-1023"). */
    for (int i = 0, next = 0; i <= run.nranks_present; i++) {
        int r = i < run.nranks_present ? run.present[i] : run.world_size;
        if (r > next)
            not_recorded(out, next, r - 1);
        if (r == run.world_size)
            break;
        next = r + 1;
        char path[4200];
        struct log_rank lr;
        log_path(path, sizeof path, dir, r);
        int rc = trusted ? log_rank_open_trusted(&lr, path, err, sizeof err)
                         : log_rank_open(&lr, path, err, sizeof err);
        if (rc < 0) {
            if (rc == -ENOENT)
                not_recorded(out, r, r);
            else {
                fprintf(out, "%-6d  %s%s\n", r,
                        rc == -EBADMSG ? "header corrupt: " : "", err);
                bad++;
            }
            continue;
        }
        uint64_t data = 0, calls = 0;
        for (uint64_t n = 0; n < lr.nevents; n++) {
            struct log_event ev;
            struct ev_brief in;
            if (log_rank_event(&lr, n, &ev, NULL, 0) == 0) {
                ev_brief_of(&ev, &in);
                data += in.bytes;
                if (!(ev.flags & LOG_REC_TRUNC))
                    calls += log_event_calls(&ev);
            }
        }
        double span = lr.nevents
            ? (double)log_rank_enter(&lr, lr.nevents - 1) / 1e9 : 0.0;
        /* Overhead estimate: the time the recorder itself spent logging,
         * as a share of the rank's run (known once the log is closed). */
        char ovh[16] = "-", ending[256];
        if (lr.hdr.recorder_ns && span > 0)
            snprintf(ovh, sizeof ovh, "%.2f%%",
                     100.0 * (double)lr.hdr.recorder_ns / 1e9 / span);
        if (log_rank_ending_in(dir, &lr, ending, sizeof ending) !=
            LOG_END_COMPLETE)
            bad++;
        /* A log copied or renamed from another rank's: said, as it would
         * replay another rank's calls. */
        if (lr.hdr.rank != r) {
            snprintf(ending, sizeof ending, "header says rank %d: this file "
                     "is another rank's log, renamed or copied",
                     lr.hdr.rank);
            bad++;
        }
        char bps[16];
        rate(bps, sizeof bps, lr.end_off, span);
        fprintf(out, "%-6d %10" PRIu64 " %12" PRIu64 " %12" PRIu64
                     " %10.3f %9s %12" PRIu64 " %9s  %s\n", r, lr.nevents,
                lr.end_off, data, span, bps, calls, ovh, ending);
        all_events += lr.nevents;
        all_bytes += lr.end_off;
        all_data += data;
        all_calls += calls;
        all_span = span > all_span ? span : all_span;
        nlogs++;
        log_rank_release(&lr);
    }
    if (nlogs > 1) {
        char bps[16];
        rate(bps, sizeof bps, all_bytes, all_span);
        fprintf(out, "%-6s %10" PRIu64 " %12" PRIu64 " %12" PRIu64
                     " %10.3f %9s %12" PRIu64 "\n", "all", all_events,
                all_bytes, all_data, all_span, bps, all_calls);
    }
    log_run_release(&run);
    return bad;
}

static int cmd_info(int argc, char **argv)
{
    struct log_run run;
    char err[512], buf[4096];
    static const char *const keys[] = {"exe", "cwd", "command", "mpi_library",
                                       "recorder"};
    struct fe_pos pos;
    if (fe_subcmd_parse(&fe_sub_log_info, argc, argv, NULL, 1, &pos) < 0)
        return 2;
    if (pos.n != 1 || pos.rest < argc)
        return fe_subcmd_misuse(&fe_sub_log_info);
    const char *dir = pos.v[0];
    if (log_run_open(&run, dir, err, sizeof err) < 0)
        return fe_error("%s", err);
    /* (what the run says is shown, never obeyed: term-escape.h) */
    char *shown = term_escape(dir, 0);
    printf("run:        %s\nworld size: %d\nrank logs:  %d\n",
           shown ? shown : "?", run.world_size, run.nranks_present);
    free(shown);
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (log_run_get(&run, keys[i], buf, sizeof buf)) {
            shown = term_escape(buf, 0);
            printf("%-11s %s\n", keys[i], shown ? shown : "?");
            free(shown);
        }
    switch (log_run_recording(dir)) {
    case LOG_RECORDING_RUNNING:
        printf("complete:   no, drdb record is still recording it\n");
        break;
    case LOG_RECORDING_INTERRUPTED:
        printf("complete:   no, drdb record was killed: its job ended with "
               "it; each log ends at its rank's last completed call\n");
        break;
    case LOG_RECORDING_DONE:
        break;
    }
    putchar('\n');
    int rc = fe_log_summary(dir, stdout, 0) ? 1 : 0;
    fe_log_libc_summary(dir, run.present, run.nranks_present, stdout);
    fe_zstatus_print(dir, stdout);
    log_run_release(&run);
    return rc;
}

const struct fe_subcmd fe_sub_log_info = {
    .name = "info",
    .args = "RUNDIR",
    .summary = "the run description and one line per rank: events, bytes, "
               "time span, and whether the log is complete",
    .parent = &fe_sub_log,
    .run = cmd_info,
};

#define OFF(f) offsetof(struct fe_events_opts, f)
const struct fe_opt fe_events_opt_table[] = {
    FE_U64('f', "from", "N", OFF(from), 0, "an event number", "from event N"),
    FE_U64('c', "count", "K", OFF(count), 0, NULL, "K events at most"),
    FE_STR('n', "call", "NAME", OFF(call), "only calls of function NAME "
     "(MPI_ optional, wildcards allowed: 'Wait*')"),
    FE_INT('p', "peer", "P", OFF(peer), 0, INT_MAX, NULL, "only events that "
     "send to or receive from world rank P"),
    FE_INT('t', "tag", "T", OFF(tag), 0, INT_MAX, NULL, "only events of "
     "message tag T"),
    FE_END,
};
#undef OFF

/* The options of drdb log dump and events: which events of which rank. */
struct events_opts {
    long long rank;
    int lines;
    struct fe_events_opts ev;
    struct fe_run_opts run;
};
#define OFF(f) offsetof(struct events_opts, f)
static const struct fe_opt dump_opts[] = {
    FE_INT('r', "rank", "R", OFF(rank), 0, INT_MAX, "a rank number", "the "
     "rank (required)"),
    FE_U64('f', "from", "N", OFF(ev.from), 0, "an event number", "from event "
     "N (default 0)"),
    FE_U64('c', "count", "K", OFF(ev.count), 0, NULL, "K events at most"),
    FE_END,
};

static const struct fe_opt events_opts[] = {
    FE_INT('r', "rank", "R", OFF(rank), 0, INT_MAX, "a rank number", "rank "
     "R's events only (default: every rank's)"),
    FE_GROUP(OFF(ev), fe_events_opt_table),
    FE_FLAG('l', "lines", OFF(lines), "each event with where the program "
     "made the call (FILE:LINE, from its DWARF)"),
    FE_GROUP(OFF(run), fe_run_opt_table),
    FE_END,
};
#undef OFF

static int cmd_dump(int argc, char **argv)
{
    struct events_opts o = {.rank = -1, .ev = {.count = UINT64_MAX}};
    struct fe_pos pos;
    if (fe_subcmd_parse(&fe_sub_log_dump, argc, argv, &o, 1, &pos) < 0)
        return 2;
    if (pos.n != 1 || pos.rest < argc || o.rank < 0)
        return fe_subcmd_misuse(&fe_sub_log_dump);
    long long rank = o.rank;
    uint64_t from = o.ev.from, count = o.ev.count;
    const char *dir = pos.v[0];
    struct log_run run;
    char err[512], path[4200];
    if (log_run_open(&run, dir, err, sizeof err) < 0)
        return fe_error("%s", err);
    if (rank >= run.world_size) {
        int ws = run.world_size;
        log_run_release(&run);
        return fe_error("no rank %lld: the run has ranks 0-%d", rank, ws - 1);
    }
    log_run_release(&run);

    struct log_rank lr;
    log_path(path, sizeof path, dir, (int)rank);
    if (log_rank_open(&lr, path, err, sizeof err) < 0)
        return fe_error("%s", err);
    if (from && from >= lr.nevents) {
        uint64_t nev = lr.nevents;
        log_rank_release(&lr);
        if (!nev)
            fe_error("rank %lld has no events", rank);
        else
            fe_error("rank %lld has no event %llu: its events are 0-%llu",
                     rank, (unsigned long long)from,
                     (unsigned long long)(nev - 1));
        return 2;
    }
    printf("%8s  %-22s %6s %6s %-11s %7s %9s %10s\n", "event", "function",
           "peer", "tag", "comm", "count", "bytes", "dur (us)");
    int status = 0;
    for (uint64_t n = from; n < lr.nevents && n - from < count; n++) {
        struct log_event ev;
        if (log_rank_event(&lr, n, &ev, err, sizeof err) < 0) {
            status = fe_error("rank %lld event %" PRIu64 ": %s", rank, n,
                              err);
            break;
        }
        print_event(&ev);
    }
    /* The reason reading stopped; a damaged log is an error (exit 1), a
     * rank that just stopped early (killed, disk full) is not. */
    char ending[256];
    enum log_ending end = log_rank_ending(&lr, ending, sizeof ending);
    if (lr.stop_reason[0])
        printf("-- rank %lld: %s\n", rank, lr.stop_reason);
    else if (end == LOG_END_TRUNCATED)
        printf("-- rank %lld: %s\n", rank, ending);
    if (end == LOG_END_CORRUPT && !status)
        status = fe_error("rank %lld's log is damaged: %s", rank,
                          lr.stop_reason);
    log_rank_release(&lr);
    return status;
}

const struct fe_subcmd fe_sub_log_dump = {
    .name = "dump",
    .args = "RUNDIR --rank R",
    .summary = "one line per event: number, function, peer, tag, "
               "communicator, count, data bytes, duration. For receives, "
               "peer and tag are the matched ones (from the status)",
    .opts = dump_opts,
    .parent = &fe_sub_log,
    .run = cmd_dump,
};

/* ---- events, event, match, queues: the event index (events.h) ---- */

/* The run opened (fe_ev_open). */
static struct fe_run opened;

/* Opens the run SPEC and O name (local, HOST:RUNDIR, parts) into X
 * (WHOLE: to build the whole index next): 0, or -1 with ERR. */
static int run_open(struct ev_run *x, const char *spec,
                    struct fe_run_opts *o, int whole, char *err,
                    size_t errlen)
{
    if (fe_run_opts_done(o, &spec, err, errlen) < 0)
        return -1;
    return fe_ev_open(x, &opened, spec, o, whole, err, errlen);
}

static void run_close(struct ev_run *x)
{
    ev_close(x);
    fe_run_close(&opened);
}

/* Parses "R:N" into *RANK and *N: 0, or -1 after an error message. */
static int parse_ref(const char *s, int *rank, uint64_t *n)
{
    if (fe_parse_event(s, rank, n) == 0)
        return 0;
    fe_error("'%s' is not an event: write RANK:EVENT, like 0:17", s);
    return -1;
}

/* Opens RUN for a query on R:N (checked): 0, or the exit status. */
static int open_at(struct ev_run *x, const char *dir, struct fe_run_opts *o,
                   const char *ref, int *rank, uint64_t *n)
{
    char err[512];
    struct log_event ev;
    if (parse_ref(ref, rank, n) < 0)
        return 2;
    if (run_open(x, dir, o, 1, err, sizeof err) < 0)
        return fe_error("%s", err);
    if (ev_event(x, *rank, *n, &ev, err, sizeof err) < 0) {
        run_close(x);
        fe_error("%s", err);
        return 2;
    }
    return 0;
}

/* `events --lines`: a row, then where its call was made. */
struct lines_out {
    struct ev_run *x;
    FILE *out;
};

static void print_row_line(void *ud, const struct ev_row *row, int mark)
{
    struct lines_out *lo = ud;
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    if (!mem)
        return;
    ev_print_row(mem, row, mark);
    fclose(mem);
    if (len && buf[len - 1] == '\n')
        buf[--len] = '\0';
    struct ev_srcloc loc;
    char where[2400], err[256];
    int rc = ev_srcline(lo->x, row->rank, row->event, &loc, err, sizeof err);
    if (rc == 1)
        ev_srcloc_format(&loc, where, sizeof where);
    fprintf(lo->out, "%s  at %s\n", buf, rc == 1 ? where : "?");
    free(buf);
}

static int cmd_events(int argc, char **argv)
{
    static struct events_opts o = {.rank = -1,
                                   .ev = {.count = UINT64_MAX, .peer = -1,
                                          .tag = -1}};
    struct fe_pos pos;
    fe_run_opts_init(&o.run);
    if (fe_subcmd_parse(&fe_sub_log_events, argc, argv, &o, 1, &pos) < 0)
        return 2;
    if (pos.n != 1 || pos.rest < argc)
        return fe_subcmd_misuse(&fe_sub_log_events);
    long long rank = o.rank, peer = o.ev.peer, tag = o.ev.tag;
    uint64_t from = o.ev.from, count = o.ev.count;
    const char *call = o.ev.call;
    int lines = o.lines;
    struct ev_run x;
    char err[512];
    if (run_open(&x, pos.v[0], &o.run, rank < 0, err, sizeof err) < 0)
        return fe_error("%s", err);
    if (rank >= x.world_size || peer >= x.world_size) {
        fe_error("no rank %lld: the run has ranks 0-%d",
                 rank >= x.world_size ? rank : peer, x.world_size - 1);
        run_close(&x);
        return 2;
    }
    if (rank >= 0 && !x.ranks[rank].present) {
        fe_error("rank %lld was not recorded: %s", rank,
                 ev_rank_missing(&x, (int)rank));
        run_close(&x);
        return 2;
    }
    struct ev_filter f = {call, peer, tag};
    if (ev_filter_check(&f, err, sizeof err) < 0) {
        fe_error("%s", err);
        run_close(&x);
        return 2;
    }
    /* The index before the header, so that an error comes alone: one
     * rank's listing builds that rank's alone (events.h: ev_list_events,
     * listing none here). */
    if (rank >= 0 ? ev_list_events(&x, (int)rank, 0, 0, &f, -1, NULL, NULL,
                                   err, sizeof err) < 0
                  : ev_build(&x, err, sizeof err) < 0) {
        run_close(&x);
        return fe_error("%s", err);
    }
    ev_print_events_header(stdout);
    int status = 0;
    uint64_t shown = 0;
    for (int r = rank < 0 ? 0 : (int)rank;
         r < (rank < 0 ? x.world_size : (int)rank + 1) && shown < count;
         r++) {
        struct lines_out lo = {&x, stdout};
        long long k = lines ? ev_list_events(&x, r, from, count - shown, &f,
                                             -1, print_row_line, &lo, err,
                                             sizeof err)
                            : ev_print_events(&x, stdout, r, from,
                                              count - shown, &f, -1, err,
                                              sizeof err);
        if (k < 0) {
            status = fe_error("%s", err);
            break;
        }
        shown += (uint64_t)k;
    }
    run_close(&x);
    return status;
}

const struct fe_subcmd fe_sub_log_events = {
    .name = "events",
    .args = "RUNDIR",
    .summary = "like dump, for one rank or all, filtered. Peers are world "
               "ranks, communicators global ids (#0 is MPI_COMM_WORLD)",
    .opts = events_opts,
    .parent = &fe_sub_log,
    .run = cmd_events,
};

/* The options of drdb log event, match, queues. */
struct at_opts {
    int raw, all;
    long long bench;
    struct fe_run_opts run;
};
#define OFF(f) offsetof(struct at_opts, f)
static const struct fe_opt event_opts[] = {
    FE_FLAG(0, "raw", OFF(raw), "data in hex, not decoded by its datatype"),
    FE_GROUP(OFF(run), fe_run_opt_table),
    FE_END,
};
static const struct fe_opt match_opts[] = {
    FE_FLAG(0, "all", OFF(all), "every receive and unmatched send of the "
     "run, and every collective instance, one line each (no R:N)"),
    FE_INT(0, "bench", "Q", OFF(bench), 0, LONG_MAX, "a number of queries", "time "
     "opening the run, building its index and Q random partner queries (no "
     "R:N)"),
    FE_GROUP(OFF(run), fe_run_opt_table),
    FE_END,
};
static const struct fe_opt queues_opts[] = {
    FE_GROUP(OFF(run), fe_run_opt_table),
    FE_END,
};
#undef OFF

/* Parses drdb log CMD's command line (RUNDIR R:N) into O and POS: 0, or
 * the exit status. */
static int parse_at(const struct fe_subcmd *cmd, int argc, char **argv,
                    struct at_opts *o, struct fe_pos *pos)
{
    fe_run_opts_init(&o->run);
    o->bench = -1;
    if (fe_subcmd_parse(cmd, argc, argv, o, 2, pos) < 0)
        return 2;
    if (pos->rest < argc || pos->n != 2 - (o->all || o->bench >= 0))
        return fe_subcmd_misuse(cmd);
    return 0;
}

/* drdb log CMD RUNDIR R:N: its options into O, the run opened into X at
 * rank *RANK's event *N (checked): 0, or the exit status. */
static int open_cmd_at(const struct fe_subcmd *cmd, int argc, char **argv,
                       struct at_opts *o, struct ev_run *x, int *rank,
                       uint64_t *n)
{
    struct fe_pos pos;
    int st = parse_at(cmd, argc, argv, o, &pos);
    return st ? st : open_at(x, pos.v[0], &o->run, pos.v[1], rank, n);
}

static int cmd_event(int argc, char **argv)
{
    static struct at_opts o;
    struct ev_run x;
    int rank, st;
    uint64_t n;
    char err[512];
    if ((st = open_cmd_at(&fe_sub_log_event, argc, argv, &o, &x, &rank, &n)))
        return st;
    st = ev_print_event(&x, stdout, rank, n, o.raw, err, sizeof err) < 0
             ? fe_error("%s", err) : 0;
    run_close(&x);
    return st;
}

const struct fe_subcmd fe_sub_log_event = {
    .name = "event",
    .args = "RUNDIR R:N",
    .summary = "rank R's event N in full: the source line it was called "
               "from, arguments, buffers, return code, statuses, handles, "
               "members, data decoded by its datatype, and what it matched",
    .opts = event_opts,
    .parent = &fe_sub_log,
    .run = cmd_event,
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* --bench Q: times opening, building and Q random partner queries. */
static int match_bench(const char *dir, struct fe_run_opts *o, long queries)
{
    struct ev_run x;
    char err[512];
    double t0 = now_s();
    if (run_open(&x, dir, o, 1, err, sizeof err) < 0)
        return fe_error("%s", err);
    double t1 = now_s();
    if (ev_build(&x, err, sizeof err) < 0) {
        run_close(&x);
        return fe_error("%s", err);
    }
    double t2 = now_s();
    uint64_t total = 0, seed = 12345, found = 0;
    for (int r = 0; r < x.world_size; r++)
        total += x.ranks[r].present ? x.ranks[r].log.nevents : 0;
    for (long q = 0; q < queries && total; q++) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        uint64_t pick = (seed >> 11) % total;
        int r = 0;
        while (!x.ranks[r].present || pick >= x.ranks[r].log.nevents) {
            pick -= x.ranks[r].present ? x.ranks[r].log.nevents : 0;
            r++;
        }
        struct ev_ref ref[16];
        if (ev_partners(&x, r, pick, ref, 16, NULL, 0) > 0)
            found++;
    }
    double t3 = now_s();
    struct ev_stats st;
    ev_stats(&x, &st);
    printf("events:        %" PRIu64 " (%d ranks)\n", total, x.world_size);
    printf("open:          %.3f s\n", t1 - t0);
    printf("build:         %.3f s (%zu sends, %zu receives, %zu matched, "
           "%zu collective calls)\n", t2 - t1, st.sends, st.recvs,
           st.matched, st.colls);
    if (x.feed_s > 0)
        printf("ahead:         %.3f s of the build done in the open, as the "
               "copies arrived\n", x.feed_s);
    printf("memory:        index %zu bytes (%.1f per event), the logs' "
           "tables %zu (%.1f per event)\n", st.index_bytes,
           total ? (double)st.index_bytes / (double)total : 0.0,
           st.table_bytes,
           total ? (double)st.table_bytes / (double)total : 0.0);
    printf("queries:       %ld in %.3f ms (%.2f us each, %" PRIu64
           " with partners)\n", queries, (t3 - t2) * 1e3,
           queries ? (t3 - t2) * 1e6 / (double)queries : 0.0, found);
    for (int i = 0; i < opened.nsrc; i++) {
        struct remote *conn = opened.src[i].conn;
        if (!conn)
            continue;
        uint64_t of, data, copied = remote_copied(conn, &of, &data);
        printf("copies:        %" PRIu64 " bytes for %" PRIu64 " bytes of "
               "logs from %s\n", copied, of, remote_host(conn));
        printf("fetched:       %" PRIu64 " bytes of message data from %s\n",
               remote_fetched(conn), remote_host(conn));
        /* What crossed: message data in the copies and fetched, and the
         * connection's bytes as received (frames and all). */
        printf("payload:       %" PRIu64 " bytes of message data received "
               "from %s\n", data + remote_fetched(conn), remote_host(conn));
        printf("wire:          %" PRIu64 " bytes received from %s\n",
               remote_wire_bytes(conn), remote_host(conn));
    }
    run_close(&x);
    return 0;
}

static int cmd_match(int argc, char **argv)
{
    static struct at_opts o;
    struct fe_pos pos;
    struct ev_run x;
    int rank, st;
    uint64_t n;
    char err[512];
    if ((st = parse_at(&fe_sub_log_match, argc, argv, &o, &pos)))
        return st;
    if (o.bench >= 0)
        return match_bench(pos.v[0], &o.run, (long)o.bench);
    if (o.all) {
        if (run_open(&x, pos.v[0], &o.run, 1, err, sizeof err) < 0)
            return fe_error("%s", err);
        if (ev_build(&x, err, sizeof err) < 0) {
            run_close(&x);
            return fe_error("%s", err);
        }
        ev_print_all_matches(&x, stdout);
        run_close(&x);
        return 0;
    }
    if ((st = open_at(&x, pos.v[0], &o.run, pos.v[1], &rank, &n)))
        return st;
    st = ev_print_match(&x, stdout, rank, n, err, sizeof err);
    if (st)
        fe_error("%s", err);
    run_close(&x);
    return st ? 1 : 0;
}

const struct fe_subcmd fe_sub_log_match = {
    .name = "match",
    .args = "RUNDIR R:N | RUNDIR --all",
    .summary = "the partners of rank R's event N: the send a receive "
               "matched, the receive of a send, the messages a Wait "
               "completed, every member's call of a collective instance",
    .opts = match_opts,
    .parent = &fe_sub_log,
    .run = cmd_match,
};

static int cmd_queues(int argc, char **argv)
{
    static struct at_opts o;
    struct ev_run x;
    int rank, st;
    uint64_t n;
    char err[512];
    if ((st = open_cmd_at(&fe_sub_log_queues, argc, argv, &o, &x, &rank,
                          &n)))
        return st;
    st = ev_print_queues(&x, stdout, rank, n, err, sizeof err) < 0
             ? fe_error("%s", err) : 0;
    run_close(&x);
    return st;
}

const struct fe_subcmd fe_sub_log_queues = {
    .name = "queues",
    .args = "RUNDIR R:N",
    .summary = "at rank R before its event N: messages sent to it and not "
               "yet received, and its pending requests (docs/events.md "
               "tells how messages are matched)",
    .opts = queues_opts,
    .parent = &fe_sub_log,
    .run = cmd_queues,
};

static const struct fe_subcmd *const log_cmds[] = {
    &fe_sub_log_info, &fe_sub_log_dump,  &fe_sub_log_events,
    &fe_sub_log_event, &fe_sub_log_match, &fe_sub_log_queues,
    &fe_sub_log_sql,  &fe_sub_log_graph, &fe_sub_log_trace,
    &fe_sub_log_libc, &fe_sub_log_compress, &fe_sub_log_sign, NULL,
};

static int run(int argc, char **argv)
{
    /* Options naming the run (HOST:RUNDIR, parts) may come before the
     * command: they are moved after its name, where its table takes
     * them. */
    struct fe_run_opts ro;
    struct fe_pos pos;
    fe_run_opts_init(&ro);
    int rc = fe_opts_parse(fe_run_opt_table, "log", argc, argv, &ro, 0,
                           &pos);
    fe_run_opts_release(&ro);
    if (rc < 0)
        return 2;
    if (pos.rest >= argc || pos.dashdash)
        return fe_subcmd_misuse(&fe_sub_log);
    const struct fe_subcmd *cmd = fe_subcmd_find(log_cmds, argv[pos.rest],
                                                 &fe_sub_log);
    if (!cmd)
        return 2;
    char *word = argv[pos.rest];
    memmove(argv + 2, argv + 1, (size_t)(pos.rest - 1) * sizeof *argv);
    argv[1] = word;
    return cmd->run(argc - 1, argv + 1);
}

const struct fe_subcmd fe_sub_log = {
    .name = "log",
    .args = "COMMAND RUNDIR [...]",
    .summary = "inspect a recorded run: ranks, events, matches, queues",
    .subs = log_cmds,
    .more = "events, event, match, queues, sql, graph and trace also take "
            "HOST:RUNDIR, a run\ndirectory on another host, read through "
            "its drdb agent over ssh: the logs'\nmetadata comes here, "
            "message data only when an event shows it\n(docs/remote.md), "
            "and a run whose logs were written on several hosts' disks\n"
            "(--also, --hosts). Their options naming the run may come before "
            "COMMAND.\n",
    .run = run,
};
