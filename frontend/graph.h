/*
 * graph.h - the pictures of a run's events made by drdb log graph and the
 * console's graph (sub-log-graph.c, cmd-graph.c; events/ev-graph.h draws
 * them, docs/pictures.md).
 */
#ifndef DRDB_GRAPH_H
#define DRDB_GRAPH_H

#include "args.h"
#include "ev-graph.h"

/* The picture G into FILE, its kind by its name (.svg, .html, .dot),
 * saying on stderr what it holds: 0, or 1 after an error message (a file
 * not written is removed). fe_graph_kind(): 0 for a name of no kind. The
 * console's `graph` uses them too. */
int fe_graph_write(const struct ev_graph *g, const char *file);
int fe_graph_kind(const char *file);
/* --tag-names "1=Search,2=Control" into TAGS (FE_GRAPH_MAX_TAGS of them):
 * how many, or -1 after an error message. */
#define FE_GRAPH_MAX_TAGS 64
int fe_graph_tags(const char *text, struct ev_gtag *tags);
/* What to draw: the options shared by drdb log graph and the console's
 * graph (fe_graph_opt_table: --around, --window, --logical, --tag-names,
 * --max-events; sub-log-graph.c), as fe_graph_opts_init() sets them
 * before parsing (no --around, EV_GRAPH_MAX_EVENTS). */
struct fe_graph_opts {
    struct ev_graph_opts g;
    struct ev_gtag tags[FE_GRAPH_MAX_TAGS];
};
extern const struct fe_opt fe_graph_opt_table[];
void fe_graph_opts_init(struct fe_graph_opts *o);

#endif
