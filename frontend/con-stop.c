/*
 * Stops and frames in GDB's words: a frame as GDB's frame line, the
 * fields of GDB's *stopped record the console keeps, and what GDB itself
 * printed for the execution command that stopped there (its console
 * stream, kept while the command ran), with GDB's breakpoint numbers
 * turned into the session's.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "con.h"
#include "drdb-stub.h"

/* Appends "name=value" for each argument of ARGS ({name, value} tuples;
 * --simple-values leaves an aggregate's value out: "..."). */
static void args_text(const struct mi_value *args, char *out, size_t len)
{
    size_t o = 0;
    out[0] = '\0';
    for (const struct mi_value *a = args ? args->first : NULL; a && o < len;
         a = a->next) {
        const struct mi_value *n = mi_value_get(a, "name");
        const struct mi_value *v = mi_value_get(a, "value");
        int w = snprintf(out + o, len - o, "%s%s=%s", o ? ", " : "",
                         n && n->str ? n->str : "?",
                         v && v->str ? v->str : "...");
        if (w < 0)
            break;
        o += (size_t)w;
    }
}

char *con_frame_text(const struct mi_value *frame, const struct mi_value *args)
{
    const struct mi_value *fn = mi_value_get(frame, "func");
    const struct mi_value *fi = mi_value_get(frame, "file");
    const struct mi_value *li = mi_value_get(frame, "line");
    const struct mi_value *from = mi_value_get(frame, "from");
    const struct mi_value *addr = mi_value_get(frame, "addr");
    const char *func = fn && fn->str ? fn->str : "??";
    char a[1024], *t = NULL;
    args_text(args ? args : mi_value_get(frame, "args"), a, sizeof a);
    if (fi && fi->str && li && li->str)
        asprintf(&t, "%s (%s) at %s:%s", func, a, fi->str, li->str);
    else if (from && from->str)
        asprintf(&t, "%s (%s) from %s", func, a, from->str);
    else if (!fn && addr && addr->str)
        asprintf(&t, "%s in ?? ()", addr->str);
    else
        asprintf(&t, "%s (%s)", func, a);
    return t;
}

/* Line LINE of source file PATH, as GDB shows it: "24\t    int r = 0;".
 * "" when the file cannot be read (GDB's own words then follow). */
void con_source_line(const char *path, long line, char *out, size_t len)
{
    FILE *f = path && line > 0 ? fopen(path, "r") : NULL;
    char buf[4096];
    long at = 0;
    out[0] = '\0';
    if (!f)
        return;
    while (fgets(buf, sizeof buf, f)) {
        size_t n = strlen(buf);
        int whole = n && buf[n - 1] == '\n';
        if (++at == line) {
            buf[strcspn(buf, "\r\n")] = '\0';
            snprintf(out, len, "%ld\t%s", line, buf);
            break;
        }
        /* the rest of a very long line is not a line of its own */
        while (!whole && fgets(buf, sizeof buf, f)) {
            n = strlen(buf);
            whole = n && buf[n - 1] == '\n';
        }
    }
    fclose(f);
}

void con_where_set(struct con_rank *k, const struct mi_record *rec)
{
    const char *func = mi_get_str(rec, "frame.func");
    const char *file = mi_get_str(rec, "frame.file");
    const char *line = mi_get_str(rec, "frame.line");
    if (file && line)
        snprintf(k->where, sizeof k->where, "%s () at %s:%s",
                 func ? func : "??", file, line);
    else
        snprintf(k->where, sizeof k->where, "%s ()", func ? func : "??");
}

void con_stop_keep(struct con_rank *k, const struct mi_record *rec)
{
    struct con_stop *s = &k->stop;
    const struct mi_value *frame = mi_get(rec, "frame");
    const char *func = mi_get_str(rec, "frame.func");
    const char *reason = mi_get_str(rec, "reason");
    const char *addr = mi_get_str(rec, "frame.addr");
    long long line = 0;
    snprintf(s->func, sizeof s->func, "%s", func ? func : "");
    snprintf(s->reason, sizeof s->reason, "%s", reason ? reason : "");
    char *ft = frame ? con_frame_text(frame, NULL) : NULL;
    snprintf(s->frame, sizeof s->frame, "%s", ft ? ft : "");
    free(ft);
    s->addr = addr ? strtoull(addr, NULL, 16) : 0;
    mi_get_int(rec, "frame.line", &line);
    con_source_line(mi_get_str(rec, "frame.fullname"), (long)line, s->source,
                sizeof s->source);
    const char *no = mi_get_str(rec, "bkptno");
    static const char *const wpt[] = {"wpt.number", "hw-awpt.number",
                                      "hw-rwpt.number"};
    for (size_t i = 0; !no && i < sizeof wpt / sizeof wpt[0]; i++)
        no = mi_get_str(rec, wpt[i]);
    s->gdbno = no ? atoi(no) : 0;
}

void con_stop_begin(struct con_rank *k)
{
    k->stop.len = 0;
    if (k->stop.text)
        k->stop.text[0] = '\0';
    k->stop.capture = 1;
    k->stop.numbered = 0;
}

void con_on_stream(struct mi_gdb *g, const struct mi_record *rec, void *ud)
{
    struct con_rank *k = ud;
    struct con_stop *s = &k->stop;
    (void)g;
    if (!s->capture || rec->kind != MI_RECORD_CONSOLE)
        return;
    if (s->len + rec->text_len + 1 > s->cap) {
        size_t cap = s->cap ? s->cap : 256;
        while (cap < s->len + rec->text_len + 1)
            cap *= 2;
        char *t = realloc(s->text, cap);
        if (!t)
            return;
        s->text = t;
        s->cap = cap;
    }
    memcpy(s->text + s->len, rec->text, rec->text_len);
    s->len += rec->text_len;
    s->text[s->len] = '\0';
}

/* The drdb number of rank R's GDB breakpoint GDBNO, or 0. */
static int drdb_number(const struct con *c, int r, int gdbno)
{
    for (int i = 0; i < c->nbpts; i++)
        if (c->bpts[i].gdbno && c->bpts[i].gdbno[r] == gdbno)
            return c->bpts[i].id;
    return 0;
}

char *con_renumber(const struct con *c, int r, const char *text)
{
    /* GDB's messages name an action point as "...point N" (Breakpoint,
     * Temporary breakpoint, Hardware watchpoint, Catchpoint, "crossings of
     * breakpoint N") or "...points N M" (Deleted breakpoints): each N of
     * the rank's GDB that is one of the session's gets its drdb number. */
    size_t len = strlen(text), o = 0;
    char *out = malloc(2 * len + 1);
    if (!out)
        return NULL;
    for (size_t i = 0; i < len;) {
        const char *p = text + i;
        size_t kw = !strncmp(p, "points ", 7) ? 7
                    : !strncmp(p, "point ", 6) ? 6 : 0;
        /* (the end of a word: Breakpoint, watchpoint, Catchpoint) */
        if (!kw || !i || !isalpha((unsigned char)text[i - 1])) {
            out[o++] = text[i++];
            continue;
        }
        memcpy(out + o, p, kw);
        o += kw;
        i += kw;
        /* the numbers after it, separated by spaces */
        for (;;) {
            char *end;
            long n = strtol(text + i, &end, 10);
            if (end == text + i || text[i] < '0' || text[i] > '9')
                break;
            int id = drdb_number(c, r, (int)n);
            o += (size_t)sprintf(out + o, "%ld", id ? (long)id : n);
            i = (size_t)(end - text);
            if (kw == 6 || text[i] != ' ' || text[i + 1] < '0' ||
                text[i + 1] > '9')
                break;
            out[o++] = text[i++];
        }
    }
    out[o] = '\0';
    return out;
}

void con_stop_end(struct con *c, struct con_rank *k)
{
    struct con_stop *s = &k->stop;
    if (!s->capture || !k->gdb || k->state == CON_RUNNING ||
        k->state == CON_LOST)
        return;
    /* A breakpoint's commands run once GDB said it stopped (a `silent`
     * one's stop names no breakpoint): what they print comes before
     * GDB's answer to the next command. */
    for (int i = 0; i < c->nbpts; i++)
        if (c->bpts[i].commands && c->bpts[i].gdbno &&
            c->bpts[i].gdbno[k->rank]) {
            struct mi_reply rep;
            mi_gdb_exec_sync(k->gdb, "-data-evaluate-expression 0", &rep,
                             10000);
            mi_reply_release(&rep);
            break;
        }
    /* A `silent` breakpoint's stop says nowhere: asked */
    if (k->state == CON_STOPPED && !s->frame[0]) {
        struct mi_reply rep;
        if (mi_gdb_exec_sync(k->gdb, "-stack-info-frame", &rep, 10000) == 0) {
            char reason[sizeof s->reason];
            snprintf(reason, sizeof reason, "%s", s->reason);
            con_where_set(k, rep.record);
            con_stop_keep(k, rep.record);
            snprintf(s->reason, sizeof s->reason, "%s", reason);
        }
        mi_reply_release(&rep);
    }
    /* MI says a watchpoint left its scope only in its record: GDB's words
     * for it, as its CLI prints them */
    if (!strcmp(s->reason, "watchpoint-scope") && k->tbpt_hit &&
        (!s->text || !strstr(s->text, "deleted because"))) {
        const char *at = s->text && !strncmp(s->text, "Continuing.\n", 12)
                             ? s->text + 12 : s->text ? s->text : "";
        char *t = NULL;
        if (asprintf(&t, "%.*s\nWatchpoint %d deleted because the program "
                     "has left the block in\nwhich its expression is "
                     "valid.\n%s", (int)(at - (s->text ? s->text : "")),
                     s->text ? s->text : "", k->tbpt_hit, at) >= 0) {
            free(s->text);
            s->text = t;
            s->len = strlen(t);
            s->cap = s->len + 1;
        }
    }
    /* The catchpoint on exit_group is drdb's (a rank with checkpoints
     * stops before it exits): said in drdb's words, not as GDB's
     * "Catchpoint 6 (call to syscall exit_group), ... in _exit ()" */
    const char *cp = s->text ? strstr(s->text, "Catchpoint ") : NULL;
    if (!strcmp(s->reason, "syscall-entry") && cp &&
        strstr(cp, "syscall exit_group") && (cp == s->text || cp[-1] == '\n')) {
        char *t = NULL;
        if (asprintf(&t, "%.*sThe program is %s.\n", (int)(cp - s->text),
                     s->text, k->reason) >= 0) {
            free(s->text);
            s->text = t;
            s->len = strlen(t);
            s->cap = s->len + 1;
        }
    }
    s->capture = 0;
    if (s->len && !s->numbered) {
        char *t = con_renumber(c, k->rank, s->text);
        if (t) {
            free(s->text);
            s->text = t;
            s->len = strlen(t);
            s->cap = s->len + 1;
        }
    }
    s->numbered = 1;
}

/* Rank K stopped at a temporary breakpoint, or a watchpoint left its
 * scope: its GDB deleted it, and so is it for that rank in the session
 * (a re-run does not get it again). */
void con_stop_forget(struct con *c, struct con_rank *k)
{
    for (int i = 0; i < c->nbpts; i++) {
        struct con_bpt *b = &c->bpts[i];
        if (b->gdbno[k->rank] != k->tbpt_hit)
            continue;
        b->gdbno[k->rank] = 0; /* (GDB's is gone) */
        b->all = 0;
        con_bpt_drop(c, b, k->rank);
        break;
    }
    k->tbpt_hit = 0;
}

char *con_stop_report(const struct con *c, const struct con_rank *k)
{
    const struct con_stop *s = &k->stop;
    if (k->at_event || !s->len ||
        (k->state != CON_STOPPED && k->state != CON_EXITED))
        return NULL;
    char *t = s->numbered ? strdup(s->text)
                          : con_renumber(c, k->rank, s->text);
    /* GDB's report starts with a blank line before "Breakpoint 1, ...":
     * kept, as GDB shows it; the last newline is the printer's. */
    size_t n = t ? strlen(t) : 0;
    while (n && t[n - 1] == '\n')
        t[--n] = '\0';
    return t;
}
