/*
 * Stops and frames in GDB's words: a frame as GDB's frame line, and what
 * the console says when a rank stops after next, step, until, advance,
 * finish or at a watchpoint (the source line, the value returned, the old
 * and new values), from the fields of GDB's *stopped record.
 */
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
static void source_line(const char *path, long line, char *out, size_t len)
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

void con_stop_keep(struct con_rank *k, const struct mi_record *rec)
{
    struct con_stop *s = &k->stop;
    const struct mi_value *frame = mi_get(rec, "frame");
    const char *func = mi_get_str(rec, "frame.func");
    const char *reason = mi_get_str(rec, "reason");
    long long line = 0;
    snprintf(s->till, sizeof s->till, "%s", s->run_till);
    s->run_till[0] = '\0';
    s->new_func = strcmp(s->func, func ? func : "") != 0;
    snprintf(s->func, sizeof s->func, "%s", func ? func : "");
    snprintf(s->reason, sizeof s->reason, "%s", reason ? reason : "");
    char *ft = frame ? con_frame_text(frame, NULL) : NULL;
    snprintf(s->frame, sizeof s->frame, "%s", ft ? ft : "");
    free(ft);
    mi_get_int(rec, "frame.line", &line);
    source_line(mi_get_str(rec, "frame.fullname"), (long)line, s->source,
                sizeof s->source);
    /* the watchpoint: wpt, hw-awpt (access) or hw-rwpt (read) */
    static const char *const wpt[] = {"wpt", "hw-awpt", "hw-rwpt"};
    const struct mi_value *w = NULL;
    for (size_t i = 0; !w && i < sizeof wpt / sizeof wpt[0]; i++)
        w = mi_get(rec, wpt[i]);
    const struct mi_value *no = w ? mi_value_get(w, "number") : NULL;
    const struct mi_value *exp = w ? mi_value_get(w, "exp") : NULL;
    s->gdbno = no && no->str ? atoi(no->str) : 0;
    snprintf(s->exp, sizeof s->exp, "%s", exp && exp->str ? exp->str : "");
    const char *old = mi_get_str(rec, "value.old");
    const char *nv = mi_get_str(rec, "value.new");
    const char *v = mi_get_str(rec, "value.value");
    snprintf(s->old_val, sizeof s->old_val, "%s", old ? old : "");
    snprintf(s->new_val, sizeof s->new_val, "%s", nv ? nv : v ? v : "");
    const char *var = mi_get_str(rec, "gdb-result-var");
    const char *ret = mi_get_str(rec, "return-value");
    if (var && ret)
        snprintf(s->value, sizeof s->value, "%s = %s", var, ret);
    else
        s->value[0] = '\0';
}

/* The drdb number of rank K's GDB watchpoint GDBNO, or GDBNO. */
static int drdb_number(const struct con *c, const struct con_rank *k,
                       int gdbno)
{
    for (int i = 0; i < c->nbpts; i++)
        if (c->bpts[i].gdbno && c->bpts[i].gdbno[k->rank] == gdbno)
            return c->bpts[i].id;
    return gdbno;
}

char *con_stop_report(const struct con *c, const struct con_rank *k)
{
    const struct con_stop *s = &k->stop;
    const char *r = s->reason;
    char head[2048] = "";
    int stepped = !strcmp(r, "end-stepping-range") ||
                  !strcmp(r, "location-reached");
    /* (Not after a refused command or an event: the rank's reason is no
     * longer what its stop said.) */
    if (k->at_event || k->state != CON_STOPPED || !s->frame[0] ||
        strcmp(k->reason, s->reason) != 0)
        return NULL;
    if (!strcmp(r, "watchpoint-trigger") ||
        !strcmp(r, "access-watchpoint-trigger"))
        snprintf(head, sizeof head, "watchpoint %d: %s\n%s%s%s"
                 "New value = %s\n", drdb_number(c, k, s->gdbno), s->exp,
                 s->old_val[0] ? "Old value = " : "", s->old_val,
                 s->old_val[0] ? "\n" : "", s->new_val);
    else if (!strcmp(r, "read-watchpoint-trigger"))
        snprintf(head, sizeof head, "watchpoint %d: %s\nValue = %s\n",
                 drdb_number(c, k, s->gdbno), s->exp, s->new_val);
    else if (!strcmp(r, "watchpoint-scope"))
        snprintf(head, sizeof head, "watchpoint %d deleted because the "
                 "program has left the block in\nwhich its expression is "
                 "valid.\n", drdb_number(c, k, s->gdbno));
    else if (!stepped && strcmp(r, "function-finished") != 0 && r[0])
        return NULL; /* a breakpoint, a signal: the one-line where */
    /* (GDB gives no reason when finish leaves a function without debug
     * information: reported as a finish, without a value.) */
    /* After a step in the same function, only the line (as GDB). */
    int frame_too = !stepped || s->new_func || !s->source[0];
    int finished = !strcmp(r, "function-finished") || !r[0];
    char *t = NULL;
    if (finished && s->till[0])
        snprintf(head, sizeof head, "Run till exit from %s\n", s->till);
    asprintf(&t, "%s%s%s%s%s%s", head, frame_too ? s->frame : "",
             frame_too && s->source[0] ? "\n" : "", s->source,
             s->value[0] ? "\nValue returned is " : "", s->value);
    return t;
}
