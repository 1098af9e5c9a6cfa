/*
 * Breakpoint commands: break, tbreak, watch, condition, enable, disable,
 * delete, and `info breakpoints`. One drdb number per breakpoint (the
 * session's table, struct con_bpt), mapped to each rank's own GDB
 * breakpoint.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "con.h"
#include "util.h"

static char *fmt_bkpt(const struct mi_reply *r, const char *arg)
{
    (void)arg;
    const char *where = mi_get_str(r->record, "bkpt.func");
    const char *file = mi_get_str(r->record, "bkpt.file");
    const char *line = mi_get_str(r->record, "bkpt.line");
    const char *pending = mi_get_str(r->record, "bkpt.pending");
    char *t = NULL;
    if (pending)
        asprintf(&t, "pending: %s", pending);
    else if (file && line)
        asprintf(&t, "at %s () %s:%s", where ? where : "??", file, line);
    else if (mi_get_str(r->record, "bkpt.at")) /* no line information */
        asprintf(&t, "at %s", mi_get_str(r->record, "bkpt.at"));
    else
        asprintf(&t, "set");
    return t;
}

/*
 * Inserts breakpoint B (the MI command MI, without -f: a location GDB does
 * not know is its error, not a pending breakpoint) on each stopped rank of
 * SET; each rank's GDB number from its reply. The answers, merged, are
 * printed after B's header line when some rank took it, else alone. The
 * number of ranks that took it (0: GDB made no breakpoint anywhere).
 */
static int bpt_insert(struct con *c, const struct rankset *set,
                      const char *mi, struct con_bpt *b, const char *text,
                      int *failed)
{
    int n = rs_count(set), i = 0, took = 0;
    struct con_answer *ans = calloc((size_t)n + 1, sizeof *ans);
    if (!ans)
        return 0;
    for (int r = 0; r < c->nranks; r++) {
        if (!rs_has(set, r))
            continue;
        struct con_rank *k = &c->ranks[r];
        struct mi_reply rep;
        long long no = 0;
        ans[i].rank = r;
        if (!k->gdb || k->state == CON_LOST || k->state == CON_RUNNING) {
            asprintf(&ans[i].text, "error: %s", k->gdb ? con_state_name(k->state)
                                                       : "not replayed");
        } else {
            if (mi_gdb_exec_sync(k->gdb, mi, &rep, c->timeout_ms) != 0)
                asprintf(&ans[i].text, "error: %s",
                         rep.message ? rep.message : mi_strerror(rep.status));
            else if (mi_get_int(rep.record, b->watch ? "wpt.number"
                                                     : "bkpt.number",
                                &no) == 0) {
                b->gdbno[r] = (int)no;
                ans[i].text = b->watch ? NULL : fmt_bkpt(&rep, NULL);
                took++;
            }
            mi_reply_release(&rep);
        }
        *failed |= !b->gdbno[r];
        i++;
    }
    if (took)
        printf("%s %d: %s\n", b->watch ? "watchpoint" : "breakpoint", b->id,
               text);
    con_print_merged(c, ans, n);
    for (int j = 0; j < n; j++)
        free(ans[j].text);
    free(ans);
    return took;
}

static int break_common(struct con *c, struct con_args *a, int temp,
                        int watch)
{
    const struct rankset *set = &a->set;
    const char *text = a->text;
    if (!*text) {
        fprintf(stderr, watch ? "drdb: watch EXPRESSION\n"
                              : "drdb: break LOCATION [if CONDITION]\n");
        return -1;
    }
    /* LOCATION [if CONDITION]: GDB's own syntax */
    char loc[512], cond[512] = "";
    const char *ifp = strstr(text, " if ");
    size_t ll = ifp ? (size_t)(ifp - text) : strlen(text);
    snprintf(loc, sizeof loc, "%.*s", (int)ll, text);
    if (ifp)
        snprintf(cond, sizeof cond, "%s", ifp + 4);
    struct mi_cmd mc;
    mi_cmd_init(&mc);
    if (watch) {
        mi_cmd_op(&mc, "-break-watch");
        snprintf(loc, sizeof loc, "%s", text);
        cond[0] = '\0';
    } else {
        mi_cmd_op(&mc, "-break-insert");
        if (temp)
            mi_cmd_arg(&mc, "-t");
        if (cond[0]) {
            mi_cmd_arg(&mc, "-c");
            mi_cmd_arg(&mc, cond);
        }
    }
    mi_cmd_arg(&mc, loc);
    char *mi = mi_cmd_str(&mc) ? strdup(mi_cmd_str(&mc)) : NULL;
    mi_cmd_release(&mc);
    if (!mi || util_grow(&c->bpts, &c->cap_bpts, (size_t)c->nbpts + 1,
                        sizeof *c->bpts) < 0) {
        free(mi);
        return -1;
    }
    struct con_bpt *b = &c->bpts[c->nbpts];
    memset(b, 0, sizeof *b);
    b->id = c->next_bpt;
    b->temp = temp;
    b->watch = watch;
    b->enabled = 1;
    snprintf(b->loc, sizeof b->loc, "%s", loc);
    snprintf(b->cond, sizeof b->cond, "%s", cond);
    b->gdbno = calloc((size_t)c->nranks, sizeof *b->gdbno);
    if (!b->gdbno || rs_init(&b->set, c->nranks) < 0) {
        free(b->gdbno);
        free(mi);
        return -1;
    }
    rs_copy(&b->set, set);
    int failed = 0;
    if (!bpt_insert(c, set, mi, b, text, &failed)) {
        /* No rank took it: no breakpoint (GDB's error said why). */
        rs_release(&b->set);
        free(b->gdbno);
        free(mi);
        return -1;
    }
    free(mi);
    c->nbpts++;
    c->next_bpt++;
    return failed ? -1 : 0;
}

static int cmd_break(struct con *c, struct con_args *a)
{
    return break_common(c, a, 0, 0);
}

static int cmd_tbreak(struct con *c, struct con_args *a)
{
    return break_common(c, a, 1, 0);
}

static int cmd_watch(struct con *c, struct con_args *a)
{
    return break_common(c, a, 0, 1);
}

/* Breakpoint N (as typed), or NULL after an error. */
static struct con_bpt *bpt_find(struct con *c, const char *n)
{
    long long id;
    if (fe_parse_int(n, 1, INT_MAX, &id) == 0)
        for (int i = 0; i < c->nbpts; i++)
            if (c->bpts[i].id == id)
                return &c->bpts[i];
    fprintf(stderr, "drdb: no breakpoint '%s' ('info breakpoints' lists "
            "them)\n", n);
    return NULL;
}

/* Sends "OP GDBNO [ARG]" for breakpoint B to each of its ranks. */
static int bpt_send(struct con *c, struct con_bpt *b, const char *op,
                    const char *arg)
{
    int rc = 0;
    struct rankset on;
    rs_init(&on, c->nranks);
    for (int r = 0; r < c->nranks; r++) {
        if (!b->gdbno[r] || !c->ranks[r].gdb ||
            c->ranks[r].state == CON_LOST)
            continue;
        struct mi_cmd mc;
        char no[16];
        snprintf(no, sizeof no, "%d", b->gdbno[r]);
        mi_cmd_init(&mc);
        mi_cmd_op(&mc, op);
        mi_cmd_arg(&mc, no);
        if (arg && *arg)
            mi_cmd_arg(&mc, arg);
        if (!mi_cmd_str(&mc) ||
            mi_gdb_send(c->ranks[r].gdb, mi_cmd_str(&mc), c->timeout_ms,
                        NULL, NULL) < 0)
            rc = -1;
        mi_cmd_release(&mc);
        rs_add(&on, r);
    }
    if (con_wait(c, &on, 0) < 0)
        rc = -1;
    rs_release(&on);
    return rc;
}

static int cmd_condition(struct con *c, struct con_args *a)
{
    char n[64];
    const char *cond;
    con_args_word(a, n, sizeof n, &cond);
    struct con_bpt *b = *n ? bpt_find(c, n) : NULL;
    if (!b) {
        if (!*n)
            fprintf(stderr, "drdb: condition N [EXPRESSION]\n");
        return -1;
    }
    snprintf(b->cond, sizeof b->cond, "%s", cond);
    return bpt_send(c, b, "-break-condition", cond);
}

/* enable [N] / disable [N]: N, or every breakpoint. */
static int enable_common(struct con *c, struct con_args *a, int on)
{
    struct con_bpt *one = *a->text ? bpt_find(c, a->text) : NULL;
    int rc = 0;
    if (*a->text && !one)
        return -1;
    for (int i = 0; i < c->nbpts; i++) {
        if (one && &c->bpts[i] != one)
            continue;
        c->bpts[i].enabled = on;
        rc |= bpt_send(c, &c->bpts[i], on ? "-break-enable" : "-break-disable",
                       NULL);
    }
    return rc;
}

static int cmd_enable(struct con *c, struct con_args *a)
{
    return enable_common(c, a, 1);
}

static int cmd_disable(struct con *c, struct con_args *a)
{
    return enable_common(c, a, 0);
}

void con_bpt_info(struct con *c)
{
    char buf[256];
    if (!c->nbpts) {
        printf("no breakpoints\n");
        return;
    }
    printf("%-4s %-10s %-4s %-3s %-30s %s\n", "num", "type", "disp", "enb",
           "what", "ranks");
    for (int i = 0; i < c->nbpts; i++) {
        struct con_bpt *b = &c->bpts[i];
        printf("%-4d %-10s %-4s %-3s %-30s %s\n", b->id,
               b->watch ? "watchpoint" : "breakpoint", b->temp ? "del" : "keep",
               b->enabled ? "y" : "n", b->loc,
               rs_format(&b->set, buf, sizeof buf));
        if (b->cond[0])
            printf("        stop only if %s\n", b->cond);
    }
}

static int cmd_delete(struct con *c, struct con_args *a)
{
    long long id = 0;
    int rc = -1;
    if (*a->text && fe_parse_int(a->text, 1, INT_MAX, &id) < 0)
        id = -1; /* none has it */
    for (int i = 0; i < c->nbpts; i++) {
        struct con_bpt *b = &c->bpts[i];
        if (b->id != id && *a->text)
            continue;
        for (int r = 0; r < c->nranks; r++) {
            if (!b->gdbno[r] || !c->ranks[r].gdb)
                continue;
            char mi[64];
            snprintf(mi, sizeof mi, "-break-delete %d", b->gdbno[r]);
            mi_gdb_send(c->ranks[r].gdb, mi, 0, NULL, NULL);
        }
        rs_release(&b->set);
        free(b->gdbno);
        *b = c->bpts[--c->nbpts];
        i--;
        rc = 0;
    }
    con_wait(c, &c->focus, 0);
    if (rc < 0)
        fprintf(stderr, "drdb: no breakpoint %s ('info breakpoints' lists "
                "them)\n", a->text);
    return rc;
}

const struct con_cmd con_cmds_break[] = {
    {"break", "b", "break LOCATION [if CONDITION]",
     "a breakpoint on every rank of the set", CON_NEEDS_RANKS, NULL,
     cmd_break},
    {"condition", NULL, "condition N [EXPRESSION]",
     "stop at breakpoint N only if EXPRESSION (none: always)", 0, NULL,
     cmd_condition},
    {"delete", "d", "delete [N]", "delete breakpoint N (all: no N)", 0, NULL,
     cmd_delete},
    {"disable", NULL, "disable [N]", "disable breakpoint N (all: no N)", 0,
     NULL, cmd_disable},
    {"enable", NULL, "enable [N]", "enable breakpoint N (all: no N)", 0,
     NULL, cmd_enable},
    {"tbreak", NULL, "tbreak LOCATION [if CONDITION]",
     "a breakpoint that deletes itself", CON_NEEDS_RANKS, NULL, cmd_tbreak},
    {"watch", NULL, "watch EXPRESSION", "stop when EXPRESSION changes",
     CON_NEEDS_STOPPED | CON_NEEDS_RANKS, NULL, cmd_watch},
    {NULL, NULL, NULL, NULL, 0, NULL, NULL},
};
