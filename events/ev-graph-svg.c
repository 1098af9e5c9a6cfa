/*
 * The time-space diagram as SVG, and as one HTML page holding that SVG
 * with a script for pan, zoom, hover details and click-to-copy
 * (ev-graph.h). The elements carry classes a reader (or a test) can count:
 * rank-line, ev (hl: the chosen event and its partner), msg, post, coll,
 * stub (a message whose other end is not drawn; stub-lbl names that end).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ev-graph.h"

#define LEFT 90.0    /* room for the rank labels */
#define RIGHT 40.0
#define TOP 40.0
#define ROW_H 70.0
#define STEP 36.0    /* pixels per event on the busiest row */
#define MIN_W 600.0
#define MAX_W 40000.0
#define LABEL_W 30.0 /* the least room a mark's labels need */

struct geom {
    double pw, w, h, scale;
    int labels;
};

static void geom_of(const struct ev_graph *g, struct geom *m)
{
    uint64_t most = 1;
    for (int i = 0; i < g->nrows; i++)
        if (g->rows[i].hi - g->rows[i].lo > most)
            most = g->rows[i].hi - g->rows[i].lo;
    m->pw = STEP * (double)most;
    m->pw = m->pw < MIN_W ? MIN_W : m->pw > MAX_W ? MAX_W : m->pw;
    m->labels = m->pw / (double)most >= LABEL_W;
    m->w = LEFT + m->pw + RIGHT;
    m->h = TOP + ROW_H * g->nrows + 20;
    double span = g->xmax - g->xmin;
    m->scale = span > 0 ? m->pw / span : 0;
}

static double px(const struct ev_graph *g, const struct geom *m, double x)
{
    return m->scale > 0 ? LEFT + (x - g->xmin) * m->scale
                        : LEFT + m->pw / 2;
}

/* qsort_r comparator of mark indices by (row, x); ARG: the marks. */
static int cmp_rowx(const void *a, const void *b, void *arg)
{
    const struct ev_gmark *ms = arg;
    const struct ev_gmark *x = &ms[*(const size_t *)a];
    const struct ev_gmark *y = &ms[*(const size_t *)b];
    if (x->row != y->row)
        return x->row < y->row ? -1 : 1;
    return (x->x > y->x) - (x->x < y->x);
}

size_t ev_graph_crowded(const struct ev_graph *g)
{
    struct geom m;
    geom_of(g, &m);
    size_t *v = malloc((g->nmarks ? g->nmarks : 1) * sizeof *v), n = 0;
    if (!v)
        return 0;
    for (size_t i = 0; i < g->nmarks; i++)
        v[i] = i;
    qsort_r(v, g->nmarks, sizeof *v, cmp_rowx, g->marks);
    for (size_t i = 1; i < g->nmarks; i++) {
        const struct ev_gmark *a = &g->marks[v[i - 1]], *b = &g->marks[v[i]];
        n += a->row == b->row && px(g, &m, b->x) - px(g, &m, a->x) < LABEL_W;
    }
    free(v);
    return n;
}

static double py(int row)
{
    return TOP + ROW_H * row + ROW_H / 2;
}

/* S with XML's special characters escaped. */
static void put_esc(FILE *out, const char *s)
{
    for (; *s; s++)
        switch (*s) {
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '&': fputs("&amp;", out); break;
        case '"': fputs("&quot;", out); break;
        default: fputc(*s, out);
        }
}

static const char *short_fn(const char *fn)
{
    return strncmp(fn, "MPI_", 4) == 0 ? fn + 4 : fn;
}

static const char style[] =
    "svg.drdb-graph{font-family:sans-serif;font-size:11px;background:#fff}"
    ".rank-line{stroke:#888;stroke-width:1}"
    ".rank-label{font-size:13px;font-weight:bold;fill:#333}"
    ".ev{fill:#4a7ab8;stroke:#234;stroke-width:0.5;cursor:pointer}"
    ".ev.hl{fill:#d62728;stroke:#600;stroke-width:1.5}"
    ".msg{stroke:#2b8a3e;stroke-width:1.2;marker-end:url(#drdb-ah)}"
    ".msg.hl{stroke:#d62728;stroke-width:2.5;marker-end:url(#drdb-ahh)}"
    ".post{stroke:#2b8a3e;stroke-width:1;stroke-dasharray:2 3}"
    ".coll{fill:none;stroke:#f0b429;stroke-opacity:0.45;stroke-width:10;"
    "stroke-linejoin:round;stroke-linecap:round}"
    ".lbl{fill:#333;font-size:9px;text-anchor:middle}"
    ".ev.next{stroke:#7b2cbf;stroke-width:2}"
    ".here{stroke:#7b2cbf;stroke-width:2.5}"
    ".here-lbl{fill:#7b2cbf;font-size:10px;font-weight:bold}"
    ".pending{stroke:#7b2cbf;stroke-width:1.5;stroke-dasharray:6 3;"
    "marker-end:url(#drdb-ahp)}"
    ".stub{stroke:#2b8a3e;stroke-width:1.2;stroke-dasharray:3 2;"
    "marker-end:url(#drdb-ah)}"
    ".stub.hl{stroke:#d62728;stroke-width:2.5;marker-end:url(#drdb-ahh)}"
    ".stub-lbl{fill:#2b8a3e;font-size:9px}"
    ".axis{fill:#666;font-size:10px}";

/* A message whose other end is not drawn: a short dashed arrow out of its
 * drawn end (a send: to the right, the way time goes) or into it (a
 * receive's completion: from the left), slanted toward the other rank's
 * line when that is drawn, labelled "to R:N" / "from R:N". */
static void stub(const struct ev_graph *g, const struct geom *m,
                 const struct ev_garrow *ar, FILE *out, int titles)
{
    int in = ar->from < 0;
    const struct ev_gmark *k = &g->marks[in ? ar->to : ar->from];
    int r = g->rows[k->row].rank, orow = g->rowof[ar->other_rank];
    double x = px(g, m, k->x), y = py(k->row);
    /* toward the other rank's line; not drawn: a send's up, a receive's
     * from below, so that the labels of both at one spot do not meet */
    double dy = orow < 0 || orow == k->row ? (in ? 18 : -18)
                : orow < k->row             ? -18 : 18;
    double fx = in ? x - 30 : x, fy = in ? y + dy : y;
    double tx = in ? x - 5 : x + 30, ty = in ? y + dy / 6 : y + dy;
    char here[48], other[48];
    snprintf(here, sizeof here, "%d:%" PRIu64, r, k->event);
    snprintf(other, sizeof other, "%d:%" PRIu64, ar->other_rank,
             ar->other_event);
    fprintf(out, "<line class=\"stub%s\" data-from=\"%s\" data-to=\"%s\" "
            "data-tag=\"%d\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
            "y2=\"%.1f\">", ar->hl ? " hl" : "", in ? other : here,
            in ? here : other, ar->tag, fx, fy, tx, ty);
    if (titles)
        fprintf(out, "<title>%s -&gt; %s, tag %d, %" PRId64 " bytes (%s "
                "not drawn)</title>", in ? other : here, in ? here : other,
                ar->tag, ar->bytes, in ? "its send" : "its receive");
    fprintf(out, "</line>\n<text class=\"stub-lbl\" x=\"%.1f\" "
            "y=\"%.1f\" text-anchor=\"%s\">%s %s</text>\n",
            in ? fx - 2 : tx + 2, (in ? fy : ty) + (dy < 0 ? -2 : 9),
            in ? "end" : "start", in ? "from" : "to", other);
}

/* The SVG element; TITLES: a <title> per element (the standalone file's
 * tooltips; the page shows its own). */
static void svg(const struct ev_graph *g, FILE *out, int titles)
{
    struct geom m;
    geom_of(g, &m);
    fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" "
            "class=\"drdb-graph\" width=\"%.0f\" height=\"%.0f\" "
            "viewBox=\"0 0 %.0f %.0f\" data-logical=\"%d\">\n", m.w, m.h,
            m.w, m.h, g->logical);
    fprintf(out, "<style>%s</style>\n", style);
    fputs("<defs><marker id=\"drdb-ah\" viewBox=\"0 0 8 8\" refX=\"8\" "
          "refY=\"4\" markerWidth=\"7\" markerHeight=\"7\" "
          "orient=\"auto\"><path d=\"M0,0 L8,4 L0,8 z\" fill=\"#2b8a3e\"/>"
          "</marker><marker id=\"drdb-ahh\" viewBox=\"0 0 8 8\" refX=\"8\" "
          "refY=\"4\" markerWidth=\"6\" markerHeight=\"6\" orient=\"auto\">"
          "<path d=\"M0,0 L8,4 L0,8 z\" fill=\"#d62728\"/></marker>"
          "<marker id=\"drdb-ahp\" viewBox=\"0 0 8 8\" refX=\"8\" "
          "refY=\"4\" markerWidth=\"7\" markerHeight=\"7\" "
          "orient=\"auto\"><path d=\"M0,0 L8,4 L0,8 z\" fill=\"#7b2cbf\"/>"
          "</marker></defs>\n",
          out);
    fputs("<text class=\"axis\" x=\"4\" y=\"14\">", out);
    put_esc(out, g->run);
    if (g->logical)
        fputs(": logical time", out);
    else
        fprintf(out, ": %.3f .. %.3f ms", g->xmin / 1e6, g->xmax / 1e6);
    fputs("</text>\n<g id=\"rows\">\n", out);
    for (int i = 0; i < g->nrows; i++)
        fprintf(out, "<g class=\"rank\" data-r=\"%d\"><text "
                "class=\"rank-label\" x=\"8\" y=\"%.1f\">rank %d</text>"
                "<line class=\"rank-line\" x1=\"%.1f\" y1=\"%.1f\" "
                "x2=\"%.1f\" y2=\"%.1f\"/></g>\n", g->rows[i].rank,
                py(i) + 4, g->rows[i].rank, LEFT - 10, py(i),
                LEFT + m.pw + 10, py(i));
    fputs("</g>\n<g id=\"bands\">\n", out);
    for (size_t b = 0; b < g->nbands; b++) {
        const struct ev_gband *bd = &g->bands[b];
        fprintf(out, "<polyline class=\"coll\" data-fn=\"%s\" "
                "data-comm=\"%d\" data-instance=\"%d\" points=\"",
                ev_fn_name(bd->fn), bd->comm, bd->instance);
        for (size_t j = 0; j < bd->n; j++) {
            const struct ev_gmark *k = &g->marks[g->pool[bd->first + j]];
            fprintf(out, "%s%.1f,%.1f", j ? " " : "", px(g, &m, k->x),
                    py(k->row));
        }
        if (bd->n == 1) { /* one member drawn: a short stub */
            const struct ev_gmark *k = &g->marks[g->pool[bd->first]];
            fprintf(out, " %.1f,%.1f", px(g, &m, k->x), py(k->row) + 0.1);
        }
        fputs("\">", out);
        if (titles)
            fprintf(out, "<title>%s on #%d, instance %d</title>",
                    ev_fn_name(bd->fn), bd->comm, bd->instance);
        fputs("</polyline>\n", out);
    }
    fputs("</g>\n<g id=\"msgs\">\n", out);
    for (size_t a = 0; a < g->narrows; a++) {
        const struct ev_garrow *ar = &g->arrows[a];
        if (ar->from < 0 || ar->to < 0) {
            stub(g, &m, ar, out, titles);
            continue;
        }
        const struct ev_gmark *f = &g->marks[ar->from], *t = &g->marks[ar->to];
        int fr = g->rows[f->row].rank, tr = g->rows[t->row].rank;
        if (ar->post >= 0) {
            const struct ev_gmark *p = &g->marks[ar->post];
            fprintf(out, "<line class=\"post\" x1=\"%.1f\" y1=\"%.1f\" "
                    "x2=\"%.1f\" y2=\"%.1f\"/>\n", px(g, &m, p->x),
                    py(p->row) - 6, px(g, &m, t->x), py(t->row) - 6);
        }
        fprintf(out, "<line class=\"%s%s\" data-from=\"%d:%" PRIu64 "\" "
                "data-to=\"%d:%" PRIu64 "\" data-tag=\"%d\" x1=\"%.1f\" "
                "y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\">",
                ar->pending ? "pending" : "msg", ar->hl ? " hl" : "",
                fr, f->event, tr, t->event, ar->tag, px(g, &m, f->x),
                py(f->row), px(g, &m, t->x), py(t->row));
        if (titles)
            fprintf(out, "<title>%d:%" PRIu64 " -&gt; %d:%" PRIu64
                    ", tag %d, %" PRId64 " bytes</title>", fr, f->event, tr,
                    t->event, ar->tag, ar->bytes);
        fputs("</line>\n", out);
    }
    fputs("</g>\n<g id=\"events\">\n", out);
    for (size_t i = 0; i < g->nmarks; i++) {
        const struct ev_gmark *k = &g->marks[i];
        int r = g->rows[k->row].rank;
        double x = px(g, &m, k->x), y = py(k->row);
        const char *tn = ev_graph_tag_name(g, k->tag);
        fprintf(out, "<circle class=\"ev%s%s\" cx=\"%.1f\" cy=\"%.1f\" "
                "r=\"%d\" data-r=\"%d\" data-n=\"%" PRIu64 "\" "
                "data-fn=\"%s\" data-peer=\"%s\" data-tag=\"%s\" "
                "data-bytes=\"%" PRId64 "\" data-t=\"%.3f\" "
                "data-dur=\"%.3f\">", k->hl ? " hl" : "",
                k->next ? " next" : "", x, y,
                k->hl ? 6 : 4, r, k->event, k->fn, k->peer, k->tag,
                k->bytes, (double)k->t_ns / 1e3, k->dur_us);
        if (tn) /* the tag's name, for the page's hover */
            fprintf(out, "<desc>%s</desc>", tn);
        if (titles) {
            char nb[40] = "";
            if (k->bytes >= 0)
                snprintf(nb, sizeof nb, ", %" PRId64 " bytes", k->bytes);
            fprintf(out, "<title>%d:%" PRIu64 " %s peer %s tag %s%s%s%s%s, "
                    "at %.3f us</title>", r, k->event, k->fn, k->peer,
                    k->tag, tn ? " (" : "", tn ? tn : "", tn ? ")" : "", nb,
                    (double)k->t_ns / 1e3);
        }
        fputs("</circle>\n", out);
        if (m.labels)
            fprintf(out, "<text class=\"lbl\" x=\"%.1f\" y=\"%.1f\">%s%s%s"
                    "</text>\n", x, i % 2 ? y + 17 : y - 9, short_fn(k->fn),
                    tn ? " " : strcmp(k->tag, "-") ? " t" : "",
                    tn ? tn : strcmp(k->tag, "-") ? k->tag : "");
    }
    fputs("</g>\n<g id=\"positions\">\n", out);
    for (int i = 0; i < g->nrows; i++) {
        const struct ev_grow *w = &g->rows[i];
        int32_t k = ev_graph_find(g, w->rank, w->here);
        double x;
        if (k >= 0)
            x = px(g, &m, g->marks[k].x) - 9;
        else if (w->here_end)
            x = px(g, &m, g->marks[w->base + (w->hi - 1 - w->lo)].x) + 9;
        else
            continue;
        fprintf(out, "<line class=\"here\" data-r=\"%d\" data-n=\"%"
                PRIu64 "\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
                "y2=\"%.1f\"/><text class=\"here-lbl\" x=\"%.1f\" "
                "y=\"%.1f\">here</text>\n", w->rank, w->here, x,
                py(i) - 16, x, py(i) + 16, x - 12, py(i) + 28);
    }
    fputs("</g>\n</svg>\n", out);
}

int ev_graph_write_svg(const struct ev_graph *g, FILE *out)
{
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
    svg(g, out, 1);
    return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}

/* The page's script: pan (drag), zoom (wheel, +/-), hover details, click
 * to copy R:N. With #selftest in its address it drives itself (a hover, a
 * zoom, a click) and writes what it saw into <pre id="selftest">, for a
 * headless browser's --dump-dom. */
static const char script[] =
    "(function(){\n"
    "var svg=document.querySelector('svg.drdb-graph');\n"
    "var tip=document.getElementById('tip'),st=document.getElementById('status');\n"
    "var vb=svg.getAttribute('viewBox').split(' ').map(Number);\n"
    "var W=vb[2],H=vb[3];\n"
    "svg.removeAttribute('width');svg.removeAttribute('height');\n"
    "function setvb(){svg.setAttribute('viewBox',vb.map(function(v){return v.toFixed(2)}).join(' '));}\n"
    "function zoom(f,cx,cy){if(cx===undefined){cx=vb[0]+vb[2]/2;cy=vb[1]+vb[3]/2;}\n"
    " var nw=Math.min(Math.max(vb[2]/f,W/2000),W*4),nh=nw*vb[3]/vb[2];\n"
    " vb[0]=cx-(cx-vb[0])*nw/vb[2];vb[1]=cy-(cy-vb[1])*nh/vb[3];vb[2]=nw;vb[3]=nh;setvb();}\n"
    "function topt(e){var r=svg.getBoundingClientRect();\n"
    " return [vb[0]+(e.clientX-r.left)*vb[2]/r.width,vb[1]+(e.clientY-r.top)*vb[3]/r.height];}\n"
    "svg.addEventListener('wheel',function(e){e.preventDefault();var p=topt(e);\n"
    " zoom(e.deltaY<0?1.25:0.8,p[0],p[1]);},{passive:false});\n"
    "var drag=null;\n"
    "svg.addEventListener('mousedown',function(e){drag=[e.clientX,e.clientY];});\n"
    "window.addEventListener('mouseup',function(){drag=null;});\n"
    "window.addEventListener('mousemove',function(e){if(!drag)return;\n"
    " var r=svg.getBoundingClientRect();\n"
    " vb[0]-=(e.clientX-drag[0])*vb[2]/r.width;vb[1]-=(e.clientY-drag[1])*vb[3]/r.height;\n"
    " drag=[e.clientX,e.clientY];setvb();});\n"
    "window.addEventListener('keydown',function(e){if(e.key=='+')zoom(1.25);\n"
    " else if(e.key=='-')zoom(0.8);else if(e.key=='0'){vb=[0,0,W,H];setvb();}});\n"
    "function detail(c){var d=c.dataset;\n"
    " var dn=c.querySelector('desc');\n"
    " return d.r+':'+d.n+'  '+d.fn+'  peer '+d.peer+'  tag '+d.tag+\n"
    "  (dn?' ('+dn.textContent+')':'')+'  bytes '+\n"
    "  (d.bytes<0?'-':d.bytes)+'  at '+d.t+' us ('+d.dur+' us)';}\n"
    "svg.addEventListener('mouseover',function(e){var c=e.target;\n"
    " if(!c.classList||!c.classList.contains('ev'))return;\n"
    " tip.textContent=detail(c);tip.style.display='block';\n"
    " tip.style.left=(e.clientX+12)+'px';tip.style.top=(e.clientY+12)+'px';});\n"
    "svg.addEventListener('mouseout',function(e){if(e.target.classList&&\n"
    " e.target.classList.contains('ev'))tip.style.display='none';});\n"
    "function copied(t){st.textContent='copied '+t;document.body.dataset.copied=t;}\n"
    "function copy(t){var ta=document.createElement('textarea');ta.value=t;\n"
    " document.body.appendChild(ta);ta.select();try{document.execCommand('copy');}catch(x){}\n"
    " ta.remove();copied(t);\n"
    " if(navigator.clipboard)navigator.clipboard.writeText(t).catch(function(){});}\n"
    "svg.addEventListener('click',function(e){var c=e.target;\n"
    " if(c.classList&&c.classList.contains('ev'))copy(c.dataset.r+':'+c.dataset.n);});\n"
    "if(location.hash=='#selftest'){var o={};\n"
    " o.ranks=svg.querySelectorAll('.rank-line').length;\n"
    " o.events=svg.querySelectorAll('circle.ev').length;\n"
    " o.arrows=svg.querySelectorAll('line.msg').length;\n"
    " o.bands=svg.querySelectorAll('polyline.coll').length;\n"
    " o.hl=Array.prototype.map.call(svg.querySelectorAll('circle.ev.hl'),\n"
    "  function(c){return c.dataset.r+':'+c.dataset.n}).join(' ');\n"
    " o.hlmsg=Array.prototype.map.call(svg.querySelectorAll('line.msg.hl'),\n"
    "  function(l){return l.dataset.from+'>'+l.dataset.to}).join(' ');\n"
    " var first=svg.querySelector('circle.ev.hl')||svg.querySelector('circle.ev');\n"
    " var bb=first.getBoundingClientRect();o.drawn=bb.width>0&&bb.height>0;\n"
    " first.dispatchEvent(new MouseEvent('mouseover',{bubbles:true,clientX:bb.x,clientY:bb.y}));\n"
    " o.tip=tip.style.display=='block'?tip.textContent:'';\n"
    " var w0=vb[2];svg.dispatchEvent(new WheelEvent('wheel',{deltaY:-100,bubbles:true,\n"
    "  cancelable:true,clientX:bb.x,clientY:bb.y}));o.zoom=(w0/vb[2]).toFixed(2);\n"
    " first.dispatchEvent(new MouseEvent('click',{bubbles:true}));\n"
    " o.copied=document.body.dataset.copied||'';\n"
    " vb=[0,0,W,H];setvb();\n"
    " var pre=document.createElement('pre');pre.id='selftest';\n"
    " pre.textContent=Object.keys(o).map(function(k){return k+'='+o[k]}).join('\\n');\n"
    " document.body.appendChild(pre);}\n"
    "})();\n";

int ev_graph_write_html(const struct ev_graph *g, FILE *out)
{
    fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n<title>"
          "drdb: ", out);
    put_esc(out, g->run);
    fputs("</title>\n<style>body{margin:0;font-family:sans-serif}"
          "#bar{padding:4px 8px;background:#eee;font-size:13px}"
          "#view{width:100vw;height:calc(100vh - 28px);overflow:hidden}"
          "#view svg{width:100%;height:100%;cursor:grab}"
          "#tip{position:fixed;display:none;background:#ffd;border:1px "
          "solid #aa8;padding:3px 6px;font:12px monospace;"
          "pointer-events:none}</style>\n</head><body>\n<div id=\"bar\">",
          out);
    put_esc(out, g->run);
    fputs(" &mdash; drag to pan, wheel or +/- to zoom, 0 to reset; hover "
          "an event for its details, click it to copy RANK:EVENT "
          "<span id=\"status\"></span></div>\n<div id=\"view\">\n", out);
    svg(g, out, 0);
    fprintf(out, "</div>\n<div id=\"tip\"></div>\n<script>\n%s</script>\n"
            "</body></html>\n", script);
    return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}
