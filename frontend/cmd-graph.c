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

/* The output file of TEXT (after a query, if any): "-o FILE" or "FILE",
 * into BUF; else NULL. */
static const char *out_file(const char *text, char *buf, size_t len)
{
    text += strspn(text, " ");
    if (!strncmp(text, "-o ", 3))
        text += 3 + strspn(text + 3, " ");
    if (!*text || *text == '-' || strchr(text, ' '))
        return NULL;
    snprintf(buf, len, "%s", text);
    return buf;
}

static int cmd_graph(struct con *c, struct con_args *a)
{
    struct ev_run *x = con_events(c);
    char fbuf[4096], err[512];
    /* {SELECT rank, seq ...}: the events to draw around */
    const char *text = a->text, *close = NULL;
    if (*text == '{')
        close = strrchr(text, '}');
    const char *file = out_file(close ? close + 1 : text, fbuf,
                                sizeof fbuf);
    const char *around = con_args_opt(a, "--around"),
               *window = con_args_opt(a, "--window"),
               *tagnames = con_args_opt(a, "--tag-names");
    struct ev_gtag tags[FE_GRAPH_MAX_TAGS];
    if (!x)
        return -1;
    if (!file || !fe_graph_kind(file)) {
        fprintf(stderr, "drdb: usage: %s (FILE: .svg, .html or .dot)\n",
                a->cmd->usage);
        return -1;
    }
    struct ev_graph_opts o = {0};
    o.around_rank = -1;
    o.logical = con_args_opt(a, "--logical") != NULL;
    if (tagnames && (o.ntags = fe_graph_tags(tagnames, tags)) < 0)
        return -1;
    o.tags = tags;
    if (around && fe_parse_event(around, &o.around_rank,
                                 &o.around_event) < 0) {
        fprintf(stderr, "drdb: --around takes an event of the run, like "
                "0:17, not '%s'\n", around);
        return -1;
    }
    if (around && o.around_rank >= x->world_size) {
        fprintf(stderr, "drdb: --around %s: no rank %d in this run (0-%d)\n",
                around, o.around_rank, x->world_size - 1);
        return -1;
    }
    if (window && (fe_parse_u64(window, &o.window) < 0 || !o.window)) {
        fprintf(stderr, "drdb: --window takes a number of events (1 or "
                "more), not '%s'\n", window);
        return -1;
    }
    uint64_t *here = malloc((size_t)x->world_size * sizeof *here),
             *focus = NULL;
    unsigned char *ranks = calloc((size_t)x->world_size, 1);
    int rc = -1, npos = 0;
    if (!here || !ranks)
        goto out;
    if (close) {
        struct rankset qs;
        if (!(focus = malloc((size_t)x->world_size * sizeof *focus)))
            goto out;
        for (int r = 0; r < x->world_size; r++)
            focus[r] = EV_NONE;
        rs_init(&qs, c->nranks);
        if (con_query_events(c, text, (size_t)(close + 1 - text), &qs,
                             focus) < 0) {
            rs_release(&qs);
            goto out;
        }
        for (int r = 0; r < c->nranks; r++)
            if (!rs_has(&qs, r))
                focus[r] = EV_NONE;
        rs_release(&qs);
        o.focus = focus;
    }
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
    if (!npos && o.around_rank < 0 && !focus) {
        fprintf(stderr, "drdb: graph: no rank has a position to draw\n");
        goto out;
    }
    o.here = here;
    o.ranks = o.around_rank < 0 && !focus ? ranks : NULL;
    struct ev_graph g;
    if (ev_graph_build(x, &o, &g, err, sizeof err) < 0) {
        fprintf(stderr, "drdb: %s\n", err);
        ev_graph_release(&g);
        goto out;
    }
    rc = fe_graph_write(&g, file) ? -1 : 0;
    ev_graph_release(&g);
out:
    free(focus);
    free(here);
    free(ranks);
    return rc;
}

const struct con_cmd con_cmds_graph[] = {
    {"graph", NULL,
     "graph [{SELECT rank, seq ...}] [--around R:N] [--window K] "
     "[--logical] [--tag-names T=NAME,...] -o FILE",
     "a picture (.svg, .html, .dot) of the ranks' events around their "
     "positions, a query's events or R:N",
     CON_NEEDS_RANKS | CON_LAZY_OK,
     "--around= --window= --logical --tag-names=", cmd_graph},
    {NULL, NULL, NULL, NULL, 0, NULL, NULL},
};
