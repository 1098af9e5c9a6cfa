/*
 * The stub client: what the console asks the replay stub, through each
 * rank's GDB (the names are the stub protocol's, replayer/drdb-stub.h):
 * the current event, stopping before an event, the program's frame above
 * the stub's, the divergence report, the process's memory, and jumps to
 * the checkpoint library's trampolines; and the MI command with one quoted
 * argument (an expression, a location) that it and the commands build.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "con.h"
#include "drdb-stub.h"
#include "events.h"

char *con_mi_arg(const char *op, const char *arg)
{
    struct mi_cmd mc;
    mi_cmd_init(&mc);
    mi_cmd_op(&mc, op);
    if (arg && *arg)
        mi_cmd_arg(&mc, arg);
    char *s = mi_cmd_str(&mc) ? strdup(mi_cmd_str(&mc)) : NULL;
    mi_cmd_release(&mc);
    return s;
}

char *con_mi_console(const char *cli)
{
    struct mi_cmd mc;
    mi_cmd_init(&mc);
    mi_cmd_console(&mc, cli);
    char *s = mi_cmd_str(&mc) ? strdup(mi_cmd_str(&mc)) : NULL;
    mi_cmd_release(&mc);
    return s;
}

long long con_eval_int(struct con *c, int r, const char *expr, int *ok)
{
    char *mi = con_mi_arg("-data-evaluate-expression", expr);
    struct mi_reply rep;
    long long v = 0;
    *ok = mi && mi_gdb_exec_sync(c->ranks[r]->gdb, mi, &rep, 10000) == 0 &&
          mi_get_int(rep.record, "value", &v) == 0;
    if (mi)
        mi_reply_release(&rep);
    free(mi);
    /* status shows it while the rank runs */
    if (*ok && strcmp(expr, DRDB_SYM_EVENT) == 0)
        c->ranks[r]->last_event = v;
    return v;
}

void con_stub_failure(struct con *c, struct con_rank *k)
{
    if (k->state != CON_DIVERGED || !k->gdb ||
        strncmp(k->reason, "rank ", 5) == 0)
        return;
    con_stub_divergence(k);
    con_select_user_frame(c, k);
}

long long con_current_event(struct con *c, int r)
{
    struct con_pos p;
    if (con_position(c, r, &p) < 0 || p.kind == CON_POS_NONE)
        return -1;
    return (long long)p.n;
}

int con_position(struct con *c, int r, struct con_pos *p)
{
    struct con_rank *k = c->ranks[r];
    p->kind = CON_POS_NONE;
    p->n = 0;
    if (k->state == CON_DEFERRED) { /* it starts before its event 0 */
        p->kind = CON_POS_BEFORE;
        return 0;
    }
    if (k->state == CON_EXITED) {
        p->kind = CON_POS_END;
        p->n = c->nevents[r];
        return 0;
    }
    if (!k->gdb || !con_rank_halted(k))
        return 0;
    int ok;
    long long n = con_eval_int(c, r, DRDB_SYM_EVENT, &ok);
    if (!ok)
        return -1;
    /* In the stop hook or the divergence hook, the call of event N has
     * not begun; during a call, drdb_current_fn names it. */
    long long fn = k->at_event || k->state != CON_STOPPED
                       ? 0 : con_eval_int(c, r, DRDB_SYM_CURRENT_FN, &ok);
    if (fn > 0) {
        long long in = con_eval_int(c, r, DRDB_SYM_CALL_EVENT, &ok);
        if (ok && in >= 0) {
            p->kind = CON_POS_INSIDE;
            p->n = (uint64_t)in;
            return 0;
        }
    }
    p->kind = k->at_event || k->state != CON_STOPPED ? CON_POS_BEFORE
                                                     : CON_POS_BETWEEN;
    p->n = (uint64_t)n;
    return 0;
}

const char *con_pos_text(struct con *c, int r, const struct con_pos *p,
                         char *buf, size_t len)
{
    unsigned long long n = p->n;
    switch (p->kind) {
    case CON_POS_BEFORE:
    case CON_POS_INSIDE:
        if (n < c->nevents[r])
            snprintf(buf, len, "%s event %llu (%s)",
                     p->kind == CON_POS_BEFORE ? "before" : "inside", n,
                     log_func_name(ev_fn(c->ev, r, n)));
        else
            snprintf(buf, len, "at the end of its log (%llu events)", n);
        break;
    case CON_POS_BETWEEN:
        if (n == 0)
            snprintf(buf, len, "before event 0");
        else
            snprintf(buf, len, "after event %llu (%s)", n - 1,
                     log_func_name(ev_fn(c->ev, r, n - 1)));
        break;
    case CON_POS_END:
        snprintf(buf, len, "after its last event (%llu)", n);
        break;
    default:
        snprintf(buf, len, "%s", "");
    }
    return buf;
}

void con_stub_stop_at(struct con *c, int r, uint64_t n)
{
    char expr[64];
    int ok;
    snprintf(expr, sizeof expr, DRDB_SYM_STOP_EVENT " = %llu",
             (unsigned long long)n);
    con_eval_int(c, r, expr, &ok);
}

void con_stub_no_stop(struct con *c, int r)
{
    int ok;
    con_eval_int(c, r, DRDB_SYM_STOP_EVENT " = " DRDB_NO_EVENT, &ok);
}

/* ---- the program's frame ------------------------------------------------- */

/*
 * Frames of the replay stub (and of MPICH's Fortran bindings) are not the
 * program's: a frame is the stub's when its code is the stub library's
 * (GDB's "from": the stub is built without debug information for its
 * internals, replayer/meson.build), when its source file lies in the
 * directory of drdb_stop_hook's (replayer/) or in the stub's build
 * directory (the generated rpl_stubs.c, with -Dstub_debug=true), or,
 * without debug information, when its function is an MPI entry point.
 */
int con_stub_frame(const struct con *c, const char *stubsrc,
                   const struct mi_value *fr)
{
    const struct mi_value *full = mi_value_get(fr, "fullname");
    const struct mi_value *fn = mi_value_get(fr, "func");
    const struct mi_value *from = mi_value_get(fr, "from");
    if (from && from->str) {
        const char *base = strrchr(from->str, '/');
        base = base ? base + 1 : from->str;
        if (strcmp(base, DRDB_STUB_LIB) == 0 ||
            strcmp(base, "libdrdb-replay.so") == 0 ||
            (strlen(c->stub) == (size_t)(base - 1 - from->str) &&
             strncmp(from->str, c->stub, strlen(c->stub)) == 0))
            return 1;
    }
    if (full && full->str) {
        const char *slash = strrchr(full->str, '/');
        size_t dl = slash ? (size_t)(slash - full->str) : 0;
        return (stubsrc[0] && strlen(stubsrc) == dl &&
                strncmp(full->str, stubsrc, dl) == 0) ||
               (strlen(c->stub) == dl && strncmp(full->str, c->stub, dl) == 0);
    }
    static const char *const pre[] = {DRDB_SYM_PREFIX, "PMPI_", "MPI_",
                                      "PMPIX_", "MPIX_", "mpi_", "pmpi_"};
    for (size_t i = 0; fn && fn->str && i < sizeof pre / sizeof pre[0]; i++)
        if (strncmp(fn->str, pre[i], strlen(pre[i])) == 0)
            return 1;
    return 0;
}

/* The directory of the stub's sources: that of drdb_stop_hook's frame. */
void con_stub_source_dir(const struct mi_value *stack, char *out, size_t len)
{
    out[0] = '\0';
    for (const struct mi_value *fr = stack ? stack->first : NULL; fr;
         fr = fr->next) {
        const struct mi_value *fn = mi_value_get(fr, "func");
        const struct mi_value *full = mi_value_get(fr, "fullname");
        if (fn && fn->str && full && full->str &&
            strncmp(fn->str, DRDB_SYM_PREFIX, strlen(DRDB_SYM_PREFIX)) == 0) {
            const char *slash = strrchr(full->str, '/');
            if (slash)
                snprintf(out, len, "%.*s", (int)(slash - full->str),
                         full->str);
            return;
        }
    }
}

int con_program_frame(const struct con *c, const char *stubsrc,
                      const struct mi_value *fr)
{
    if (con_stub_frame(c, stubsrc, fr))
        return 0;
    const struct mi_value *line = mi_value_get(fr, "line");
    const struct mi_value *from = mi_value_get(fr, "from");
    if (line && line->str)
        return 1;
    return from && from->str && strncmp(from->str, "/lib/", 5) != 0 &&
           strncmp(from->str, "/usr/lib", 8) != 0 &&
           strncmp(from->str, "/lib64/", 7) != 0;
}

/* Rank K's frames: the program's frame a stop inside the stub belongs to
 * (its level, its frame line and source line into K), or -1 when the
 * stop is in the program's own code (its innermost frame is the
 * program's, or a callback the stub runs). */
static int user_frame(struct con *c, struct con_rank *k, char *line,
                      size_t len, char *src, size_t srclen)
{
    struct mi_reply rep;
    char stubsrc[1024];
    int level = -1, seen_stub = 0;
    line[0] = src[0] = '\0';
    if (mi_gdb_exec_sync(k->gdb, "-stack-list-frames", &rep, 10000) != 0) {
        mi_reply_release(&rep);
        return -1;
    }
    const struct mi_value *stack = mi_get(rep.record, "stack");
    con_stub_source_dir(stack, stubsrc, sizeof stubsrc);
    for (const struct mi_value *fr = stack ? stack->first : NULL; fr;
         fr = fr->next) {
        int stub = con_stub_frame(c, stubsrc, fr);
        if (!stub && con_program_frame(c, stubsrc, fr)) {
            if (seen_stub) {
                const struct mi_value *lv = mi_value_get(fr, "level");
                level = lv && lv->str ? atoi(lv->str) : 0;
                char *ft = con_frame_text(fr, NULL);
                const struct mi_value *full = mi_value_get(fr, "fullname");
                const struct mi_value *ln = mi_value_get(fr, "line");
                snprintf(line, len, "%s", ft ? ft : "");
                free(ft);
                con_source_line(full ? full->str : NULL,
                                ln && ln->str ? atol(ln->str) : 0, src,
                                srclen);
                snprintf(k->where, sizeof k->where, "%s", line);
            }
            break;
        }
        seen_stub |= stub;
    }
    mi_reply_release(&rep);
    return level;
}

static void select_frame(struct con_rank *k, int level)
{
    char mi[64];
    struct mi_reply rep;
    snprintf(mi, sizeof mi, "-stack-select-frame %d", level);
    mi_gdb_exec_sync(k->gdb, mi, &rep, 10000);
    mi_reply_release(&rep);
}

/* Rank K's program frame selected (its frame line and source line into
 * LINE and SRC, LEN bytes each): 0, or -1 when none was found. */
static int select_user(struct con *c, struct con_rank *k, char *line,
                       char *src, size_t len)
{
    int level = user_frame(c, k, line, len, src, len);
    if (level < 0)
        return -1;
    k->user_level = level;
    k->in_stub = 1;
    select_frame(k, level);
    return 0;
}

void con_select_user_frame(struct con *c, struct con_rank *k)
{
    char line[512], src[512];
    select_user(c, k, line, src, sizeof line);
}

void con_stub_landing(struct con *c, struct con_rank *k)
{
    char line[512], src[512], pos[160];
    k->in_stub = 0;
    if (k->state != CON_STOPPED || k->at_event)
        return;
    /* A breakpoint stops where it was put, an MPI function's entry too
     * (drdb's own, at its hooks, are at_event's or a divergence's). */
    if (!strcmp(k->stop.reason, "breakpoint-hit"))
        return;
    if (select_user(c, k, line, src, sizeof line) < 0)
        return;
    struct con_pos p;
    con_position(c, k->rank, &p);
    con_pos_text(c, k->rank, &p, pos, sizeof pos);
    /* GDB's report up to its frame line (that of the stub's, or of libc's
     * for it), then the program's frame in its place. */
    struct con_stop *s = &k->stop;
    size_t keep = s->len;
    for (const char *l = s->text; l && *l;) {
        const char *nl = strchr(l, '\n');
        const char *f = strncmp(l, "0x", 2) == 0 && strstr(l, " in ")
                            ? strstr(l, " in ") + 4 : l;
        if (s->func[0] && strncmp(f, s->func, strlen(s->func)) == 0 &&
            f[strlen(s->func)] == ' ') {
            keep = (size_t)(l - s->text);
            break;
        }
        l = nl ? nl + 1 : l + strlen(l);
    }
    /* "written by MPI_Recv (event 5), called from main () at f.c:12":
     * the call's event, and the program's frame that made it */
    char *t = NULL;
    const char *verb = strstr(s->reason, "read-watchpoint") ? "read by"
                       : strstr(s->reason, "access-watchpoint") ? "accessed by"
                       : strstr(s->reason, "watchpoint") ? "written by" : "";
    const char *fn = p.n < c->nevents[k->rank]
                         ? log_func_name(ev_fn(c->ev, k->rank, p.n)) : "";
    if (*verb && p.kind == CON_POS_INSIDE)
        snprintf(pos, sizeof pos, "%s %s (event %llu)", verb, fn,
                 (unsigned long long)p.n);
    if (asprintf(&t, "%.*s%s, called from %s%s%s\n", (int)keep,
                 s->text ? s->text : "", pos, line, src[0] ? "\n" : "",
                 src) < 0)
        return;
    free(s->text);
    s->text = t;
    s->len = strlen(t);
    s->cap = s->len + 1;
}

void con_stub_divergence(struct con_rank *k)
{
    struct mi_cmd mc;
    struct mi_reply rep;
    mi_cmd_init(&mc);
    mi_cmd_console(&mc, "printf \"%s\", " DRDB_SYM_DIVERGENCE_MSG);
    if (mi_cmd_str(&mc) &&
        mi_gdb_exec_sync(k->gdb, mi_cmd_str(&mc), &rep, 10000) == 0 &&
        rep.console_len)
        snprintf(k->reason, sizeof k->reason, "%.*s", (int)rep.console_len,
                 rep.console);
    if (mi_cmd_str(&mc))
        mi_reply_release(&rep);
    mi_cmd_release(&mc);
    /* The stub stops here for three reasons; a log that simply ends is
     * where the recorded rank stopped, not a divergence. */
    if (mi_gdb_exec_sync(k->gdb, "-data-evaluate-expression "
                         DRDB_SYM_FAIL_CODE, &rep, 10000) == 0) {
        long long code = 0;
        if (mi_get_int(rep.record, "value", &code) == 0 &&
            code == DRDB_EXIT_LOG_END)
            k->state = CON_LOG_END;
        mi_reply_release(&rep);
    }
}

/* Whether rank K's pc is where a source line starts (GDB's `info line`),
 * *LINE that line's number. */
static int at_line_start(struct con_rank *k, long *line)
{
    struct mi_cmd mc;
    struct mi_reply rep;
    int yes = 0;
    char cli[64];
    snprintf(cli, sizeof cli, "info line *%#llx", k->stop.addr);
    mi_cmd_init(&mc);
    mi_cmd_console(&mc, cli);
    if (mi_cmd_str(&mc) &&
        mi_gdb_exec_sync(k->gdb, mi_cmd_str(&mc), &rep, 10000) == 0 &&
        rep.console) {
        /* Line 9 of "f.c" starts at address 0x11e2 <main+73> and ends
         * at ... */
        const char *at = strstr(rep.console, "starts at address ");
        *line = strncmp(rep.console, "Line ", 5) == 0
                    ? atol(rep.console + 5) : 0;
        yes = at && strtoull(at + 18, NULL, 16) == k->stop.addr;
    }
    mi_reply_release(&rep);
    mi_cmd_release(&mc);
    return yes;
}

int con_stub_leave(struct con *c, const struct rankset *set,
                   const char *verb, struct rankset *done)
{
    struct rankset in;
    int stepping = !strcmp(verb, "next") || !strcmp(verb, "step") ||
                   !strcmp(verb, "until"),
        insn = !strcmp(verb, "stepi") || !strcmp(verb, "nexti");
    rs_init(&in, c->nranks);
    for (int r = 0; r < c->nranks; r++) {
        struct con_rank *k = c->ranks[r];
        if (!rs_has(set, r) || !k->in_stub || k->state != CON_STOPPED ||
            k->user_level < 1)
            continue;
        /* The MPI call the program made, finished: as GDB steps over a
         * function without line information. */
        select_frame(k, k->user_level - 1);
        k->state = CON_RUNNING;
        k->refused = 0;
        con_stop_begin(k);
        if (mi_gdb_send(k->gdb, "-interpreter-exec console finish", 0,
                        con_on_exec_reply, k) < 0)
            k->state = CON_LOST;
        else
            rs_add(&in, r);
    }
    if (!rs_count(&in)) {
        rs_release(&in);
        return 0;
    }
    int rc = con_wait(c, &in, 1);
    for (int r = 0; r < c->nranks; r++) {
        struct con_rank *k = c->ranks[r];
        if (!rs_has(&in, r))
            continue;
        k->at_event = 0;
        k->in_stub = 0;
        struct con_stop *s = &k->stop;
        long line = 0;
        /* (GDB gives no reason when finish leaves a function without
         * debug information, as the MPI call's is.) */
        if (k->state != CON_STOPPED || k->refused ||
            (s->reason[0] && strcmp(s->reason, "function-finished") != 0)) {
            /* It stopped on the way (a breakpoint in a callback, a
             * watchpoint the call's outputs trigger), or ended: that is
             * the command's answer, without finish's first line. */
            const char *nl = s->text ? strchr(s->text, '\n') : NULL;
            if (nl && !strncmp(s->text, "Run till exit", 13))
                memmove(s->text, nl + 1, strlen(nl + 1) + 1),
                    s->len = strlen(s->text);
            rs_add(done, r);
            continue;
        }
        /* Back in the program's frame: the call made, the rest of its
         * line to run. At a line's start (the call was the line's last
         * instruction), next, step and until are done there, as GDB
         * would stop; stepi and nexti, which stepped over the call
         * instruction, are done anyway. */
        /* finish: the MPI call the rank stood in finished is its
         * answer ("Run till exit from #3 ... PMPI_Send () ..."): the
         * program's frame is the outermost one the user sees */
        if (!strcmp(verb, "finish")) {
            rs_add(done, r);
            continue;
        }
        int start = at_line_start(k, &line);
        if (!(stepping && start) && !insn)
            continue;
        char *t = NULL;
        if (start || !line)
            asprintf(&t, "%s", s->source);
        else
            asprintf(&t, "0x%016llx\t%s", s->addr, s->source);
        free(s->text);
        s->text = t;
        s->len = t ? strlen(t) : 0;
        s->cap = s->len + 1;
        rs_add(done, r);
    }
    rs_release(&in);
    return rc;
}

/* ---- memory, jumps, breakpoints ------------------------------------------ */

char *con_stub_read_str(struct con *c, int r, const char *addr, size_t max)
{
    size_t cap = 4096, len = 0;
    char *out = malloc(cap + 1);
    for (size_t off = 0; out && off < max; off += 4096) {
        char mi[256];
        snprintf(mi, sizeof mi, "-data-read-memory-bytes -o %zu %s 4096", off,
                 addr);
        struct mi_reply rep;
        const char *hex = NULL;
        if (mi_gdb_exec_sync(c->ranks[r]->gdb, mi, &rep, 10000) == 0) {
            const struct mi_value *m = mi_get(rep.record, "memory");
            const struct mi_value *ct = m && m->first
                                            ? mi_value_get(m->first, "contents")
                                            : NULL;
            hex = ct ? ct->str : NULL;
        }
        int end = !hex;
        for (const char *h = hex; h && h[0] && h[1]; h += 2) {
            unsigned b;
            sscanf(h, "%2x", &b);
            if (!b) {
                end = 1;
                break;
            }
            if (len == cap) {
                char *n = realloc(out, (cap *= 2) + 1);
                if (!n)
                    break;
                out = n;
            }
            out[len++] = (char)b;
        }
        mi_reply_release(&rep);
        if (end)
            break;
    }
    if (out)
        out[len] = '\0';
    return out;
}

int con_stub_write_str(struct con *c, int r, const char *addr, const char *s)
{
    size_t n = strlen(s) + 1;
    char *mi = malloc(2 * n + strlen(addr) + 64);
    if (!mi)
        return -1;
    int o = sprintf(mi, "-data-write-memory-bytes %s ", addr);
    for (size_t i = 0; i < n; i++)
        o += sprintf(mi + o, "%02x", (unsigned char)s[i]);
    struct mi_reply rep;
    int rc = mi_gdb_exec_sync(c->ranks[r]->gdb, mi, &rep, 10000);
    mi_reply_release(&rep);
    free(mi);
    return rc == 0 ? 0 : -1;
}

void con_stub_jump(struct con *c, int r, const char *symbol)
{
    struct con_rank *k = c->ranks[r];
    if (k->ck && !k->ck->hooks) {
        /* a rollback to a stub's checkpoint ends there */
        struct mi_reply rep;
        mi_gdb_exec_sync(k->gdb, "-break-insert " DRDB_SYM_RESTORED_HOOK,
                         &rep, 10000);
        mi_reply_release(&rep);
        k->ck->hooks = 1;
    }
    char mi[128];
    snprintf(mi, sizeof mi, "-exec-jump %s%s", *symbol == '*' ? "" : "*",
             symbol);
    k->state = CON_RUNNING;
    k->at_event = 0;
    k->reason[0] = '\0';
    if (mi_gdb_send(k->gdb, mi, 0, NULL, NULL) < 0) {
        k->state = CON_LOST;
        return;
    }
    struct rankset one;
    rs_init(&one, c->nranks);
    rs_add(&one, r);
    con_wait(c, &one, 1);
    rs_release(&one);
}

/* (Frame 0's pc: the user may have selected the program's frame above the
 * stub's; the caller selects it again.) */
unsigned long long con_stub_resume_pc(struct con *c, int r)
{
    int ok;
    struct mi_reply rep;
    mi_gdb_exec_sync(c->ranks[r]->gdb, "-stack-select-frame 0", &rep, 10000);
    mi_reply_release(&rep);
    long long pc = con_eval_int(c, r, "(long)$pc", &ok);
    if (!ok)
        return 0;
    char e[64];
    snprintf(e, sizeof e, DRDB_SYM_CKPT_PC " = %lld", pc);
    con_eval_int(c, r, e, &ok);
    return ok ? (unsigned long long)pc : 0;
}

long con_stub_tbreak(struct con *c, int r, unsigned long long pc)
{
    char mi[96];
    struct mi_reply rep;
    long long n = 0;
    snprintf(mi, sizeof mi, "-break-insert -t *%#llx", pc);
    if (mi_gdb_exec_sync(c->ranks[r]->gdb, mi, &rep, 10000) == 0)
        mi_get_int(rep.record, "bkpt.number", &n);
    mi_reply_release(&rep);
    return (long)n;
}

/* (A temporary one that was hit is gone already.) */
void con_stub_untbreak(struct con *c, int r, long n)
{
    char mi[64];
    struct mi_reply rep;
    if (n <= 0 || !c->ranks[r]->gdb)
        return;
    snprintf(mi, sizeof mi, "-break-delete %ld", n);
    mi_gdb_exec_sync(c->ranks[r]->gdb, mi, &rep, 10000);
    mi_reply_release(&rep);
}
