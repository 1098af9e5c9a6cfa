/*
 * ev-check-report.c - the findings of a run of checks kept, and printed
 * (ev-check.h): human text grouped by check, one JSON document, SARIF
 * 2.1.0 (the OASIS standard code-scanning tools read; docs/check.md says
 * which of its properties drdb fills). Each site's call comes from the
 * log (ev_print_call) and its source line from the recorded return
 * address (ev_check_site_src).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ev-check.h"
#include "ev-int.h"
#include "term-escape.h"


void ev_check_report_init(struct ev_check_report *r)
{
    memset(r, 0, sizeof *r);
}

void ev_check_report_release(struct ev_check_report *r)
{
    for (size_t i = 0; i < r->n; i++)
        free(r->f[i].sites);
    for (size_t i = 0; i < r->nnotes; i++) {
        free(r->notes[i].msg);
        free(r->notes[i].rest);
        free(r->notes[i].ranks);
    }
    free(r->f);
    free(r->notes);
    ev_check_report_init(r);
}

/* The table's entry named NAME, its static name in *STATIC_NAME. */
static size_t def_of(const char *name, const char **static_name)
{
    size_t n = ev_check_count();
    for (size_t i = 0; i < n; i++)
        if (strcmp(ev_check_at(i)->name, name) == 0) {
            *static_name = ev_check_at(i)->name;
            return i;
        }
    *static_name = "?";
    return n;
}

void ev_check_keep_emit(void *ud, const struct ev_check_finding *f)
{
    struct ev_check_report *r = ud;
    if (util_grow(&r->f, &r->cap, r->n + 1, sizeof *r->f) < 0) {
        r->oom = 1;
        return;
    }
    struct ev_check_kept *k = &r->f[r->n];
    memset(k, 0, sizeof *k);
    k->def = def_of(f->check, &k->check);
    k->severity = f->severity >= 0 && f->severity <= EV_CHECK_PORTABILITY
                      ? f->severity : EV_CHECK_ERROR;
    snprintf(k->message, sizeof k->message, "%s", f->message);
    if (f->nsites > 0) {
        k->sites = malloc((size_t)f->nsites * sizeof *k->sites);
        if (!k->sites) {
            r->oom = 1;
            return;
        }
        memcpy(k->sites, f->sites, (size_t)f->nsites * sizeof *k->sites);
        k->nsites = f->nsites;
    }
    r->count[k->severity]++;
    r->n++;
}

/* The rank a note is about: "rank 3 has...", "rank 3's...", "rank 3:
 * ..." give 3 and, in *REST, the words after it; -1 for another note. */
static int note_rank(const char *msg, const char **rest)
{
    char *end;
    if (strncmp(msg, "rank ", 5) || msg[5] < '0' || msg[5] > '9')
        return -1;
    long r = strtol(msg + 5, &end, 10);
    if ((*end != ' ' && *end != ':' && *end != '\'') || r > INT32_MAX)
        return -1;
    *rest = end;
    return (int)r;
}

/* "ranks 0-3,7: each rank" + REST for note O about several ranks. */
static char *merged_msg(const struct ev_check_note *o)
{
    size_t cap = 64 + 12 * o->nranks + strlen(o->rest), len;
    char *m = malloc(cap);
    if (!m)
        return NULL;
    len = (size_t)snprintf(m, cap, "ranks ");
    for (size_t i = 0; i < o->nranks;) {
        size_t j = i;
        while (j + 1 < o->nranks && o->ranks[j + 1] == o->ranks[j] + 1)
            j++;
        len += (size_t)snprintf(m + len, cap - len, j > i ? "%s%d-%d"
                                : "%s%d", i ? "," : "", o->ranks[i],
                                o->ranks[j]);
        i = j + 1;
    }
    /* "rank 3 has..." "rank 3's..." read "each rank has...", "each
     * rank's..."; "rank 3: the run..." reads "ranks 0-3, each: the run..." */
    snprintf(m + len, cap - len, "%s%s", o->rest[0] == ':' ? ", each"
                                                           : ": each rank",
             o->rest);
    return m;
}

void ev_check_keep_note(void *ud, const char *check, const char *msg)
{
    struct ev_check_report *r = ud;
    const char *rest, *name;
    int rank = note_rank(msg, &rest);
    def_of(check, &name);
    /* the same words about another rank: one note, the ranks merged */
    for (size_t i = 0; rank >= 0 && i < r->nnotes; i++) {
        struct ev_check_note *o = &r->notes[i];
        if (o->check != name || !o->rest || strcmp(o->rest, rest))
            continue;
        size_t k = 0;
        while (k < o->nranks && o->ranks[k] < rank)
            k++;
        if (k < o->nranks && o->ranks[k] == rank)
            return;
        int *v = realloc(o->ranks, (o->nranks + 1) * sizeof *v);
        if (!v) {
            r->oom = 1;
            return;
        }
        memmove(v + k + 1, v + k, (o->nranks - k) * sizeof *v);
        v[k] = rank;
        o->ranks = v;
        o->nranks++;
        char *m = merged_msg(o);
        if (!m) {
            r->oom = 1;
            return;
        }
        free(o->msg);
        o->msg = m;
        return;
    }
    if (util_grow(&r->notes, &r->cap_notes, r->nnotes + 1,
                  sizeof *r->notes) < 0) {
        r->oom = 1;
        return;
    }
    struct ev_check_note *o = &r->notes[r->nnotes];
    memset(o, 0, sizeof *o);
    o->check = name;
    o->msg = strdup(msg);
    if (rank >= 0) {
        o->rest = strdup(rest);
        o->ranks = malloc(sizeof *o->ranks);
        if (o->ranks) {
            o->ranks[0] = rank;
            o->nranks = 1;
        }
    }
    if (!o->msg || (rank >= 0 && (!o->rest || !o->ranks))) {
        free(o->msg);
        free(o->rest);
        free(o->ranks);
        r->oom = 1;
        return;
    }
    r->nnotes++;
}

int ev_check_site_src(struct ev_run *x, int rank, uint64_t n,
                      struct ev_srcloc *s)
{
    char err[256];
    memset(s, 0, sizeof *s);
    return n != EV_NONE && ev_srcline(x, rank, n, s, err, sizeof err) == 1;
}

/* ---- human --------------------------------------------------------------- */

/* "  at FILE:LINE (in FUNCTION)", "  at OBJECT+0xOFF", or nothing. */
static void print_src(FILE *out, const struct ev_srcloc *s)
{
    int line = s->file[0] && s->line > 0;
    if (!line && !s->object[0])
        return;
    /* (names from the program's DWARF, shown never obeyed) */
    char *at = term_escape(line ? s->file : s->object, 0),
         *fn = term_escape(s->function, 0);
    if (line)
        fprintf(out, "  at %s:%d", at ? at : "?", s->line);
    else
        fprintf(out, "  at %s+0x%" PRIx64, at ? at : "?", s->offset);
    if (s->function[0])
        fprintf(out, " (in %s)", fn ? fn : "?");
    free(at);
    free(fn);
}

static void print_site(struct ev_run *x, FILE *out,
                       const struct ev_check_site *s)
{
    char err[256];
    struct ev_srcloc src;
    if (s->event == EV_NONE) {
        fprintf(out, "    %d:end %s\n        (the end of its log)\n",
                s->rank, s->role);
        return;
    }
    fprintf(out, "    %d:%" PRIu64 " %s\n        ", s->rank, s->event,
            s->role);
    if (ev_print_call(x, out, s->rank, s->event, err, sizeof err) < 0)
        fprintf(out, "(%s)", err);
    ev_check_site_src(x, s->rank, s->event, &src);
    print_src(out, &src);
    fputc('\n', out);
}

void ev_check_print_finding(struct ev_run *x, const struct ev_check_report *r,
                            size_t i, int k, FILE *out)
{
    const struct ev_check_kept *f = &r->f[i];
    if (k > 0)
        fprintf(out, "[%d] ", k);
    fprintf(out, "%s %s: %s\n", ev_check_severity_name(f->severity),
            f->check, f->message);
    for (int s = 0; s < f->nsites; s++)
        print_site(x, out, &f->sites[s]);
}

void ev_check_print_notes(const struct ev_check_report *r, FILE *out)
{
    for (size_t i = 0; i < r->nnotes; i++)
        fprintf(out, "note %s: %s\n", r->notes[i].check, r->notes[i].msg);
    if (r->oom)
        fprintf(out, "note: out of memory: some findings were lost\n");
}

void ev_check_print_counts(const struct ev_check_report *r, FILE *out)
{
    fprintf(out, "%zu errors, %zu warnings, %zu portability\n",
            r->count[EV_CHECK_ERROR], r->count[EV_CHECK_WARNING],
            r->count[EV_CHECK_PORTABILITY]);
}

/* How many findings check D has. */
static size_t count_of(const struct ev_check_report *r, size_t d)
{
    size_t c = 0;
    for (size_t i = 0; i < r->n; i++)
        c += r->f[i].def == d;
    return c;
}

/* Under a check's heading, when it has many findings: the source lines
 * of their main sites, the most frequent first (at most 5), so that 300
 * findings from two calls read as two places. */
static void print_where(struct ev_run *x, const struct ev_check_report *r,
                        size_t d, FILE *out)
{
    enum { MAXW = 64 };
    struct where {
        char at[300];
        size_t n;
    } w[MAXW];
    int nw = 0;
    size_t other = 0;
    struct ev_srcloc src;
    for (size_t i = 0; i < r->n; i++) {
        const struct ev_check_kept *f = &r->f[i];
        if (f->def != d || !f->nsites ||
            !ev_check_site_src(x, f->sites[0].rank, f->sites[0].event,
                               &src) ||
            !src.file[0] || src.line <= 0) {
            other += f->def == d;
            continue;
        }
        const char *base = strrchr(src.file, '/');
        char at[300];
        snprintf(at, sizeof at, "%.250s:%d", base ? base + 1 : src.file,
                 src.line);
        int k = 0;
        while (k < nw && strcmp(w[k].at, at))
            k++;
        if (k == nw && nw == MAXW) {
            other++;
            continue;
        }
        if (k == nw) {
            snprintf(w[k].at, sizeof w[k].at, "%s", at);
            w[nw++].n = 0;
        }
        w[k].n++;
    }
    if (!nw)
        return;
    fputs("   from", out);
    for (int shown = 0; shown < 5 && shown < nw; shown++) {
        int best = shown;
        for (int k = shown + 1; k < nw; k++)
            if (w[k].n > w[best].n)
                best = k;
        struct where t = w[best];
        w[best] = w[shown];
        w[shown] = t;
        fprintf(out, "%s %s (%zu)", shown ? "," : "", w[shown].at,
                w[shown].n);
    }
    for (int k = 5; k < nw; k++)
        other += w[k].n;
    if (other)
        fprintf(out, ", elsewhere (%zu)", other);
    fputc('\n', out);
}

static void print_human(struct ev_run *x, const struct ev_check_report *r,
                        const unsigned char *on, int interrupted, FILE *out)
{
    size_t nd = ev_check_count(), selected = 0, with = 0;
    for (size_t d = 0; d <= nd; d++) {
        size_t c = count_of(r, d);
        selected += d < nd && on[d];
        if (!c)
            continue;
        with++;
        fprintf(out, "== %s (%s): %zu finding%s ==\n",
                d < nd ? ev_check_at(d)->name : "?",
                d < nd ? ev_check_severity_name(ev_check_at(d)->severity)
                       : "?",
                c, c == 1 ? "" : "s");
        if (c > 3)
            print_where(x, r, d, out);
        for (size_t i = 0; i < r->n; i++)
            if (r->f[i].def == d)
                ev_check_print_finding(x, r, i, 0, out);
        fputc('\n', out);
    }
    ev_check_print_notes(r, out);
    if (interrupted)
        fprintf(out, "interrupted: the checks stopped early; what is above "
                "is what they found until then\n");
    fprintf(out, "total: %zu finding%s; %zu check%s selected, %zu with "
            "findings\n", r->n, r->n == 1 ? "" : "s", selected,
            selected == 1 ? "" : "s", with);
    ev_check_print_counts(r, out);
}

/* ---- JSON ---------------------------------------------------------------- */

/* Rank R's event N as a call, into BUF ("" when it cannot be read). */
static void call_text(struct ev_run *x, int rank, uint64_t n, char *buf,
                      size_t len)
{
    char err[256];
    buf[0] = 0;
    FILE *m = fmemopen(buf, len, "w");
    if (!m)
        return;
    if (n == EV_NONE || ev_print_call(x, m, rank, n, err, sizeof err) < 0)
        fputs(n == EV_NONE ? "(the end of its log)" : "", m);
    fclose(m);
    buf[len - 1] = 0;
}

/* An event number, null for the end of a log (EV_NONE). */
static void json_event(FILE *out, uint64_t event)
{
    if (event == EV_NONE)
        fputs("null", out);
    else
        fprintf(out, "%" PRIu64, event);
}

static void json_site(struct ev_run *x, FILE *out,
                      const struct ev_check_site *s)
{
    char call[1024];
    struct ev_srcloc src;
    int fn = s->event == EV_NONE ? -1 : ev_fn(x, s->rank, s->event);
    fprintf(out, "{\"rank\": %d, \"event\": ", s->rank);
    json_event(out, s->event);
    fputs(", \"role\": ", out);
    ev__json_str(out, s->role);
    fputs(", \"function\": ", out);
    if (fn >= 0)
        ev__json_str(out, log_func_name(fn));
    else
        fputs("null", out);
    call_text(x, s->rank, s->event, call, sizeof call);
    fputs(", \"call\": ", out);
    ev__json_str(out, call);
    ev_check_site_src(x, s->rank, s->event, &src);
    if (src.file[0] && src.line > 0) {
        fputs(", \"file\": ", out);
        ev__json_str(out, src.file);
        fprintf(out, ", \"line\": %d", src.line);
    }
    if (src.function[0]) {
        fputs(", \"source_function\": ", out);
        ev__json_str(out, src.function);
    }
    if (src.object[0]) {
        fputs(", \"object\": ", out);
        ev__json_str(out, src.object);
        fprintf(out, ", \"offset\": %" PRIu64, src.offset);
    }
    fputc('}', out);
}

static void print_json(struct ev_run *x, const struct ev_check_report *r,
                       const unsigned char *on, int interrupted, FILE *out)
{
    size_t nd = ev_check_count();
    fputs("{\n  \"run\": ", out);
    ev__json_str(out, x->dir);
    fputs(",\n  \"checks\": [", out);
    for (size_t d = 0, first = 1; d < nd; d++) {
        if (!on[d])
            continue;
        const struct ev_check_def *c = ev_check_at(d);
        fputs(first ? "\n    {\"name\": " : ",\n    {\"name\": ", out);
        ev__json_str(out, c->name);
        fprintf(out, ", \"severity\": \"%s\", \"summary\": ",
                ev_check_severity_name(c->severity));
        ev__json_str(out, c->summary);
        fprintf(out, ", \"findings\": %zu}", count_of(r, d));
        first = 0;
    }
    fputs("\n  ],\n  \"findings\": [", out);
    for (size_t i = 0; i < r->n; i++) {
        const struct ev_check_kept *f = &r->f[i];
        fprintf(out, "%s\n    {\"id\": %zu, \"check\": ", i ? "," : "",
                i + 1);
        ev__json_str(out, f->check);
        fprintf(out, ", \"severity\": \"%s\", \"message\": ",
                ev_check_severity_name(f->severity));
        ev__json_str(out, f->message);
        fputs(",\n     \"sites\": [", out);
        for (int s = 0; s < f->nsites; s++) {
            fputs(s ? ",\n       " : "\n       ", out);
            json_site(x, out, &f->sites[s]);
        }
        fputs("]}", out);
    }
    fputs("\n  ],\n  \"notes\": [", out);
    for (size_t i = 0; i < r->nnotes; i++) {
        fputs(i ? ",\n    {\"check\": " : "\n    {\"check\": ", out);
        ev__json_str(out, r->notes[i].check);
        fputs(", \"message\": ", out);
        ev__json_str(out, r->notes[i].msg);
        for (size_t k = 0; k < r->notes[i].nranks; k++)
            fprintf(out, "%s%d", k ? ", " : ", \"ranks\": [",
                    r->notes[i].ranks[k]);
        fputs(r->notes[i].nranks ? "]}" : "}", out);
    }
    fprintf(out, "\n  ],\n  \"counts\": {\"error\": %zu, \"warning\": %zu, "
            "\"portability\": %zu, \"total\": %zu},\n  \"interrupted\": %s,"
            "\n  \"complete\": %s\n}\n", r->count[EV_CHECK_ERROR],
            r->count[EV_CHECK_WARNING], r->count[EV_CHECK_PORTABILITY], r->n,
            interrupted ? "true" : "false",
            interrupted || r->oom ? "false" : "true");
}

/* ---- SARIF 2.1.0 --------------------------------------------------------- */

/* SARIF's level for a severity: portability problems are warnings. */
static const char *sarif_level(int severity)
{
    return severity == EV_CHECK_ERROR ? "error" : "warning";
}

/* A path as an artifactLocation's uri: an absolute path as a file: URI
 * (RFC 8089), a relative one as a relative reference; spaces and '%'
 * percent-encoded, the rest as is. */
static void sarif_uri(FILE *out, const char *path)
{
    char buf[3200];
    size_t k = 0;
    if (path[0] == '/')
        k = (size_t)snprintf(buf, sizeof buf, "file://");
    for (const char *p = path; *p && k + 4 < sizeof buf; p++) {
        if (*p == ' ' || *p == '%' || *p == '#' || *p == '?')
            k += (size_t)snprintf(buf + k, sizeof buf - k, "%%%02X",
                                  (unsigned char)*p);
        else
            buf[k++] = *p;
    }
    buf[k] = 0;
    ev__json_str(out, buf);
}

/* One site as a SARIF location (ID >= 0: its id, for relatedLocations):
 * a physicalLocation when the source line or the object is known; always
 * a message naming the rank, event and call, and the rank and event in
 * its property bag. */
static void sarif_location(struct ev_run *x, FILE *out,
                           const struct ev_check_site *s, int id)
{
    char call[1024], text[1400];
    struct ev_srcloc src;
    ev_check_site_src(x, s->rank, s->event, &src);
    call_text(x, s->rank, s->event, call, sizeof call);
    fputc('{', out);
    if (id >= 0)
        fprintf(out, "\"id\": %d, ", id);
    if (src.file[0] && src.line > 0) {
        fputs("\"physicalLocation\": {\"artifactLocation\": {\"uri\": ", out);
        sarif_uri(out, src.file);
        fprintf(out, "}, \"region\": {\"startLine\": %d}}, ", src.line);
    } else if (src.object[0]) {
        fputs("\"physicalLocation\": {\"artifactLocation\": {\"uri\": ", out);
        sarif_uri(out, src.object);
        fprintf(out, "}, \"address\": {\"relativeAddress\": %" PRIu64
                ", \"kind\": \"instruction\"}}, ", src.offset);
    }
    if (s->event == EV_NONE)
        snprintf(text, sizeof text, "rank %d, the end of its log: %s",
                 s->rank, s->role);
    else
        snprintf(text, sizeof text, "rank %d, event %" PRIu64 " (%s): %s",
                 s->rank, s->event, s->role, call);
    fputs("\"message\": {\"text\": ", out);
    ev__json_str(out, text);
    fprintf(out, "}, \"properties\": {\"rank\": %d, \"event\": ", s->rank);
    json_event(out, s->event);
    fputs("}}", out);
}

static void print_sarif(struct ev_run *x, const struct ev_check_report *r,
                        const unsigned char *on, int interrupted, FILE *out)
{
    size_t nd = ev_check_count();
    /* rules: the checks that ran, ruleIndex their place among them */
    size_t *index = calloc(nd + 1, sizeof *index);
    fputs("{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json"
          "\",\n  \"version\": \"2.1.0\",\n  \"runs\": [{\n    \"tool\": "
          "{\"driver\": {\"name\": \"drdb check\", \"rules\": [", out);
    for (size_t d = 0, k = 0; d < nd; d++) {
        if (!on[d])
            continue;
        const struct ev_check_def *c = ev_check_at(d);
        if (index)
            index[d] = k;
        fputs(k ? ",\n      {\"id\": " : "\n      {\"id\": ", out);
        ev__json_str(out, c->name);
        fputs(", \"shortDescription\": {\"text\": ", out);
        ev__json_str(out, c->summary);
        fprintf(out, "}, \"defaultConfiguration\": {\"level\": \"%s\"}, "
                "\"properties\": {\"severity\": \"%s\"}}",
                sarif_level(c->severity),
                ev_check_severity_name(c->severity));
        k++;
    }
    fputs("]}},\n    \"invocations\": [{\"executionSuccessful\": ", out);
    fputs(interrupted || r->oom ? "false" : "true", out);
    /* what a check could not see, and an interruption: notifications */
    fputs(", \"toolExecutionNotifications\": [", out);
    for (size_t i = 0; i < r->nnotes; i++) {
        fputs(i ? ",\n      " : "\n      ", out);
        fputs("{\"level\": \"note\", \"associatedRule\": {\"id\": ", out);
        ev__json_str(out, r->notes[i].check);
        fputs("}, \"message\": {\"text\": ", out);
        ev__json_str(out, r->notes[i].msg);
        fputs("}}", out);
    }
    if (interrupted)
        fprintf(out, "%s{\"level\": \"warning\", \"message\": {\"text\": "
                "\"interrupted: the checks stopped early\"}}",
                r->nnotes ? ",\n      " : "\n      ");
    fputs("]", out);
    fputs("}],\n    \"results\": [", out);
    for (size_t i = 0; i < r->n; i++) {
        const struct ev_check_kept *f = &r->f[i];
        fputs(i ? ",\n      {\"ruleId\": " : "\n      {\"ruleId\": ", out);
        ev__json_str(out, f->check);
        if (index && f->def < nd && on[f->def])
            fprintf(out, ", \"ruleIndex\": %zu", index[f->def]);
        fprintf(out, ", \"level\": \"%s\", \"message\": {\"text\": ",
                sarif_level(f->severity));
        ev__json_str(out, f->message);
        fputs("},\n       \"locations\": [", out);
        if (f->nsites > 0)
            sarif_location(x, out, &f->sites[0], -1);
        fputs("],\n       \"relatedLocations\": [", out);
        for (int s = 1; s < f->nsites; s++) {
            fputs(s > 1 ? ", " : "", out);
            sarif_location(x, out, &f->sites[s], s);
        }
        fprintf(out, "],\n       \"properties\": {\"severity\": \"%s\"}}",
                ev_check_severity_name(f->severity));
    }
    fputs("\n    ]\n  }]\n}\n", out);
    free(index);
}

void ev_check_print(struct ev_run *x, const struct ev_check_report *r,
                    const unsigned char *on, int interrupted, int format,
                    FILE *out)
{
    if (format == EV_CHECK_JSON)
        print_json(x, r, on, interrupted, out);
    else if (format == EV_CHECK_SARIF)
        print_sarif(x, r, on, interrupted, out);
    else
        print_human(x, r, on, interrupted, out);
}

void ev_check_print_list(FILE *out)
{
    for (size_t i = 0; i < ev_check_count(); i++) {
        const struct ev_check_def *d = ev_check_at(i);
        fprintf(out, "  %-26s %-11s %s\n", d->name,
                ev_check_severity_name(d->severity), d->summary);
    }
}
