/*
 * A console session kept on its hosts (`drdb console --keep`, `drdb
 * attach HOST`; docs/remote.md, "Keeping a session"): the session note
 * each host's kept session holds (what the console needs to rebuild its
 * state), written again whenever it changes, and a session adopted from
 * it: the kept GDBs driven as the ranks' GDBs, each rank's state asked of
 * its GDB, the breakpoint table restored.
 *
 * The note, version 2: lines "WORD ARGS"; TEXT, and fields after the
 * first tab of a line, are free text with '\\', tab and newline escaped as
 * \\, \t, \n.
 *
 *   drdb-console-note 2
 *   keep SECONDS
 *   run [HOST:]DIR                 the run as given
 *   opt NAME\tARG                  each --also / --hosts as given
 *   exe TEXT                       the program GDB loads
 *   args TEXT                      its arguments (0x1f between them)
 *   program TEXT                   -- PROGRAM, when given
 *   debugdir TEXT                  --debug-file-directory
 *   start TRUST IN_PLACE WIDTH     --trust, --write-in-place, set width
 *   session HOST ID                each host's kept session
 *   focus SET
 *   next BPT DISP                  the next drdb numbers
 *   set NAME SET                   each defset
 *   bpt ID TEMP WATCH ENABLED ALL SET R:GDBNO,...|-\tLOC\tCOND
 *   disp ID ALL SET\tFMT\tEXPR
 *   shadow R PID STATUS\tDIR       rank R's shadow on its host (STATUS -1:
 *                                  running), its files in DIR there
 *   ckext R ID AT                  a checkpoint `checkpoint` took (AT: at
 *                                  an event, not a line)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "con.h"
#include "drdb-stub.h"
#include "fe.h"
#include "remote.h"
#include "util.h"

/* Version 2 adds how the ranks' GDBs start (the program, -- PROGRAM,
 * --trust, --write-in-place, --debug-file-directory, set width), the
 * ranks' shadows and checkpoint marks; a version 1 note is read as one
 * without them. */
#define NOTE_MAGIC "drdb-console-note 2"
#define NOTE_MAGIC_1 "drdb-console-note 1"

/* ---- writing ------------------------------------------------------------- */

static void put_text(FILE *f, const char *s)
{
    for (; *s; s++)
        if (*s == '\\' || *s == '\t' || *s == '\n')
            fprintf(f, "\\%c", *s == '\t' ? 't' : *s == '\n' ? 'n' : '\\');
        else
            fputc(*s, f);
}

static const char *set_text(const struct rankset *s, char *buf, size_t len)
{
    return rs_format(s, buf, len);
}

char *con_keep_note(const struct con *c)
{
    char *text = NULL, buf[8192];
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return NULL;
    fprintf(f, NOTE_MAGIC "\nkeep %d\n%s", c->keep_s,
            c->keep_spec ? c->keep_spec : "");
    /* how a rank's GDB starts: what replay, restart and rollback run */
    fputs("exe ", f);
    put_text(f, c->exe);
    fputs("\nargs ", f);
    put_text(f, c->args);
    if (c->program) {
        fputs("\nprogram ", f);
        put_text(f, c->program);
    }
    fputs("\ndebugdir ", f);
    put_text(f, c->debug_dir);
    fprintf(f, "\nstart %d %d %lld\n", c->trust, c->in_place, c->width);
    for (int h = 0; h < c->nhosts; h++)
        fprintf(f, "session %s %s\n", c->hosts[h].name,
                remote_session(c->hosts[h].conn));
    fprintf(f, "focus %s\nnext %d %d\n", set_text(&c->focus, buf, sizeof buf),
            c->next_bpt, c->next_disp);
    for (int i = 0; i < c->nsets; i++)
        fprintf(f, "set %s %s\n", c->sets[i].name,
                set_text(&c->sets[i].set, buf, sizeof buf));
    for (int i = 0; i < c->nbpts; i++) {
        const struct con_bpt *b = &c->bpts[i];
        fprintf(f, "bpt %d %d %d %d %d %s ", b->id, b->temp, b->watch,
                b->enabled, b->all, set_text(&b->set, buf, sizeof buf));
        int any = 0;
        for (int r = 0; r < c->nranks; r++)
            if (b->gdbno[r])
                fprintf(f, "%s%d:%d", any++ ? "," : "", r, b->gdbno[r]);
        fputs(any ? "\t" : "-\t", f);
        put_text(f, b->loc);
        fputc('\t', f);
        put_text(f, b->cond);
        fputc('\n', f);
    }
    for (int r = 0; r < c->nranks; r++) {
        const struct con_ckpt_rank *q = c->ranks[r]->ck;
        if (q && q->shadow_dir[0]) {
            fprintf(f, "shadow %d %d %d\t", r, (int)q->shadow,
                    q->shadow_status);
            put_text(f, q->shadow_dir);
            fputc('\n', f);
        }
        for (size_t i = 0; q && i < q->next; i++)
            fprintf(f, "ckext %d %ld %d\n", r, q->ext[i].id,
                    q->ext[i].at_event);
    }
    for (int i = 0; i < c->ndisps; i++) {
        const struct con_display *d = &c->disps[i];
        fprintf(f, "disp %d %d %s\t", d->id, d->all,
                set_text(&d->set, buf, sizeof buf));
        put_text(f, d->fmt);
        fputc('\t', f);
        put_text(f, d->expr);
        fputc('\n', f);
    }
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

void con_keep_update(struct con *c)
{
    char err[1200];
    if (c->keep_s <= 0)
        return;
    char *note = con_keep_note(c);
    if (!note || (c->keep_sent && strcmp(note, c->keep_sent) == 0)) {
        free(note);
        return;
    }
    if (strlen(note) > 60000) { /* WIRE_MAX_NOTE, with room */
        fprintf(stderr, "drdb: the session note is too long to keep (too "
                "many breakpoints): drdb attach would not see the latest\n");
        free(note);
        return;
    }
    for (int h = 0; h < c->nhosts; h++) {
        struct con_host *x = &c->hosts[h];
        if (!x->lost && !remote_lost(x->conn) &&
            remote_session(x->conn)[0] &&
            remote_keep(x->conn, c->keep_s, note, err, sizeof err) < 0)
            fprintf(stderr, "drdb: %s\n", err);
    }
    free(c->keep_sent);
    c->keep_sent = note;
}

int con_keep_start(struct con *c, int keep_s, const char *spec, FILE *out)
{
    if (!c->nhosts) {
        fprintf(stderr, "drdb: --keep is for ranks on hosts "
                "(HOST:RUNDIR, --also, --hosts): this run has none\n");
        return -1;
    }
    c->keep_s = keep_s;
    if (!(c->keep_spec = strdup(spec)))
        return -1;
    for (int h = 0; h < c->nhosts; h++) {
        const char *id = remote_session(c->hosts[h].conn);
        if (!id[0]) {
            fprintf(stderr, "drdb: %s: the session is not kept there\n",
                    c->hosts[h].name);
            return -1;
        }
        fprintf(out, "  kept on %s as session %s: drdb attach %s %s\n",
                c->hosts[h].name, id, c->hosts[h].name, id);
    }
    con_keep_update(c);
    return 0;
}

void con_keep_end(struct con *c)
{
    char err[1200];
    for (int h = 0; c->keep_s > 0 && h < c->nhosts; h++) {
        struct con_host *x = &c->hosts[h];
        if (!x->lost && !remote_lost(x->conn) &&
            remote_session(x->conn)[0] &&
            remote_keep(x->conn, 0, NULL, err, sizeof err) < 0)
            fprintf(stderr, "drdb: %s\n", err);
    }
    free(c->keep_spec);
    free(c->keep_sent);
    c->keep_spec = c->keep_sent = NULL;
    c->keep_s = 0;
}

/* ---- reading ------------------------------------------------------------- */

/* The free text at S (to a tab or the line's end) into OUT, unescaped;
 * returns where it ended. */
static const char *get_text(const char *s, char *out, size_t len)
{
    size_t n = 0;
    for (; *s && *s != '\t' && *s != '\n'; s++) {
        char ch = *s;
        if (ch == '\\' && s[1]) {
            s++;
            ch = *s == 't' ? '\t' : *s == 'n' ? '\n' : *s;
        }
        if (n + 1 < len)
            out[n++] = ch;
    }
    out[n] = '\0';
    return s;
}

/* The note's line that starts with WORD and a space after FROM (NULL: the
 * first): its rest, or NULL. */
static const char *next_line(const char *note, const char *from,
                             const char *word)
{
    size_t wl = strlen(word);
    const char *p = from ? strchr(from, '\n') : note - 1;
    for (; p; p = strchr(p + 1, '\n'))
        if (strncmp(p + 1, word, wl) == 0 && p[1 + wl] == ' ')
            return p + 1 + wl + 1;
    return NULL;
}

static int parse_set(struct con *c, const char *text, struct rankset *out)
{
    int at;
    const char *why;
    size_t len = strcspn(text, " \t\n");
    if (rs_init(out, c->nranks) < 0)
        return -1;
    if (len == 4 && strncmp(text, "none", 4) == 0)
        return 0;
    return rs_parse(text, len, out, NULL, NULL, &at, &why);
}

int con_keep_note_run(const char *note, struct fe_run_opts *o, char *dir,
                      size_t dirlen, char *err, size_t errlen)
{
    const char *p;
    if ((strncmp(note, NOTE_MAGIC "\n", strlen(NOTE_MAGIC) + 1) != 0 &&
         strncmp(note, NOTE_MAGIC_1 "\n", strlen(NOTE_MAGIC_1) + 1) != 0) ||
        !(p = next_line(note, NULL, "run"))) {
        snprintf(err, errlen, "the session's note is not a console's of "
                 "this drdb (version 1 or 2): end it with drdb attach --end");
        return -1;
    }
    get_text(p, dir, dirlen);
    for (p = next_line(note, NULL, "opt"); p; p = next_line(note, p, "opt")) {
        char name[64], arg[4096];
        p = get_text(p, name, sizeof name);
        get_text(*p == '\t' ? p + 1 : p, arg, sizeof arg);
        char *keep = strdup(arg); /* the options keep pointers */
        if (!keep || fe_run_opt(o, name, keep) <= 0) {
            snprintf(err, errlen, "the session's note has a bad option "
                     "'%s'", name);
            return -1;
        }
    }
    return 0;
}

/* The note's session id for host NAME, into ID. */
static int note_session(const char *note, const char *name, char *id,
                        size_t len)
{
    size_t nl = strlen(name);
    for (const char *p = next_line(note, NULL, "session"); p;
         p = next_line(note, p, "session"))
        if (strncmp(p, name, nl) == 0 && p[nl] == ' ') {
            snprintf(id, len, "%.*s", (int)strcspn(p + nl + 1, " \n"),
                     p + nl + 1);
            return 0;
        }
    return -1;
}

/* How the note's GDBs started, for C's next ones (a version 1 note has
 * none of it: the recorded program, as it was then). */
static void restore_start(struct con *c, const char *note)
{
    const char *p;
    if ((p = next_line(note, NULL, "exe")))
        get_text(p, c->exe, sizeof c->exe);
    if ((p = next_line(note, NULL, "args")))
        get_text(p, c->args, sizeof c->args);
    if ((p = next_line(note, NULL, "program"))) {
        get_text(p, c->program_kept, sizeof c->program_kept);
        c->program = c->program_kept;
    }
    if ((p = next_line(note, NULL, "debugdir")))
        get_text(p, c->debug_dir, sizeof c->debug_dir);
    int trust, in_place;
    long long width;
    if ((p = next_line(note, NULL, "start")) &&
        sscanf(p, "%d %d %lld", &trust, &in_place, &width) == 3) {
        c->trust |= trust;
        c->in_place = in_place;
        c->width = width;
    }
}

/* The note's shadows and `checkpoint` marks into C's ranks: the kept
 * agent still has the shadows (its processes) and their files. */
static int restore_ckpts(struct con *c, const char *note)
{
    const char *p;
    for (p = next_line(note, NULL, "shadow"); p;
         p = next_line(note, p, "shadow")) {
        int r, pid, st, at = 0;
        struct con_ckpt_rank *q;
        if (sscanf(p, "%d %d %d%n", &r, &pid, &st, &at) < 3 || r < 0 ||
            r >= c->nranks)
            continue;
        if (!(q = con_ckpt_state(c->ranks[r])))
            return -1;
        q->shadow = pid;
        q->shadow_status = st;
        get_text(p[at] == '\t' ? p + at + 1 : p + at, q->shadow_dir,
                 sizeof q->shadow_dir);
    }
    for (p = next_line(note, NULL, "ckext"); p;
         p = next_line(note, p, "ckext")) {
        int r, at;
        long id;
        struct con_ckpt_rank *q;
        if (sscanf(p, "%d %ld %d", &r, &id, &at) != 3 || r < 0 ||
            r >= c->nranks)
            continue;
        if (!(q = con_ckpt_state(c->ranks[r])) ||
            util_grow(&q->ext, &q->cap, q->next + 1, sizeof *q->ext) < 0)
            return -1;
        q->ext[q->next++] = (struct con_ckext){id, at};
    }
    return 0;
}

/* The note's sets, breakpoints and displays into C's tables. */
static int restore_tables(struct con *c, const char *note)
{
    const char *p;
    restore_start(c, note);
    if (restore_ckpts(c, note) < 0)
        return -1;
    if ((p = next_line(note, NULL, "keep")))
        c->keep_s = atoi(p);
    if ((p = next_line(note, NULL, "focus"))) {
        struct rankset s;
        if (parse_set(c, p, &s) == 0 && rs_count(&s))
            rs_copy(&c->focus, &s);
        rs_release(&s);
    }
    if ((p = next_line(note, NULL, "next")))
        sscanf(p, "%d %d", &c->next_bpt, &c->next_disp);
    for (p = next_line(note, NULL, "set"); p; p = next_line(note, p, "set")) {
        char name[64];
        struct rankset s;
        size_t nl = strcspn(p, " \n");
        snprintf(name, sizeof name, "%.*s", (int)nl, p);
        if (p[nl] == ' ' && parse_set(c, p + nl + 1, &s) == 0)
            con_define_set(c, name, &s);
        rs_release(&s);
    }
    for (p = next_line(note, NULL, "bpt"); p; p = next_line(note, p, "bpt")) {
        struct con_bpt b = {0};
        int at = 0;
        if (sscanf(p, "%d %d %d %d %d %n", &b.id, &b.temp, &b.watch,
                   &b.enabled, &b.all, &at) < 5 || !at)
            continue;
        const char *q = p + at;
        if (util_grow(&c->bpts, &c->cap_bpts, (size_t)c->nbpts + 1,
                      sizeof *c->bpts) < 0 ||
            !(b.gdbno = calloc((size_t)c->nranks, sizeof *b.gdbno)) ||
            parse_set(c, q, &b.set) < 0) {
            free(b.gdbno);
            return -1;
        }
        q += strcspn(q, " \n");
        for (q += *q == ' '; *q && *q != '\t' && *q != '\n';) {
            int r, no, used = 0;
            if (sscanf(q, "%d:%d%n", &r, &no, &used) == 2 && r >= 0 &&
                r < c->nranks)
                b.gdbno[r] = no;
            q += used ? used : 1;
            q += *q == ',';
        }
        q = get_text(*q == '\t' ? q + 1 : q, b.loc, sizeof b.loc);
        get_text(*q == '\t' ? q + 1 : q, b.cond, sizeof b.cond);
        c->bpts[c->nbpts++] = b;
    }
    for (p = next_line(note, NULL, "disp"); p;
         p = next_line(note, p, "disp")) {
        struct con_display d = {0};
        int at = 0;
        if (sscanf(p, "%d %d %n", &d.id, &d.all, &at) < 2 || !at ||
            util_grow(&c->disps, &c->cap_disps, (size_t)c->ndisps + 1,
                      sizeof *c->disps) < 0 ||
            parse_set(c, p + at, &d.set) < 0)
            continue;
        const char *q = p + at + strcspn(p + at, "\t\n");
        q = get_text(*q == '\t' ? q + 1 : q, d.fmt, sizeof d.fmt);
        get_text(*q == '\t' ? q + 1 : q, d.expr, sizeof d.expr);
        c->disps[c->ndisps++] = d;
    }
    return 0;
}

/* ---- adopting ------------------------------------------------------------ */

/* Rank K's state, asked of its adopted GDB: where it stands, as after a
 * stop. */
static void adopt_state(struct con_rank *k)
{
    struct mi_reply rep;
    int st = mi_gdb_exec_sync(k->gdb, "-stack-info-frame", &rep, 30000);
    k->last_event = -1;
    if (st == 0) {
        const char *func = mi_get_str(rep.record, "frame.func");
        con_where_set(k, rep.record);
        con_stop_keep(k, rep.record);
        k->state = func && strcmp(func, DRDB_SYM_DIVERGENCE_HOOK) == 0
                       ? CON_DIVERGED : CON_STOPPED;
        k->at_event = func && strcmp(func, DRDB_SYM_STOP_HOOK) == 0;
        snprintf(k->reason, sizeof k->reason, "attached");
    } else if (rep.message && strstr(rep.message, "running")) {
        k->state = CON_RUNNING;
    } else {
        k->state = CON_EXITED;
        snprintf(k->reason, sizeof k->reason, "its program ended while "
                 "detached");
    }
    mi_reply_release(&rep);
}

/* The GDB numbers the note gave rank R's breakpoints, checked against
 * its GDB's table: one it does not have (its command was in flight when
 * the connection broke) is inserted again. */
static void adopt_bpts(struct con *c, int r)
{
    struct mi_reply rep;
    if (mi_gdb_exec_sync(c->ranks[r]->gdb, "-break-list", &rep, 30000) < 0)
        return;
    const struct mi_value *body = mi_get(rep.record, "BreakpointTable.body");
    for (int i = 0; i < c->nbpts; i++) {
        struct con_bpt *b = &c->bpts[i];
        if (!rs_has(&b->set, r))
            continue;
        int found = 0;
        for (const struct mi_value *v = body ? body->first : NULL;
             v && !found; v = v->next) {
            const struct mi_value *no = mi_value_get(v, "number");
            found = no && no->str && atoi(no->str) == b->gdbno[r];
        }
        char *err = NULL;
        if (!found && con_bpt_insert(c, b, r, &err) < 0)
            fprintf(stderr, "drdb: rank %d: breakpoint %d could not be set "
                    "again: %s\n", r, b->id, err ? err : "?");
        free(err);
    }
    mi_reply_release(&rep);
}

int con_keep_adopt(struct con *c, const char *note, const char *host,
                   const char *id, int *adopted)
{
    char err[1200], nid[128];
    *adopted = 0;
    /* The kept GDBs may still answer the old console's last commands:
     * their tokens counted from 1 (or from its own attach's base, an
     * earlier time), ours from now's seconds times 2^24. */
    c->first_token = (uint64_t)time(NULL) << 24;
    if (restore_tables(c, note) < 0) {
        fprintf(stderr, "drdb: out of memory\n");
        return -1;
    }
    if (!(c->keep_spec = strdup("")))
        return -1;
    /* the note's "run" and "opt" lines, kept as they were */
    for (const char *p = note; (p = strchr(p, '\n')) && p[1]; p++)
        if (strncmp(p + 1, "run ", 4) == 0 || strncmp(p + 1, "opt ", 4) == 0) {
            size_t len = strcspn(p + 1, "\n") + 1, old = strlen(c->keep_spec);
            char *s = realloc(c->keep_spec, old + len + 1);
            if (!s)
                return -1;
            snprintf(s + old, len + 1, "%s", p + 1);
            c->keep_spec = s;
        }
    for (int h = 0; h < c->nhosts; h++) {
        struct con_host *x = &c->hosts[h];
        const char *sid = strcmp(x->name, host) == 0 && id ? id
                          : note_session(note, x->name, nid, sizeof nid) == 0
                              ? nid : NULL;
        struct remote_opts o = *c->ropts;
        struct remote *r;
        struct remote_proc **procs;
        size_t n;
        char *their;
        o.host = x->name;
        o.keep_s = 0;
        if (!sid || remote_attach(&r, &o, sid, &procs, &n, &their, err,
                                  sizeof err) < 0) {
            fprintf(stderr, "drdb: %s: %s\n", x->name,
                    sid ? err : "no kept session in the note");
            continue;
        }
        free(their);
        x->logs = x->conn; /* the logs' reads go on there */
        x->conn = r;
        for (size_t i = 0; i < n; i++) {
            struct remote_proc *p = procs[i];
            int rank = -1;
            if (!p->label || sscanf(p->label, "rank %d", &rank) != 1 ||
                rank < 0 || rank >= c->nranks ||
                c->ranks[rank]->host != h || c->ranks[rank]->gdb)
                continue; /* not a rank's GDB: it stays R's */
            struct con_rank *k = c->ranks[rank];
            if (con_host_drive(c, k, p) < 0)
                continue;
            adopt_state(k);
            adopt_bpts(c, rank);
            ++*adopted;
        }
        free(procs);
    }
    con_keep_update(c);
    return 0;
}
