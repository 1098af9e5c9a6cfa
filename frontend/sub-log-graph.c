/* drdb log graph and drdb log trace: pictures of a run's events
 * (events/ev-graph.h, docs/pictures.md). */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stddef.h>
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
#include "graph.h"
#include "rankset.h"
#include "remote.h"

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
        fprintf(stderr, "drdb: %s: %d ranks, %zu events, %zu messages "
                "(%zu with an end outside the picture), %zu collectives\n",
                file, g->nrows, g->nmarks, g->narrows, g->nstubs, g->nbands);
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

static int around_opt(void *dst, const struct fe_opt *o, const char *arg)
{
    (void)o;
    struct ev_graph_opts *g = dst;
    if (fe_parse_event(arg, &g->around_rank, &g->around_event) < 0)
        return fe_error("--around takes an event: write RANK:EVENT, like "
                        "0:17, not '%s'", arg), -1;
    return 0;
}

static int tags_opt(void *dst, const struct fe_opt *o, const char *arg)
{
    (void)o;
    struct fe_graph_opts *g = dst;
    if ((g->g.ntags = fe_graph_tags(arg, g->tags)) < 0)
        return -1;
    g->g.tags = g->tags;
    return 0;
}

#define OFF(f) offsetof(struct fe_graph_opts, f)
const struct fe_opt fe_graph_opt_table[] = {
    FE_CALL(0, "around", "R:N", OFF(g), around_opt, "the events near rank "
     "R's event N: on R and the ranks of its partners, K events each side of "
     "it and of the partner's call and completion (--window K, default 8); "
     "the event and its partner highlighted"),
    FE_U64(0, "window", "K", OFF(g.window), 1, "a number of events (1 or "
     "more)", "with --around: K events each side"),
    FE_FLAG(0, "logical", OFF(g.logical), "place by logical (Lamport) time: "
     "readable for short programs whose calls take no time"),
    FE_CALL(0, "tag-names", "T=NAME,...", 0, tags_opt, "the program's names "
     "of its tags, for the labels: 1=Search,2=Control"),
    FE_U64(0, "max-events", "N", OFF(g.max_events), 0, "a number of events "
     "(0: no limit)", "draw at most N events (default 5000; a picture of "
     "more is refused, saying how to draw a part): 0 draws any number"),
    FE_END,
};
#undef OFF

/* The options of drdb log graph and trace. */
struct graph_opts {
    const char *ranks, *file, *from, *to;
    struct fe_graph_opts pic;
    struct fe_run_opts run;
};

#define OFF(f) offsetof(struct graph_opts, f)
static const struct fe_opt graph_opts[] = {
    FE_STR('o', "output", "FILE", OFF(file), "FILE.svg (standalone), "
     "FILE.html (one page: pan, zoom, hover details, click to copy R:N; "
     "fetches nothing) or FILE.dot (graphviz: dot -Tsvg)"),
    FE_STR(0, "ranks", "SET", OFF(ranks), "these ranks only (0-3,8)"),
    FE_GROUP(OFF(pic), fe_graph_opt_table),
    FE_STR(0, "from", "T", OFF(from), "the events that entered from this "
     "time since the run's start on: 1.5s, 200ms, 30us, 1000ns (no unit: us)"),
    FE_STR(0, "to", "T", OFF(to), "the events that entered up to this time"),
    FE_GROUP(OFF(run), fe_run_opt_table),
    FE_END,
};
static const struct fe_opt trace_opts[] = {
    FE_STR('o', "output", "FILE", OFF(file), "the trace, FILE.json"),
    FE_GROUP(OFF(run), fe_run_opt_table),
    FE_END,
};
#undef OFF

void fe_graph_opts_init(struct fe_graph_opts *o)
{
    memset(o, 0, sizeof *o);
    o->g.around_rank = -1;
    o->g.max_events = EV_GRAPH_MAX_EVENTS;
}

/* Parses drdb log CMD's command line (RUNDIR and -o FILE) into O: the run
 * (HOST:RUNDIR with --host), or NULL with *ST the exit status. */
static const char *parse(const struct fe_subcmd *cmd, int argc, char **argv,
                         struct graph_opts *o, int *st)
{
    struct fe_pos pos;
    char err[512];
    fe_run_opts_init(&o->run);
    fe_graph_opts_init(&o->pic);
    *st = 2;
    if (fe_subcmd_parse(cmd, argc, argv, o, 1, &pos) < 0)
        return NULL;
    if (pos.n != 1 || pos.rest < argc || !o->file) {
        fe_subcmd_misuse(cmd);
        return NULL;
    }
    const char *dir = pos.v[0];
    if (fe_run_opts_done(&o->run, &dir, err, sizeof err) < 0) {
        *st = fe_error("%s", err);
        return NULL;
    }
    return dir;
}

/* --from T or --to T (NAME) into *NS: 0, or -1 after an error message. */
static int time_opt(const char *name, const char *t, uint64_t *ns)
{
    if (parse_time(t, ns) == 0)
        return 0;
    fe_error("--%s takes a time since the run's start (1.5s, 200ms, 30us, "
             "1000ns), not '%s'", name, t);
    return -1;
}

static int cmd_graph(int argc, char **argv)
{
    signal(SIGINT, on_int);
    static struct graph_opts go;
    struct ev_graph_opts *o = &go.pic.g;
    int st;
    const char *dir = parse(&fe_sub_log_graph, argc, argv, &go, &st);
    if (!dir)
        return st;
    if (!kind_of(go.file))
        return fe_error("-o '%s': name a .svg, .html or .dot file", go.file);
    if (o->window && o->around_rank < 0)
        return fe_error("--window goes with --around R:N");
    if ((go.from && time_opt("from", go.from, &o->from_ns) < 0) ||
        (go.to && time_opt("to", go.to, &o->to_ns) < 0))
        return 1;
    o->has_from = go.from != NULL;
    o->has_to = go.to != NULL;
    if (o->has_from && o->has_to && o->from_ns > o->to_ns)
        return fe_error("--from is after --to: nothing to draw");

    struct ev_run x;
    struct fe_run fr;
    char err[512];
    if (fe_ev_open(&x, &fr, dir, &go.run, 1, err, sizeof err) < 0)
        return fe_error("%s", err);
    unsigned char *flags = NULL;
    struct ev_graph g = {0};
    if (o->around_rank >= x.world_size) {
        st = fe_error("no rank %d: the run has ranks 0-%d", o->around_rank,
                      x.world_size - 1);
        goto done;
    }
    if (go.ranks) {
        if (!(flags = calloc((size_t)x.world_size, 1))) {
            st = fe_error("out of memory");
            goto done;
        }
        if ((st = parse_ranks(&x, go.ranks, flags)))
            goto done;
        o->ranks = flags;
    }
    if (ev_graph_build(&x, o, &g, err, sizeof err) < 0) {
        st = fe_error("%s", err);
        if (g.over) {
            fprintf(stderr, "drdb: draw a part: --around R:N [--window K] "
                    "(the events near one), --from T --to T (a time range), "
                    "--ranks SET; or raise --max-events (0: no limit)\n");
            if (g.over_to_ns)
                fprintf(stderr, "drdb: the first %" PRIu64 " events end at "
                        "--to %" PRIu64 ".%03" PRIu64 "us\n", o->max_events,
                        g.over_to_ns / 1000, g.over_to_ns % 1000);
        }
        goto done;
    }
    st = fe_graph_write(&g, go.file);
done:
    ev_graph_release(&g);
    free(flags);
    ev_close(&x);
    fe_run_close(&fr);
    return st;
}

const struct fe_subcmd fe_sub_log_graph = {
    .name = "graph",
    .args = "RUNDIR -o FILE",
    .summary = "the time-space diagram: a line per rank, a mark per event, "
               "an arrow per message, a band per collective "
               "(docs/pictures.md)",
    .help = "The time-space diagram: a line per rank, a mark per MPI event "
            "(at its recorded\ntime, or its logical time with --logical), "
            "an arrow per message from the send\nto the call that completed "
            "the receive (the posting Irecv tied to it dotted),\na band "
            "across the members of each collective; labels the call and "
            "the tag.\n",
    .opts = graph_opts,
    .parent = &fe_sub_log,
    .run = cmd_graph,
};

static int cmd_trace(int argc, char **argv)
{
    signal(SIGINT, on_int);
    static struct graph_opts go;
    int st;
    const char *dir = parse(&fe_sub_log_trace, argc, argv, &go, &st);
    if (!dir)
        return st;
    struct ev_run x;
    struct fe_run fr;
    char err[512];
    if (fe_ev_open(&x, &fr, dir, &go.run, 1, err, sizeof err) < 0)
        return fe_error("%s", err);
    err[0] = '\0';
    FILE *out = ev_build(&x, err, sizeof err) < 0 ? NULL : open_out(go.file);
    if (!out) {
        st = err[0] ? fe_error("%s", err) : 1;
    } else {
        struct ev_trace_stats ts;
        int rc = ev_trace_write(&x, out, &ts, err, sizeof err);
        st = close_out(out, go.file, rc < 0);
        if (!st)
            fprintf(stderr, "drdb: %s: %llu slices, %llu message flows, "
                    "%llu collective flows\n", go.file,
                    (unsigned long long)ts.slices,
                    (unsigned long long)ts.flows,
                    (unsigned long long)ts.coll_flows);
    }
    ev_close(&x);
    fe_run_close(&fr);
    return st;
}

const struct fe_subcmd fe_sub_log_trace = {
    .name = "trace",
    .args = "RUNDIR -o FILE.json",
    .summary = "Chrome trace-event JSON for Perfetto and chrome://tracing: "
               "a track per rank, a slice per call, flows for messages and "
               "collectives",
    .help = "The run as Chrome trace-event JSON for Perfetto "
            "(ui.perfetto.dev) and\nchrome://tracing: a process per rank, "
            "each MPI call a slice with its arguments,\neach message a flow "
            "arrow from the send to the receive's completion, each\n"
            "collective a flow from its first member's call to every "
            "other's.\n",
    .opts = trace_opts,
    .parent = &fe_sub_log,
    .run = cmd_trace,
};
