/*
 * The console's graph: the time-space diagram (events/ev-graph.h,
 * docs/pictures.md) of the replayed ranks around where each one stands:
 * its position marked ("here"), its next event, and the messages already
 * sent to it that it has not received yet.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "con.h"
#include "ev-graph.h"
#include "events.h"
#include "fe.h"
#include "graph.h"

/* The console's graph: the options of drdb log graph (graph.h) and the
 * file. */
struct graph_opts {
    const char *file;
    struct fe_graph_opts pic;
};

#define OFF(f) offsetof(struct graph_opts, f)
static const struct fe_opt graph_opts[] = {
    FE_STR('o', "output", "FILE", OFF(file), NULL), /* in the usage */
    FE_GROUP(OFF(pic), fe_graph_opt_table),
    FE_END,
};
#undef OFF

static int cmd_graph(struct con *c, struct con_args *a)
{
    struct ev_run *x = con_events(c);
    char err[512];
    struct graph_opts go = {0};
    struct ev_graph_opts *o = &go.pic.g;
    struct fe_pos pos;
    fe_graph_opts_init(&go.pic);
    if (!x || con_args_opts(a, graph_opts, &go, 2, &pos) < 0)
        return -1;
    /* [{SELECT rank, seq ...}] (the events to draw around) [FILE] */
    int q = pos.n && pos.v[0][0] == '{';
    const char *query = q ? pos.v[0] : NULL;
    int bad = pos.rest < a->argc || pos.n > q + 1 ||
              (pos.n == q + 1 && go.file);
    if (pos.n == q + 1)
        go.file = pos.v[q];
    if (bad || !go.file || !fe_graph_kind(go.file)) {
        fprintf(stderr, "drdb: usage: %s (FILE: .svg, .html or .dot)\n",
                a->cmd->usage);
        return -1;
    }
    if (o->around_rank >= x->world_size) {
        fprintf(stderr, "drdb: --around %d:%llu: no rank %d in this run "
                "(0-%d)\n", o->around_rank,
                (unsigned long long)o->around_event, o->around_rank,
                x->world_size - 1);
        return -1;
    }
    uint64_t *here = malloc((size_t)x->world_size * sizeof *here),
             *focus = NULL;
    unsigned char *ranks = calloc((size_t)x->world_size, 1);
    int rc = -1, npos = 0;
    if (!here || !ranks)
        goto out;
    if (query) {
        struct rankset qs;
        if (!(focus = malloc((size_t)x->world_size * sizeof *focus)))
            goto out;
        for (int r = 0; r < x->world_size; r++)
            focus[r] = EV_NONE;
        rs_init(&qs, c->nranks);
        if (con_query_events(c, query, strlen(query), &qs, focus) < 0) {
            rs_release(&qs);
            goto out;
        }
        for (int r = 0; r < c->nranks; r++)
            if (!rs_has(&qs, r))
                focus[r] = EV_NONE;
        rs_release(&qs);
        o->focus = focus;
    }
    for (int r = 0; r < x->world_size; r++) {
        here[r] = EV_NONE;
        if (r >= c->nranks || !rs_has(&a->set, r))
            continue;
        long long cur = c->ranks[r]->state == CON_EXITED
                            ? (long long)c->nevents[r]
                            : con_current_event(c, r);
        if (cur < 0) {
            fprintf(stderr, "drdb: rank %d is not stopped: no position\n",
                    r);
            continue;
        }
        here[r] = (uint64_t)cur;
        ranks[r] = 1;
        npos++;
    }
    if (!npos && o->around_rank < 0 && !focus) {
        fprintf(stderr, "drdb: graph: no rank has a position to draw\n");
        goto out;
    }
    o->here = here;
    o->ranks = o->around_rank < 0 && !focus ? ranks : NULL;
    struct ev_graph g;
    if (ev_graph_build(x, o, &g, err, sizeof err) < 0) {
        fprintf(stderr, "drdb: %s\n", err);
        if (g.over)
            fprintf(stderr, "drdb: draw fewer: a smaller --window K, fewer "
                    "ranks (@SET), --around R:N, the events a query chooses "
                    "({SELECT rank, seq ...}); or raise --max-events (0: no "
                    "limit)\n");
        ev_graph_release(&g);
        goto out;
    }
    rc = fe_graph_write(&g, go.file) ? -1 : 0;
    ev_graph_release(&g);
out:
    free(focus);
    free(here);
    free(ranks);
    return rc;
}

const struct con_cmd con_cmds_graph[] = {
    {"graph", NULL, "graph [{SELECT rank, seq ...}] [OPTIONS] -o FILE",
     "a picture (.svg, .html, .dot) of the ranks' events around their "
     "positions, a query's events or R:N",
     CON_NEEDS_RANKS | CON_LAZY_OK, NULL, cmd_graph, graph_opts},
    {NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL},
};
