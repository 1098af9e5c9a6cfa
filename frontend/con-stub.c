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

long long con_eval_int(struct con *c, int r, const char *expr, int *ok)
{
    char *mi = con_mi_arg("-data-evaluate-expression", expr);
    struct mi_reply rep;
    long long v = 0;
    *ok = mi && mi_gdb_exec_sync(c->ranks[r].gdb, mi, &rep, 10000) == 0 &&
          mi_get_int(rep.record, "value", &v) == 0;
    if (mi)
        mi_reply_release(&rep);
    free(mi);
    /* status shows it while the rank runs */
    if (*ok && strcmp(expr, DRDB_SYM_EVENT) == 0)
        c->ranks[r].last_event = v;
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
    int ok;
    struct con_rank *k = &c->ranks[r];
    if (k->state == CON_DEFERRED) /* it starts before its event 0 */
        return 0;
    if (!k->gdb || !con_rank_halted(k))
        return -1;
    long long v = con_eval_int(c, r, DRDB_SYM_EVENT, &ok);
    return ok ? v : -1;
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

void con_select_user_frame(struct con *c, struct con_rank *k)
{
    struct mi_reply rep;
    char stubsrc[1024];
    if (mi_gdb_exec_sync(k->gdb, "-stack-list-frames", &rep, 10000) == 0) {
        const struct mi_value *stack = mi_get(rep.record, "stack");
        con_stub_source_dir(stack, stubsrc, sizeof stubsrc);
        for (const struct mi_value *fr = stack ? stack->first : NULL; fr;
             fr = fr->next) {
            if (con_stub_frame(c, stubsrc, fr))
                continue;
            const struct mi_value *fn = mi_value_get(fr, "func");
            const struct mi_value *lv = mi_value_get(fr, "level");
            const struct mi_value *fi = mi_value_get(fr, "file");
            const struct mi_value *li = mi_value_get(fr, "line");
            char mi[64];
            snprintf(mi, sizeof mi, "-stack-select-frame %s",
                     lv && lv->str ? lv->str : "0");
            k->user_level = lv && lv->str ? atoi(lv->str) : 0;
            struct mi_reply r2;
            mi_gdb_exec_sync(k->gdb, mi, &r2, 10000);
            mi_reply_release(&r2);
            snprintf(k->where, sizeof k->where, "%s () at %s:%s",
                     fn && fn->str ? fn->str : "??",
                     fi && fi->str ? fi->str : "??",
                     li && li->str ? li->str : "?");
            break;
        }
    }
    mi_reply_release(&rep);
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

/* So that next, step and until step over the MPI call in the program's
 * code, not in the stub's. */
void con_stub_leave(struct con *c, const struct rankset *set)
{
    struct rankset in;
    rs_init(&in, c->nranks);
    for (int r = 0; r < c->nranks; r++) {
        struct con_rank *k = &c->ranks[r];
        if (!rs_has(set, r) || !k->at_event || k->state != CON_STOPPED ||
            k->user_level < 1)
            continue;
        char mi[64];
        struct mi_reply rep;
        snprintf(mi, sizeof mi, "-stack-select-frame %d", k->user_level - 1);
        int ok = mi_gdb_exec_sync(k->gdb, mi, &rep, 10000) == 0;
        mi_reply_release(&rep);
        if (!ok)
            continue;
        k->state = CON_RUNNING;
        if (mi_gdb_send(k->gdb, "-exec-finish", 0, con_on_exec_reply, k) < 0)
            k->state = CON_LOST;
        else
            rs_add(&in, r);
    }
    if (rs_count(&in))
        con_wait(c, &in, 1);
    rs_release(&in);
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
        if (mi_gdb_exec_sync(c->ranks[r].gdb, mi, &rep, 10000) == 0) {
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
    int rc = mi_gdb_exec_sync(c->ranks[r].gdb, mi, &rep, 10000);
    mi_reply_release(&rep);
    free(mi);
    return rc == 0 ? 0 : -1;
}

void con_stub_jump(struct con *c, int r, const char *symbol)
{
    struct con_rank *k = &c->ranks[r];
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
    mi_gdb_exec_sync(c->ranks[r].gdb, "-stack-select-frame 0", &rep, 10000);
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
    if (mi_gdb_exec_sync(c->ranks[r].gdb, mi, &rep, 10000) == 0)
        mi_get_int(rep.record, "bkpt.number", &n);
    mi_reply_release(&rep);
    return (long)n;
}

/* (A temporary one that was hit is gone already.) */
void con_stub_untbreak(struct con *c, int r, long n)
{
    char mi[64];
    struct mi_reply rep;
    if (n <= 0 || !c->ranks[r].gdb)
        return;
    snprintf(mi, sizeof mi, "-break-delete %ld", n);
    mi_gdb_exec_sync(c->ranks[r].gdb, mi, &rep, 10000);
    mi_reply_release(&rep);
}
