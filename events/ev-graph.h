/*
 * ev-graph.h - pictures of a run's events: the time-space diagram (`drdb
 * log graph`: SVG, HTML, DOT) and the Chrome trace-event timeline (`drdb
 * log trace`), built on the event index (events.h). docs/pictures.md
 * tells how to read them.
 *
 * ev_graph_build() selects events (ranks, a time range, or the events near
 * one event) and lays them out: one row per rank, one mark per event, an
 * arrow per matched message whose two ends are both drawn, a stub at the
 * drawn end of one whose other end is not (naming that end, R:N), a band
 * per collective instance across its drawn members. The writers only
 * print what the layout holds.
 */
#ifndef DRDB_EV_GRAPH_H
#define DRDB_EV_GRAPH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "events.h"

/* A name the program gives a message tag, for the labels. */
struct ev_gtag {
    int32_t tag;
    char name[32];
};

/* What to draw. Zero it, then set what is wanted (around_rank -1: none). */
struct ev_graph_opts {
    /* world_size flags, nonzero: draw that rank; NULL: every rank with a
     * log (with --around: the ranks involved) */
    const unsigned char *ranks;
    int around_rank;       /* draw the events near this event, or -1 */
    uint64_t around_event;
    uint64_t window;       /* events kept each side of the event(s)
                            * drawn around (0: 8, clipped to the run; a
                            * window given that holds a whole rank it
                            * centres on is refused as larger than the run) */
    int has_from, has_to;  /* a time range: ns since the run's start */
    uint64_t from_ns, to_ns; /* (the earliest rank log's start) */
    int logical;           /* place by logical (Lamport) time */
    /* The most events a picture draws (0: any number): a selection of
     * more is refused (ev_graph.over says how many, and where the first
     * MAX_EVENTS of them end in time), as a browser takes tens of seconds
     * to show an unreadable strip of tens of thousands. The front ends
     * give EV_GRAPH_MAX_EVENTS unless told otherwise. */
    uint64_t max_events;
    /* The console's replayed ranks (world_size, or NULL): the event each
     * stands before (EV_NONE: no position; the rank's event count: at its
     * end). Without --around, the window events each side of it are
     * drawn; its next event is marked, and the messages sent to it whose
     * send is behind its sender (the sender's position, else its recorded
     * time) and whose receive is not done drawn to it as pending. */
    const uint64_t *here;
    /* Chosen events (world_size, or NULL; EV_NONE: none on that rank),
     * as a query gives them: without --around, the window events each
     * side of each are drawn, the events highlighted. */
    const uint64_t *focus;
    /* The program's tag names (NTAGS of them; kept by the caller until
     * the picture is written) */
    const struct ev_gtag *tags;
    int ntags;
};

/* One event drawn. */
struct ev_gmark {
    int32_t row;        /* index into ev_graph.rows */
    int32_t band;       /* its collective's band, or -1 */
    uint64_t event;
    uint64_t t_ns;      /* recorded enter time, since the run's start */
    double x;           /* position: ns, or logical time */
    double dur_us;
    const char *fn;     /* "MPI_Send" (static) */
    char peer[32], tag[32]; /* as `drdb log events` shows them */
    int64_t bytes;      /* message bytes, -1 unknown or none */
    int hl;             /* the chosen event or its partner */
    int next;           /* the rank's position: its next event */
};

#define EV_GRAPH_MAX_EVENTS 5000

/* A message: from the send's call to the receive's completion. A stub
 * when one end is not drawn (FROM or TO -1): that end is OTHER_RANK's
 * event OTHER_EVENT. */
struct ev_garrow {
    int32_t from, to;   /* marks, or -1 (a stub) */
    int32_t post;       /* the receive's posting call (Irecv) when it is
                         * not the completion and is drawn, else -1 */
    int32_t tag;
    int64_t bytes;
    int hl;             /* the chosen event's own message */
    int pending;        /* sent, not yet received at TO, the receiver's
                         * position (its next event) */
    int other_rank;     /* a stub's end not drawn */
    uint64_t other_event;
};

/* A collective instance: its drawn members' marks, in row order. */
struct ev_gband {
    size_t first, n;    /* into ev_graph.pool */
    int fn;
    int32_t comm, instance;
};

struct ev_grow {
    int rank;
    uint64_t lo, hi;    /* the events drawn: lo .. hi - 1 */
    uint64_t here;      /* its position (ev_graph_opts.here), or EV_NONE */
    int here_end;       /* the position is the end of its log, drawn */
    size_t base;        /* the mark of event lo */
};

struct ev_graph {
    char run[4096];
    int world_size;
    int logical;
    int hl_rank;        /* the chosen event (-1: none) */
    uint64_t hl_event;
    struct ev_grow *rows;
    int nrows;
    int *rowof;         /* world_size: row of a rank, -1 not drawn */
    struct ev_gmark *marks;
    size_t nmarks, capmarks;
    struct ev_garrow *arrows;
    size_t narrows, caparrows;
    struct ev_gband *bands;
    size_t nbands, capbands;
    int32_t *pool;
    size_t npool, cappool;
    size_t nstubs;      /* arrows with one end not drawn */
    double xmin, xmax;  /* the marks' extent */
    /* After a selection refused as larger than max_events: how many
     * events it holds, and the time (ns since the run's start) up to
     * which the first max_events of them enter (the --to that draws
     * them; 0 when they all enter at once). */
    size_t over;
    uint64_t over_to_ns;
    const struct ev_gtag *tags; /* ev_graph_opts' */
    int ntags;
};

/* Selects and lays out X's events as O says into G (released by the
 * caller with ev_graph_release(), also after an error). 0, or -1 with ERR
 * (a rank not recorded, an event out of range, a window larger than the
 * run, an empty selection, more events than O->max_events (G->over then
 * says how many), out of memory). */
int ev_graph_build(struct ev_run *x, const struct ev_graph_opts *o,
                   struct ev_graph *g, char *err, size_t errlen);
void ev_graph_release(struct ev_graph *g);
/* The program's name of TAG (a tag column: "10", "-"), or NULL. */
const char *ev_graph_tag_name(const struct ev_graph *g, const char *tag);
/* The mark of rank R's event N, or -1 when it is not drawn. */
int32_t ev_graph_find(const struct ev_graph *g, int rank, uint64_t n);

/* The writers (ev-graph-svg.c, ev-graph-dot.c): 0, or -1 when writing
 * failed (errno set). */
int ev_graph_write_svg(const struct ev_graph *g, FILE *out);
/* One self-contained page: the SVG inline, with its style and script
 * (pan, zoom, hover details, click to copy R:N); fetches nothing. */
int ev_graph_write_html(const struct ev_graph *g, FILE *out);
int ev_graph_write_dot(const struct ev_graph *g, FILE *out);
/* How many of G's marks the SVG draws closer to the one before on their
 * row than their labels need (they overlap: by recorded time, a burst of
 * calls lands on one spot; logical time spaces them). */
size_t ev_graph_crowded(const struct ev_graph *g);

/* Counts of a trace written. */
struct ev_trace_stats {
    uint64_t slices, flows, coll_flows;
};
/* The Chrome trace-event JSON of the whole run X (Perfetto,
 * chrome://tracing; ev-trace.c): a process per rank, a slice per event
 * with its arguments, a flow per matched message (send to completion) and
 * from each collective instance's first member to every other. 0, or -1
 * with ERR (a log unreadable, a write error). */
int ev_trace_write(struct ev_run *x, FILE *out, struct ev_trace_stats *st,
                   char *err, size_t errlen);

#endif
