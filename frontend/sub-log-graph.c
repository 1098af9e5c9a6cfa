/* drdb log graph and drdb log trace: pictures of a run's events
 * (events/ev-graph.h, docs/pictures.md). */
#include <errno.h>
#include <signal.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "args.h"
#include "ev-graph.h"
#include "fe.h"
#include "rankset.h"
#include "remote.h"

static const char graph_usage[] =
    "usage: drdb log graph RUNDIR [--ranks SET] [--around R:N [--window K]]\n"
    "                      [--from T] [--to T] [--logical]\n"
    "                      [--tag-names T=NAME,...] -o FILE\n"
    "  The time-space diagram: a line per rank, a mark per MPI event (at\n"
    "  its recorded time, or its logical time with --logical), an arrow\n"
    "  per message from the send to the call that completed the receive\n"
    "  (the posting Irecv tied to it dotted), a band across the members of\n"
    "  each collective; labels the call and the tag.\n"
    "  -o FILE      FILE.svg (standalone), FILE.html (one page: pan, zoom,\n"
    "               hover details, click to copy R:N; fetches nothing) or\n"
    "               FILE.dot (graphviz: dot -Tsvg)\n"
    "  --ranks SET  these ranks only (0-3,8)\n"
    "  --around R:N the events near rank R's event N: on R and the ranks of\n"
    "               its partners, K events each side of it and of the\n"
    "               partner's call and completion (--window K, default 8);\n"
    "               the event and its partner highlighted\n"
    "  --from T, --to T  the events that entered in this time since the\n"
    "               run's start: 1.5s, 200ms, 30us, 1000ns (no unit: us)\n"
    "  --logical    place by logical (Lamport) time: readable for short\n"
    "               programs whose calls take no time\n"
    "  --tag-names 1=Search,2=Control\n"
    "               the program's names of its tags, for the labels\n";

static const char trace_usage[] =
    "usage: drdb log trace RUNDIR -o FILE.json\n"
    "  The run as Chrome trace-event JSON for Perfetto (ui.perfetto.dev)\n"
    "  and chrome://tracing: a process per rank, each MPI call a slice\n"
    "  with its arguments, each message a flow arrow from the send to the\n"
    "  receive's completion, each collective a flow from its first\n"
    "  member's call to every other's.\n";

/* "1.5s", "200ms", "30us", "1000ns", "12" (us) as ns: 0, or -1. */
static int parse_time(const char *s, uint64_t *ns)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || errno || v < 0)
        return -1;
    double mul = 1e3;
    if (!strcmp(end, "s"))
        mul = 1e9;
    else if (!strcmp(end, "ms"))
        mul = 1e6;
    else if (!strcmp(end, "ns"))
        mul = 1;
    else if (*end && strcmp(end, "us"))
        return -1;
    *ns = (uint64_t)(v * mul);
    return 0;
}

/* The kind of picture FILE's name asks for: 's' svg, 'h' html, 'd' dot,
 * or 0. */
static int kind_of(const char *file)
{
    const char *dot = strrchr(file, '.');
    if (!dot)
        return 0;
    if (!strcasecmp(dot, ".svg"))
        return 's';
    if (!strcasecmp(dot, ".html") || !strcasecmp(dot, ".htm"))
        return 'h';
    if (!strcasecmp(dot, ".dot") || !strcasecmp(dot, ".gv"))
        return 'd';
    return 0;
}

/* The picture or trace being written: a temporary beside FILE, renamed
 * over it once whole, so that an interrupted or failed write leaves no
 * half file (and FILE as it was). Ctrl-C during `drdb log graph|trace`
 * removes it (on_int; the console takes Ctrl-C itself). */
static char tmp_path[4200];

static void on_int(int sig)
{
    static const char msg[] = "drdb: interrupted: nothing written\n";
    (void)sig;
    if (tmp_path[0])
        unlink(tmp_path);
    if (write(2, msg, sizeof msg - 1) < 0)
        _exit(130);
    _exit(130);
}

/* Opens FILE for writing (through its temporary): the stream, or NULL
 * after an error message. */
static FILE *open_out(const char *file)
{
    int n = snprintf(tmp_path, sizeof tmp_path, "%s.drdb-XXXXXX", file);
    int fd = n > 0 && (size_t)n < sizeof tmp_path ? mkstemp(tmp_path) : -1;
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        fe_error("cannot write '%s': %s; give -o a path in a writable "
                 "directory", file, strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(tmp_path);
        }
        tmp_path[0] = '\0';
    } else { /* as fopen would make it */
        mode_t mask = umask(0);
        umask(mask);
        fchmod(fd, 0666 & ~mask);
    }
    return f;
}

/* Closes F and puts it in FILE's place: 0, or 1 after an error message
 * (nothing written). */
static int close_out(FILE *f, const char *file, int failed)
{
    int bad = failed || ferror(f);
    if (fclose(f) != 0)
        bad = 1;
    if (!bad && rename(tmp_path, file) < 0)
        bad = 1;
    if (bad) {
        fe_error("writing '%s' failed: %s", file, strerror(errno));
        unlink(tmp_path);
    }
    tmp_path[0] = '\0';
    return bad;
}

int fe_graph_kind(const char *file)
{
    return kind_of(file);
}

int fe_graph_write(const struct ev_graph *g, const char *file)
{
    int kind = kind_of(file);
    if (!kind)
        return fe_error("'%s': name a .svg, .html or .dot file", file);
    FILE *out = open_out(file);
    if (!out)
        return 1;
    int rc = kind == 's'   ? ev_graph_write_svg(g, out)
             : kind == 'h' ? ev_graph_write_html(g, out)
                           : ev_graph_write_dot(g, out);
    int st = close_out(out, file, rc < 0);
    if (!st)
        fprintf(stderr, "drdb: %s: %d ranks, %zu events, %zu messages, "
                "%zu collectives\n", file, g->nrows, g->nmarks, g->narrows,
                g->nbands);
    size_t crowded = !st && kind != 'd' && !g->logical ? ev_graph_crowded(g)
                                                       : 0;
    if (crowded * 4 > g->nmarks)
        fprintf(stderr, "drdb: %zu of the %zu events are drawn on top of "
                "each other (calls close in time): --logical spaces them "
                "evenly\n", crowded, g->nmarks);
    return st;
}

int fe_graph_tags(const char *text, struct ev_gtag *tags)
{
    int n = 0;
    for (const char *p = text; *p;) {
        char *end;
        long t = strtol(p, &end, 10);
        size_t len = *end == '=' ? strcspn(end + 1, ",") : 0;
        if (end == p || *end != '=' || !len || len >= sizeof tags[0].name ||
            t < 0 || t > INT32_MAX || n == FE_GRAPH_MAX_TAGS ||
            strspn(end + 1, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstu"
                   "vwxyz0123456789_-") < len) {
            fe_error("--tag-names takes TAG=NAME pairs separated by commas "
                     "(1=Search,2=Control; names of letters, digits, _ "
                     "and -, at most %d), not '%s'", FE_GRAPH_MAX_TAGS, text);
            return -1;
        }
        tags[n].tag = (int32_t)t;
        snprintf(tags[n].name, sizeof tags[n].name, "%.*s", (int)len,
                 end + 1);
        n++;
        p = end + 1 + len;
        if (*p == ',')
            p++;
    }
    return n;
}

/* Parses --ranks TEXT for run X into FLAGS (world_size): 0, or 2. */
static int parse_ranks(struct ev_run *x, const char *text,
                       unsigned char *flags)
{
    struct rankset rs;
    int at;
    const char *why;
    if (rs_init(&rs, x->world_size) < 0)
        return fe_error("out of memory");
    if (rs_parse(text, strlen(text), &rs, NULL, NULL, &at, &why) < 0) {
        rs_report(text, strlen(text), at, why);
        rs_release(&rs);
        return 2;
    }
    for (int r = 0; r < x->world_size; r++)
        flags[r] = (unsigned char)rs_has(&rs, r);
    int n = rs_count(&rs);
    rs_release(&rs);
    if (!n) {
        fe_error("--ranks '%s' names no rank", text);
        return 2;
    }
    return 0;
}

int fe_log_graph(int argc, char **argv, const struct fe_run_opts *ro)
{
    signal(SIGINT, on_int);
    static const struct option opts[] = {
        {"ranks", required_argument, NULL, 'r'},
        {"around", required_argument, NULL, 'a'},
        {"window", required_argument, NULL, 'w'},
        {"from", required_argument, NULL, 'f'},
        {"to", required_argument, NULL, 't'},
        {"logical", no_argument, NULL, 'l'},
        {"tag-names", required_argument, NULL, 'n'},
        {"output", required_argument, NULL, 'o'},
        {NULL, 0, NULL, 0},
    };
    struct ev_graph_opts o = {0};
    struct ev_gtag tags[FE_GRAPH_MAX_TAGS];
    const char *ranks = NULL, *file = NULL;
    int c, has_window = 0;
    o.around_rank = -1;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:", opts, NULL)) != -1) {
        switch (c) {
        case 'r':
            ranks = optarg;
            break;
        case 'a':
            if (fe_parse_event(optarg, &o.around_rank, &o.around_event) < 0)
                return fe_error("--around takes an event: write RANK:EVENT, "
                                "like 0:17, not '%s'", optarg);
            break;
        case 'w':
            if (fe_parse_u64(optarg, &o.window) < 0 || !o.window)
                return fe_error("--window takes a number of events (1 or "
                                "more), not '%s'", optarg);
            has_window = 1;
            break;
        case 'f':
        case 't':
            if (parse_time(optarg, c == 'f' ? &o.from_ns : &o.to_ns) < 0)
                return fe_error("--%s takes a time since the run's start "
                                "(1.5s, 200ms, 30us, 1000ns), not '%s'",
                                c == 'f' ? "from" : "to", optarg);
            *(c == 'f' ? &o.has_from : &o.has_to) = 1;
            break;
        case 'l':
            o.logical = 1;
            break;
        case 'n':
            if ((o.ntags = fe_graph_tags(optarg, tags)) < 0)
                return 2;
            o.tags = tags;
            break;
        case 'o':
            file = optarg;
            break;
        default:
            fputs(graph_usage, stderr);
            return 2;
        }
    }
    if (optind + 1 != argc || !file) {
        fputs(graph_usage, stderr);
        return 2;
    }
    if (!kind_of(file))
        return fe_error("-o '%s': name a .svg, .html or .dot file", file);
    if (has_window && o.around_rank < 0)
        return fe_error("--window goes with --around R:N");
    if (o.has_from && o.has_to && o.from_ns > o.to_ns)
        return fe_error("--from is after --to: nothing to draw");

    struct ev_run x;
    struct fe_run fr;
    char err[512];
    if (fe_ev_open(&x, &fr, argv[optind], ro, 1, err, sizeof err) < 0)
        return fe_error("%s", err);
    unsigned char *flags = NULL;
    struct ev_graph g = {0};
    int st = 0;
    if (o.around_rank >= x.world_size) {
        st = fe_error("no rank %d: the run has ranks 0-%d", o.around_rank,
                      x.world_size - 1);
        goto done;
    }
    if (ranks) {
        if (!(flags = calloc((size_t)x.world_size, 1))) {
            st = fe_error("out of memory");
            goto done;
        }
        if ((st = parse_ranks(&x, ranks, flags)))
            goto done;
        o.ranks = flags;
    }
    if (ev_graph_build(&x, &o, &g, err, sizeof err) < 0) {
        st = fe_error("%s", err);
        goto done;
    }
    st = fe_graph_write(&g, file);
done:
    ev_graph_release(&g);
    free(flags);
    ev_close(&x);
    fe_run_close(&fr);
    return st;
}

int fe_log_trace(int argc, char **argv, const struct fe_run_opts *ro)
{
    signal(SIGINT, on_int);
    static const struct option opts[] = {
        {"output", required_argument, NULL, 'o'},
        {NULL, 0, NULL, 0},
    };
    const char *file = NULL;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:", opts, NULL)) != -1) {
        if (c != 'o') {
            fputs(trace_usage, stderr);
            return 2;
        }
        file = optarg;
    }
    if (optind + 1 != argc || !file) {
        fputs(trace_usage, stderr);
        return 2;
    }
    struct ev_run x;
    struct fe_run fr;
    char err[512];
    if (fe_ev_open(&x, &fr, argv[optind], ro, 1, err, sizeof err) < 0)
        return fe_error("%s", err);
    int st;
    err[0] = '\0';
    FILE *out = ev_build(&x, err, sizeof err) < 0 ? NULL : open_out(file);
    if (!out) {
        st = err[0] ? fe_error("%s", err) : 1;
    } else {
        struct ev_trace_stats ts;
        int rc = ev_trace_write(&x, out, &ts, err, sizeof err);
        st = close_out(out, file, rc < 0);
        if (!st)
            fprintf(stderr, "drdb: %s: %llu slices, %llu message flows, "
                    "%llu collective flows\n", file,
                    (unsigned long long)ts.slices,
                    (unsigned long long)ts.flows,
                    (unsigned long long)ts.coll_flows);
    }
    ev_close(&x);
    fe_run_close(&fr);
    return st;
}
