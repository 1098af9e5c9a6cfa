/*
 * The time-space diagram for graphviz (ev-graph.h): a node per event, each
 * rank's events chained left to right in one cluster, a message an edge
 * from the send to the receive's completion (its posting call tied to it
 * dotted; an end not drawn: a plain node naming it, "to R:N"), a
 * collective's members kept in one column (rank=same).
 * `dot -Tsvg` lays it out.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ev-graph.h"

static void node(FILE *out, const struct ev_graph *g, int32_t k)
{
    const struct ev_gmark *m = &g->marks[k];
    fprintf(out, "r%d_%" PRIu64, g->rows[m->row].rank, m->event);
}

int ev_graph_write_dot(const struct ev_graph *g, FILE *out)
{
    fputs("digraph drdb {\n  rankdir=LR;\n  newrank=true;\n"
          "  node [shape=box, style=rounded, fontsize=10, height=0.3];\n"
          "  edge [fontsize=9];\n", out);
    fputs("  label=\"", out);
    for (const char *s = g->run; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', out);
        fputc(*s, out);
    }
    fputs("\";\n", out);
    for (int w = 0; w < g->nrows; w++) {
        const struct ev_grow *row = &g->rows[w];
        fprintf(out, "  subgraph cluster_rank%d {\n    label=\"rank %d\";\n",
                row->rank, row->rank);
        for (uint64_t n = row->lo; n < row->hi; n++) {
            int32_t k = (int32_t)(row->base + (n - row->lo));
            const struct ev_gmark *m = &g->marks[k];
            fputs("    ", out);
            node(out, g, k);
            const char *tn = ev_graph_tag_name(g, m->tag);
            fprintf(out, " [label=\"%d:%" PRIu64 "\\n%s%s%s\"%s];\n",
                    row->rank, n, m->fn,
                    tn ? " " : strcmp(m->tag, "-") ? " tag " : "",
                    tn ? tn : strcmp(m->tag, "-") ? m->tag : "",
                    m->hl     ? ", color=red, penwidth=2"
                    : m->next ? ", color=purple, penwidth=2, xlabel=here"
                              : "");
        }
        /* the rank's order: heavy invisible-ish edges */
        for (uint64_t n = row->lo; n + 1 < row->hi; n++) {
            int32_t k = (int32_t)(row->base + (n - row->lo));
            fputs("    ", out);
            node(out, g, k);
            fputs(" -> ", out);
            node(out, g, k + 1);
            fputs(" [weight=100, color=gray, arrowhead=none];\n", out);
        }
        fputs("  }\n", out);
    }
    for (size_t a = 0; a < g->narrows; a++) {
        const struct ev_garrow *ar = &g->arrows[a];
        if (ar->from < 0 || ar->to < 0) {
            int in = ar->from < 0;
            fprintf(out, "  stub%zu [shape=plaintext, fontsize=9, "
                    "label=\"%s %d:%" PRIu64 "\"];\n  ", a,
                    in ? "from" : "to", ar->other_rank, ar->other_event);
            if (in)
                fprintf(out, "stub%zu -> ", a);
            node(out, g, in ? ar->to : ar->from);
            if (!in)
                fprintf(out, " -> stub%zu", a);
            fprintf(out, " [class=stub, label=\"tag %d\", color=%s, "
                    "style=dashed, constraint=false];\n", ar->tag,
                    ar->hl ? "red" : "darkgreen");
            continue;
        }
        if (ar->post >= 0) {
            fputs("  ", out);
            node(out, g, ar->post);
            fputs(" -> ", out);
            node(out, g, ar->to);
            fputs(" [style=dotted, arrowhead=none, constraint=false];\n",
                  out);
        }
        fputs("  ", out);
        node(out, g, ar->from);
        fputs(" -> ", out);
        node(out, g, ar->to);
        fprintf(out, " [class=%s, label=\"tag %d\", color=%s%s];\n",
                ar->pending ? "pending" : "msg", ar->tag,
                ar->hl ? "red" : ar->pending ? "purple" : "darkgreen",
                ar->pending ? ", style=dashed" : "");
    }
    for (size_t b = 0; b < g->nbands; b++) {
        const struct ev_gband *bd = &g->bands[b];
        fprintf(out, "  { rank=same; /* %s on #%d, instance %d */",
                ev_fn_name(bd->fn), bd->comm, bd->instance);
        for (size_t j = 0; j < bd->n; j++) {
            fputc(' ', out);
            node(out, g, g->pool[bd->first + j]);
            fputc(';', out);
        }
        fputs(" }\n", out);
    }
    fputs("}\n", out);
    return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}
