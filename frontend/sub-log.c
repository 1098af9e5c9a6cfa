/* drdb log: inspect a recorded run (info, dump). */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fe.h"
#include "log.h"

/* Index of the argument NAME of the event's function, or -1. */
static int arg_index(const struct log_event *ev, const char *name)
{
    if (!ev->desc)
        return -1;
    for (int i = 0; i < ev->desc->nargs; i++)
        if (strcmp(ev->desc->args[i].name, name) == 0 &&
            ev->desc->args[i].size)
            return i;
    return -1;
}

static int has_arg(const struct log_event *ev, const char *name, int64_t *v)
{
    int i = arg_index(ev, name);
    if (i < 0)
        return 0;
    *v = log_event_arg(ev, i);
    return 1;
}

void fe_event_brief(const struct log_event *ev, struct fe_event_info *info)
{
    static const char *const peers[] = {"dest", "source", "root", "rank"};
    static const char *const counts[] = {"count", "sendcount", "recvcount",
                                         "incount"};
    struct log_field f;
    size_t cur = 0;
    int64_t v;
    int rc;

    memset(info, 0, sizeof *info);
    info->has_peer = info->has_tag = info->has_comm = info->has_count = 0;
    for (size_t i = 0; i < sizeof peers / sizeof peers[0]; i++)
        if (has_arg(ev, peers[i], &v)) {
            info->peer = v;
            info->has_peer = 1;
            break;
        }
    if (has_arg(ev, "tag", &v) || has_arg(ev, "sendtag", &v)) {
        info->tag = v;
        info->has_tag = 1;
    }
    if (has_arg(ev, "comm", &v)) {
        info->comm = v;
        info->has_comm = 1;
    }
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
        if (has_arg(ev, counts[i], &v)) {
            info->count = v;
            info->has_count = 1;
            break;
        }
    while ((rc = log_event_field(ev, &cur, &f)) == 1) {
        if (f.kind == LOG_F_DATA)
            info->bytes += f.len;
        int32_t st[5];
        if (f.kind == LOG_F_STATUS && !info->has_status &&
            log_field_status(&f, st) == 0) {
            info->has_status = 1;
            info->st_source = st[2];
            info->st_tag = st[3];
        }
    }
    info->malformed = rc < 0;
}

static void print_event(const struct log_event *ev)
{
    struct fe_event_info in;
    char peer[32] = "-", tag[32] = "-", comm[32] = "-", count[32] = "-";

    fe_event_brief(ev, &in);
    /* What a receive matched (from its status) beats what it asked for,
     * which may be MPI_ANY_SOURCE / MPI_ANY_TAG. */
    if (in.has_status) {
        snprintf(peer, sizeof peer, "%d", in.st_source);
        snprintf(tag, sizeof tag, "%d", in.st_tag);
    }
    if (in.has_peer && !in.has_status)
        snprintf(peer, sizeof peer, "%" PRId64, in.peer);
    if (in.has_tag && !in.has_status)
        snprintf(tag, sizeof tag, "%" PRId64, in.tag);
    if (in.has_comm)
        snprintf(comm, sizeof comm, "%#" PRIx64, (uint64_t)(uint32_t)in.comm);
    if (in.has_count)
        snprintf(count, sizeof count, "%" PRId64, in.count);
    printf("%8" PRIu64 "  %-22s %6s %6s %-11s %7s %9" PRIu64 " %10.3f",
           ev->index, ev->desc ? ev->desc->name : "(end)", peer, tag, comm,
           count, in.bytes, (double)ev->dur_ns / 1000.0);
    if (ev->flags & LOG_REC_RET)
        printf("  ret=%d", ev->ret);
    if (ev->flags & LOG_REC_REPEAT)
        printf("  x%" PRIu64, ev->repeat);
    if (ev->flags & LOG_REC_PARTIAL)
        printf("  (partial)");
    if (ev->flags & LOG_REC_TRUNC)
        printf("  logging stopped here (%s)", strerror(-ev->ret));
    if (in.malformed)
        printf("  (malformed fields)");
    putchar('\n');
}

/* One line per rank; returns the number of ranks with a problem. */
int fe_log_summary(const char *dir, FILE *out)
{
    struct log_run run;
    char err[512];
    int bad = 0;

    if (log_run_open(&run, dir, err, sizeof err) < 0) {
        fprintf(out, "drdb: %s\n", err);
        return 1;
    }
    fprintf(out, "%-6s %10s %12s %12s %10s %9s  %s\n", "rank", "events",
            "log bytes", "data bytes", "span (s)", "recorder", "state");
    for (int r = 0; r < run.world_size; r++) {
        char path[4200];
        struct log_rank lr;
        log_rank_path(path, sizeof path, dir, r);
        if (log_rank_open(&lr, path, err, sizeof err) < 0) {
            if (errno == ENOENT || access(path, F_OK) < 0)
                fprintf(out, "%-6d %10s %12s %12s %10s %9s  not recorded\n",
                        r, "-", "-", "-", "-", "-");
            else {
                fprintf(out, "%-6d  %s\n", r, err);
                bad++;
            }
            continue;
        }
        uint64_t data = 0;
        for (uint64_t n = 0; n < lr.nevents; n++) {
            struct log_event ev;
            struct fe_event_info in;
            if (log_rank_event(&lr, n, &ev, NULL, 0) == 0) {
                fe_event_brief(&ev, &in);
                data += in.bytes;
            }
        }
        double span = lr.nevents
            ? (double)lr.enter[lr.nevents - 1] / 1e9 : 0.0;
        /* Overhead estimate: the time the recorder itself spent logging,
         * as a share of the rank's run (known once the log is closed). */
        char ovh[16] = "-";
        if (lr.hdr.recorder_ns && span > 0)
            snprintf(ovh, sizeof ovh, "%.2f%%",
                     100.0 * (double)lr.hdr.recorder_ns / 1e9 / span);
        fprintf(out, "%-6d %10" PRIu64 " %12" PRIu64 " %12" PRIu64
                     " %10.3f %9s  %s\n", r, lr.nevents, lr.end_off, data,
                span, ovh,
                lr.stop_reason[0] ? lr.stop_reason
                : (lr.hdr.flags & LOG_HDR_TRUNCATED) ? "truncated (disk full)"
                                                      : "complete");
        if (lr.stop_reason[0])
            bad++;
        log_rank_release(&lr);
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

    if (argc != 2)
        return fe_error("usage: drdb log info RUNDIR");
    if (log_run_open(&run, argv[1], err, sizeof err) < 0)
        return fe_error("%s", err);
    printf("run:        %s\nworld size: %d\nrank logs:  %d\n", argv[1],
           run.world_size, run.nranks_present);
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (log_run_get(&run, keys[i], buf, sizeof buf))
            printf("%-11s %s\n", keys[i], buf);
    log_run_release(&run);
    putchar('\n');
    return fe_log_summary(argv[1], stdout) ? 1 : 0;
}

static int cmd_dump(int argc, char **argv)
{
    static const struct option opts[] = {
        {"rank", required_argument, NULL, 'r'},
        {"from", required_argument, NULL, 'f'},
        {"count", required_argument, NULL, 'c'},
        {NULL, 0, NULL, 0},
    };
    long rank = -1;
    uint64_t from = 0, count = UINT64_MAX;
    int c;
    char *end;

    optind = 1;
    while ((c = getopt_long(argc, argv, "r:f:c:", opts, NULL)) != -1) {
        switch (c) {
        case 'r':
            rank = strtol(optarg, &end, 10);
            if (*end || rank < 0)
                return fe_error("--rank takes a rank number, not '%s'",
                                optarg);
            break;
        case 'f':
            from = strtoull(optarg, &end, 10);
            if (*end)
                return fe_error("--from takes an event number, not '%s'",
                                optarg);
            break;
        case 'c':
            count = strtoull(optarg, &end, 10);
            if (*end)
                return fe_error("--count takes a number, not '%s'", optarg);
            break;
        default:
            return 2;
        }
    }
    if (optind + 1 != argc || rank < 0)
        return fe_error("usage: drdb log dump RUNDIR --rank R [--from N] "
                        "[--count K]");

    const char *dir = argv[optind];
    struct log_run run;
    char err[512], path[4200];
    if (log_run_open(&run, dir, err, sizeof err) < 0)
        return fe_error("%s", err);
    if (rank >= run.world_size) {
        int ws = run.world_size;
        log_run_release(&run);
        return fe_error("no rank %ld: the run has ranks 0-%d", rank, ws - 1);
    }
    log_run_release(&run);

    struct log_rank lr;
    log_rank_path(path, sizeof path, dir, (int)rank);
    if (log_rank_open(&lr, path, err, sizeof err) < 0)
        return fe_error("%s", err);
    printf("%8s  %-22s %6s %6s %-11s %7s %9s %10s\n", "event", "function",
           "peer", "tag", "comm", "count", "bytes", "dur (us)");
    int status = 0;
    for (uint64_t n = from; n < lr.nevents && n - from < count; n++) {
        struct log_event ev;
        if (log_rank_event(&lr, n, &ev, err, sizeof err) < 0) {
            status = fe_error("rank %ld event %" PRIu64 ": %s", rank, n, err);
            break;
        }
        print_event(&ev);
    }
    if (lr.stop_reason[0])
        printf("-- rank %ld: %s\n", rank, lr.stop_reason);
    log_rank_release(&lr);
    return status;
}

static int run(int argc, char **argv)
{
    if (argc < 2) {
        fe_subcmd_usage(&fe_sub_log, stderr);
        return 2;
    }
    if (strcmp(argv[1], "info") == 0)
        return cmd_info(argc - 1, argv + 1);
    if (strcmp(argv[1], "dump") == 0)
        return cmd_dump(argc - 1, argv + 1);
    fe_error("unknown 'drdb log' command '%s': use info or dump", argv[1]);
    return 2;
}

const struct fe_subcmd fe_sub_log = {
    .name = "log",
    .args = "info RUNDIR | dump RUNDIR --rank R [--from N] [--count K]",
    .summary = "inspect a recorded run: ranks, events, completeness; dump events",
    .help = "  info RUNDIR   the run description and one line per rank: "
            "events, bytes,\n                time span, and whether the log "
            "is complete\n"
            "  dump RUNDIR --rank R [--from N] [--count K]\n"
            "                one line per event: number, function, peer, tag, "
            "communicator,\n                count, data bytes, duration. For "
            "receives, peer and tag are\n                the matched ones "
            "(from the status).\n",
    .run = run,
};
