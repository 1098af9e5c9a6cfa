/*
 * Action point commands: break, tbreak, watch, condition, enable,
 * disable, delete, `info breakpoints`; display, undisplay, `info
 * display`. One drdb number per breakpoint (the session's table, struct
 * con_bpt), mapped to each rank's own GDB breakpoint, given again to each
 * new GDB of a rank by con_bpt_apply (con-rank.c).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "con.h"
#include "util.h"

/* Is SET every replayed rank (then ranks started later get what is set on
 * it: the group's action points)? */
static int set_is_all(struct con *c, const struct rankset *set)
{
    for (int r = 0; r < c->nranks; r++)
        if ((c->ranks[r].gdb || c->ranks[r].state == CON_DEFERRED) &&
            c->ranks[r].state != CON_LOST && !rs_has(set, r))
            return 0;
    return 1;
}

/* A breakpoint on ranks not started yet is theirs once their GDBs start
 * (con_bpt_apply); GDB checks its place now in one rank's: when none of
 * SET's has a GDB, the first not started of SET starts (0, or -1 when
 * none could). */
static int one_started(struct con *c, const struct rankset *set)
{
    int first = -1;
    for (int r = 0; r < c->nranks; r++) {
        if (!rs_has(set, r))
            continue;
        if (c->ranks[r].gdb && c->ranks[r].state != CON_LOST)
            return 0;
        if (first < 0 && c->ranks[r].state == CON_DEFERRED)
            first = r;
    }
    if (first < 0)
        return -1;
    struct rankset one;
    if (rs_init(&one, c->nranks) < 0)
        return -1;
    rs_add(&one, first);
    int rc = con_start_deferred(c, &one);
    rs_release(&one);
    return rc;
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
    if (watch) {
        snprintf(loc, sizeof loc, "%s", text);
        cond[0] = '\0';
    }
    if (one_started(c, set) < 0) {
        fprintf(stderr, "drdb: no rank of the set could take it\n");
        return -1;
    }
    if (util_grow(&c->bpts, &c->cap_bpts, (size_t)c->nbpts + 1,
                  sizeof *c->bpts) < 0)
        return -1;
    struct con_bpt *b = &c->bpts[c->nbpts];
    memset(b, 0, sizeof *b);
    b->id = c->next_bpt;
    b->temp = temp;
    b->watch = watch;
    b->enabled = 1;
    b->all = set_is_all(c, set);
    snprintf(b->loc, sizeof b->loc, "%s", loc);
    snprintf(b->cond, sizeof b->cond, "%s", cond);
    b->gdbno = calloc((size_t)c->nranks, sizeof *b->gdbno);
    struct con_answer *ans = calloc((size_t)rs_count(set) + 1, sizeof *ans);
    if (!b->gdbno || !ans || rs_init(&b->set, c->nranks) < 0) {
        free(b->gdbno);
        free(ans);
        return -1;
    }
    rs_copy(&b->set, set);
    int n = 0, rc = 0, took = 0;
    for (int r = 0; r < c->nranks; r++) {
        if (!rs_has(set, r))
            continue;
        ans[n].rank = r;
        if (c->ranks[r].state == CON_DEFERRED) {
            ans[n++].text = strdup("set when its GDB starts");
            continue;
        }
        rc |= con_bpt_insert(c, b, r, &ans[n++].text);
        took += b->gdbno[r] != 0;
    }
    /* No rank took it (GDB's error says why: an unknown place, a bad
     * condition): no breakpoint, no number used. */
    if (took)
        printf("%s %d: %s\n", watch ? "watchpoint" : "breakpoint", b->id,
               text);
    else
        for (int i = 0; i < n; i++)
            if (c->ranks[ans[i].rank].state == CON_DEFERRED) {
                free(ans[i].text);
                ans[i].text = NULL;
            }
    con_print_merged(c, ans, n);
    for (int i = 0; i < n; i++)
        free(ans[i].text);
    free(ans);
    if (!took) {
        rs_release(&b->set);
        free(b->gdbno);
        return -1;
    }
    c->nbpts++;
    c->next_bpt++;
    return rc;
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

/* Whether A's explicit @SET leaves out some of SET's ranks: a command
 * that acts on a whole breakpoint (or display) then refuses, never acting
 * on ranks it was not given. */
static int set_narrower(const struct con_args *a, const struct rankset *set)
{
    if (!a->given)
        return 0;
    for (int r = 0; r < set->n; r++)
        if (rs_has(set, r) && !rs_has(&a->set, r))
            return 1;
    return 0;
}

/* Refuses WHAT on breakpoint B for A's @SET narrower than B's ranks. */
static int whole_only(const struct con_args *a, const struct con_bpt *b,
                      const char *what)
{
    if (!set_narrower(a, &b->set))
        return 0;
    char buf[256];
    fprintf(stderr, "drdb: breakpoint %d is on ranks %s: '%s' acts on all of "
            "them ('@SET delete %d' takes it off some ranks)\n", b->id,
            rs_format(&b->set, buf, sizeof buf), what, b->id);
    return -1;
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
    if (whole_only(a, b, "condition") < 0)
        return -1;
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
    for (int i = 0; i < c->nbpts; i++)
        if ((!one || &c->bpts[i] == one) &&
            whole_only(a, &c->bpts[i], on ? "enable" : "disable") < 0)
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

/* Whether SET and ONLY share a rank (ONLY NULL: every set does). */
static int meets(const struct rankset *set, const struct rankset *only)
{
    if (!only)
        return 1;
    for (int r = 0; r < set->n; r++)
        if (rs_has(set, r) && rs_has(only, r))
            return 1;
    return 0;
}

void con_bpt_info(struct con *c, const struct rankset *only)
{
    char buf[256];
    int n = 0;
    for (int i = 0; i < c->nbpts; i++)
        n += meets(&c->bpts[i].set, only);
    if (!n) {
        printf(only ? "no breakpoints on ranks %s\n" : "no breakpoints\n",
               only ? rs_format(only, buf, sizeof buf) : "");
        return;
    }
    printf("%-4s %-10s %-4s %-3s %-30s %s\n", "num", "type", "disp", "enb",
           "what", "ranks");
    for (int i = 0; i < c->nbpts; i++) {
        struct con_bpt *b = &c->bpts[i];
        if (!meets(&b->set, only))
            continue;
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
    struct rankset sent;
    if (rs_init(&sent, c->nranks) < 0)
        return -1;
    if (*a->text && fe_parse_int(a->text, 1, INT_MAX, &id) < 0)
        id = -1; /* none has it */
    for (int i = 0; i < c->nbpts; i++) {
        struct con_bpt *b = &c->bpts[i];
        if (b->id != id && *a->text)
            continue;
        /* @SET delete: off those ranks only; the breakpoint stays on the
         * others (and on them at every re-run) */
        if (a->given && !meets(&b->set, &a->set)) {
            if (*a->text) {
                char buf[256];
                fprintf(stderr, "drdb: breakpoint %s is not on ranks %s\n",
                        a->text, rs_format(&a->set, buf, sizeof buf));
                rc = -2;
            }
            continue;
        }
        rc = 0;
        for (int r = 0; r < c->nranks; r++) {
            if (a->given && !rs_has(&a->set, r))
                continue;
            if (a->given)
                b->all = 0; /* off these: no longer every rank's */
            rs_del(&b->set, r);
            if (!b->gdbno[r] || !c->ranks[r].gdb)
                continue;
            char mi[64];
            snprintf(mi, sizeof mi, "-break-delete %d", b->gdbno[r]);
            if (mi_gdb_send(c->ranks[r].gdb, mi, 0, NULL, NULL) == 0)
                rs_add(&sent, r);
            b->gdbno[r] = 0;
        }
        if (rs_count(&b->set))
            continue;
        rs_release(&b->set);
        free(b->gdbno);
        *b = c->bpts[--c->nbpts];
        i--;
        rc = 0;
    }
    con_wait(c, &sent, 0);
    rs_release(&sent);
    if (rc == -1)
        fprintf(stderr, "drdb: no breakpoint %s ('info breakpoints' lists "
                "them)\n", a->text);
    return rc < 0 ? -1 : 0;
}

/* ---- displays ------------------------------------------------------------ */

/* display [/FMT] EXPR: shown now and at every stop of the set's ranks;
 * display alone: every display now. */
static int cmd_display(struct con *c, struct con_args *a)
{
    const char *t = a->text, *sp;
    char fmt[16] = "";
    if (!*t)
        return con_display_show(c, &a->set, 0);
    if (*t == '/' && (sp = strchr(t, ' ')) && (size_t)(sp - t) < sizeof fmt) {
        snprintf(fmt, sizeof fmt, "%.*s", (int)(sp - t), t);
        for (t = sp; *t == ' '; t++)
            ;
    }
    if (!*t || util_grow(&c->disps, &c->cap_disps, (size_t)c->ndisps + 1,
                         sizeof *c->disps) < 0) {
        fprintf(stderr, "drdb: display [/FMT] EXPRESSION\n");
        return -1;
    }
    struct con_display *d = &c->disps[c->ndisps];
    memset(d, 0, sizeof *d);
    if (rs_init(&d->set, c->nranks) < 0)
        return -1;
    d->id = ++c->next_disp;
    d->all = set_is_all(c, &a->set);
    snprintf(d->fmt, sizeof d->fmt, "%s", fmt);
    snprintf(d->expr, sizeof d->expr, "%s", t);
    rs_copy(&d->set, &a->set);
    c->ndisps++;
    if (con_display_show(c, &a->set, d->id) == 0)
        return 0;
    /* As GDB: an expression that cannot be shown makes no display. */
    rs_release(&c->disps[--c->ndisps].set);
    c->next_disp--;
    return -1;
}

/* Takes display I off the ranks of SET (NULL: all); a display left on
 * no rank goes. Returns whether it went. */
static int undisplay_on(struct con *c, int i, const struct rankset *set)
{
    struct con_display *d = &c->disps[i];
    for (int r = 0; set && r < c->nranks; r++)
        if (rs_has(set, r)) {
            rs_del(&d->set, r);
            d->all = 0;
        }
    if (set && rs_count(&d->set))
        return 0;
    rs_release(&d->set);
    memmove(&c->disps[i], &c->disps[i + 1],
            (size_t)(c->ndisps - i - 1) * sizeof *c->disps);
    c->ndisps--;
    return 1;
}

/* undisplay [N...]: those displays, or all (@SET: off its ranks). */
static int cmd_undisplay(struct con *c, struct con_args *a)
{
    const char *t = a->text;
    int rc = 0;
    if (!*t && !a->given) {
        for (int i = 0; i < c->ndisps; i++)
            rs_release(&c->disps[i].set);
        c->ndisps = 0;
        return 0;
    }
    if (!*t) { /* @SET undisplay: every display, off those ranks */
        for (int i = 0; i < c->ndisps; i++)
            if (undisplay_on(c, i, &a->set))
                i--;
        return 0;
    }
    while (*t) {
        char w[64];
        size_t len = strcspn(t, " ");
        long long id = 0;
        int i;
        snprintf(w, sizeof w, "%.*s", (int)len, t);
        fe_parse_int(w, 1, INT_MAX, &id);
        for (i = 0; i < c->ndisps && c->disps[i].id != id; i++)
            ;
        if (i == c->ndisps) {
            fprintf(stderr, "drdb: no display '%s' ('info display' lists "
                    "them)\n", w);
            rc = -1;
        } else {
            undisplay_on(c, i, a->given ? &a->set : NULL);
        }
        for (t += len; *t == ' '; t++)
            ;
    }
    return rc;
}

void con_display_info(struct con *c, const struct rankset *only)
{
    char buf[256];
    int n = 0;
    for (int i = 0; i < c->ndisps; i++)
        n += meets(&c->disps[i].set, only);
    if (!n) {
        printf(only ? "no displays on ranks %s\n" : "no displays\n",
               only ? rs_format(only, buf, sizeof buf) : "");
        return;
    }
    printf("%-4s %-30s %s\n", "num", "expression", "ranks");
    for (int i = 0; i < c->ndisps; i++) {
        char what[600];
        if (!meets(&c->disps[i].set, only))
            continue;
        snprintf(what, sizeof what, "%s%s%s", c->disps[i].fmt,
                 c->disps[i].fmt[0] ? " " : "", c->disps[i].expr);
        printf("%-4d %-30s %s\n", c->disps[i].id, what,
               rs_format(&c->disps[i].set, buf, sizeof buf));
    }
}

const struct con_cmd con_cmds_break[] = {
    {"break", "b", "break LOCATION [if CONDITION]",
     "a breakpoint on every rank of the set", CON_NEEDS_RANKS | CON_LAZY_OK,
     NULL, cmd_break, NULL},
    {"condition", NULL, "condition N [EXPRESSION]",
     "stop at breakpoint N only if EXPRESSION (none: always)", 0, NULL,
     cmd_condition, NULL},
    {"delete", "d", "delete [N]", "delete breakpoint N (all: no N)", 0, NULL,
     cmd_delete, NULL},
    {"disable", NULL, "disable [N]", "disable breakpoint N (all: no N)", 0,
     NULL, cmd_disable, NULL},
    {"display", NULL, "display [/FMT] EXPRESSION",
     "show EXPRESSION now and at every stop of the set's ranks",
     CON_NEEDS_STOPPED | CON_NEEDS_RANKS, NULL, cmd_display, NULL},
    {"enable", NULL, "enable [N]", "enable breakpoint N (all: no N)", 0,
     NULL, cmd_enable, NULL},
    {"tbreak", NULL, "tbreak LOCATION [if CONDITION]",
     "a breakpoint that deletes itself", CON_NEEDS_RANKS | CON_LAZY_OK, NULL,
     cmd_tbreak, NULL},
    {"undisplay", NULL, "undisplay [N...]",
     "delete displays N... (all: no N)", 0, NULL, cmd_undisplay, NULL},
    {"watch", NULL, "watch EXPRESSION", "stop when EXPRESSION changes",
     CON_NEEDS_STOPPED | CON_NEEDS_RANKS, NULL, cmd_watch, NULL},
    {NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL},
};
