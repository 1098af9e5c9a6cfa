/*
 * The console's graph: the time-space diagram (events/ev-graph.h,
 * docs/pictures.md) of the replayed ranks around where each one stands:
 * its position marked ("here"), its next event, and the messages already
 * sent to it that it has not received yet.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "con.h"
#include "ev-graph.h"
#include "events.h"
#include "fe.h"

/* The output file of A's words: "-o FILE" or "FILE", else NULL. */
static const char *out_file(struct con_args *a, char *buf, size_t len)
{
    char word[64];
    const char *rest;
    con_args_word(a, word, sizeof word, &rest);
    if (!strcmp(word, "-o") && *rest && !strchr(rest, ' '))
        return rest;
    if (word[0] && word[0] != '-' && !*rest) {
        snprintf(buf, len, "%s", a->text);
        return buf;
    }
    return NULL;
}

static int cmd_graph(struct con *c, struct con_args *a)
{
    struct ev_run *x = con_events(c);
    char fbuf[4096], err[512];
    const char *file = out_file(a, fbuf, sizeof fbuf);
    const char *around = con_args_opt(a, "--around"),
               *window = con_args_opt(a, "--window");
    if (!x)
        return -1;
    if (!file || !fe_graph_kind(file)) {
        fprintf(stderr, "drdb: usage: %s (FILE: .svg, .html or .dot)\n",
                a->cmd->usage);
        return -1;
    }
    struct ev_graph_opts o = {0};
    o.around_rank = -1;
    if (around && (fe_parse_event(around, &o.around_rank,
                                  &o.around_event) < 0 ||
                   o.around_rank >= x->world_size)) {
        fprintf(stderr, "drdb: --around takes an event of the run, like "
                "0:17, not '%s'\n", around);
        return -1;
    }
    if (window && (fe_parse_u64(window, &o.window) < 0 || !o.window)) {
        fprintf(stderr, "drdb: --window takes a number of events (1 or "
                "more), not '%s'\n", window);
        return -1;
    }
    uint64_t *here = malloc((size_t)x->world_size * sizeof *here);
    unsigned char *ranks = calloc((size_t)x->world_size, 1);
    int rc = -1, npos = 0;
    if (!here || !ranks)
        goto out;
    for (int r = 0; r < x->world_size; r++) {
        here[r] = EV_NONE;
        if (r >= c->nranks || !rs_has(&a->set, r))
            continue;
        long long cur = c->ranks[r].state == CON_EXITED
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
    if (!npos && o.around_rank < 0) {
        fprintf(stderr, "drdb: graph: no rank has a position to draw\n");
        goto out;
    }
    o.here = here;
    o.ranks = o.around_rank < 0 ? ranks : NULL;
    struct ev_graph g;
    if (ev_graph_build(x, &o, &g, err, sizeof err) < 0) {
        fprintf(stderr, "drdb: %s\n", err);
        ev_graph_release(&g);
        goto out;
    }
    rc = fe_graph_write(&g, file) ? -1 : 0;
    ev_graph_release(&g);
out:
    free(here);
    free(ranks);
    return rc;
}

const struct con_cmd con_cmds_graph[] = {
    {"graph", NULL, "graph [--around R:N] [--window K] -o FILE",
     "the time-space diagram of the ranks around their positions (here), "
     "their next events and the messages pending to them: FILE.svg, "
     ".html or .dot (docs/pictures.md)",
     CON_NEEDS_RANKS, "--around= --window=", cmd_graph},
    {NULL, NULL, NULL, NULL, 0, NULL, NULL},
};
