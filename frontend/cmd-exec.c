/*
 * Execution commands: continue, next, step, finish, until, advance,
 * interrupt, restart, kill.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "con.h"

/* Runs the MI execution command MI on every rank of SET; without
 * BACKGROUND, waits for each to stop and says where. */
static int exec_cmd(struct con *c, const struct rankset *set, const char *mi,
                    int background)
{
    int rc = 0;
    if (strcmp(mi, "-exec-next") == 0 || strcmp(mi, "-exec-step") == 0 ||
        strcmp(mi, "-exec-until") == 0)
        con_stub_leave(c, set);
    for (int r = 0; r < c->nranks; r++) {
        if (!rs_has(set, r))
            continue;
        struct con_rank *k = &c->ranks[r];
        k->refused = 0;
        /* Running from now: GDB's ^running may come before its *running,
         * and the rank must not look stopped in between. */
        k->state = CON_RUNNING;
        if (mi_gdb_send(k->gdb, mi, 0, con_on_exec_reply, k) < 0) {
            k->state = CON_LOST;
            rc = -1;
        }
    }
    if (background) {
        /* "continue &": the prompt comes back at once; the ranks' output
         * shows above it; 'interrupt' (or Ctrl-C) stops them. */
        con_wait(c, set, 0);
        return rc;
    }
    if (con_wait(c, set, 1) < 0) {
        fprintf(stderr, "drdb: timed out after %d ms: the ranks still "
                "running are left running ('interrupt' stops them)\n",
                c->timeout_ms);
        rc = -1;
    }
    /* Where the ranks that ran stand; those whose GDB refused the command
     * did not move, and their error is said (con_on_exec_reply). */
    struct rankset ran;
    if (rs_init(&ran, c->nranks) == 0) {
        for (int r = 0; r < c->nranks; r++)
            if (rs_has(set, r) && !c->ranks[r].refused)
                rs_add(&ran, r);
        if (rs_count(&ran))
            con_print_where(c, &ran);
        rs_release(&ran);
    }
    for (int r = 0; r < c->nranks; r++)
        if (rs_has(set, r) && (c->ranks[r].state == CON_DIVERGED ||
                               c->ranks[r].state == CON_LOST ||
                               c->ranks[r].refused))
            rc = -1;
    return rc;
}

/* OP with the command's argument, if any ("next 3", "until 42"). */
static int exec_op(struct con *c, struct con_args *a, const char *op)
{
    char *mi = con_mi_arg(op, a->text);
    int rc = mi ? exec_cmd(c, &a->set, mi, a->bg) : -1;
    free(mi);
    return rc;
}

static int cmd_continue(struct con *c, struct con_args *a)
{
    return exec_op(c, a, "-exec-continue");
}

static int cmd_next(struct con *c, struct con_args *a)
{
    return exec_op(c, a, "-exec-next");
}

static int cmd_step(struct con *c, struct con_args *a)
{
    return exec_op(c, a, "-exec-step");
}

/* finish: the frame it leaves, for its report ("Run till exit from #0
 * square (reqs=6) at habits.c:24", the first line of GDB's `frame`). */
static int cmd_finish(struct con *c, struct con_args *a)
{
    struct mi_cmd mc;
    mi_cmd_init(&mc);
    mi_cmd_console(&mc, "frame");
    for (int r = 0; mi_cmd_str(&mc) && r < c->nranks; r++) {
        struct con_rank *k = &c->ranks[r];
        struct mi_reply rep;
        if (!rs_has(&a->set, r))
            continue;
        k->stop.run_till[0] = '\0';
        if (mi_gdb_exec_sync(k->gdb, mi_cmd_str(&mc), &rep, c->timeout_ms) == 0
            && rep.console)
            snprintf(k->stop.run_till, sizeof k->stop.run_till, "%.*s",
                     (int)strcspn(rep.console, "\n"), rep.console);
        mi_reply_release(&rep);
    }
    mi_cmd_release(&mc);
    return exec_op(c, a, "-exec-finish");
}

static int cmd_until(struct con *c, struct con_args *a)
{
    return exec_op(c, a, "-exec-until");
}

static int cmd_advance(struct con *c, struct con_args *a)
{
    if (!*a->text) {
        fprintf(stderr, "drdb: advance LOCATION: where to?\n");
        return -1;
    }
    return exec_op(c, a, "-exec-until");
}

static int cmd_interrupt(struct con *c, struct con_args *a)
{
    c->interrupted = 1;
    for (int r = 0; r < c->nranks; r++)
        if (rs_has(&a->set, r) && c->ranks[r].state == CON_RUNNING)
            mi_gdb_interrupt(c->ranks[r].gdb);
    con_wait(c, &a->set, 1);
    con_print_where(c, &a->set);
    return 0;
}

/* restart: the set's ranks that are replayed, or were (lost, killed). */
static int cmd_restart(struct con *c, struct con_args *a)
{
    struct rankset s;
    if (rs_init(&s, c->nranks) < 0)
        return -1;
    for (int r = 0; r < c->nranks; r++)
        if (rs_has(&a->set, r) && (c->ranks[r].gdb || c->ranks[r].killed ||
                                   c->ranks[r].state == CON_LOST))
            rs_add(&s, r);
    int rc = -1;
    if (!rs_count(&s))
        fprintf(stderr, "drdb: restart: no replayed rank in the set "
                "('replay @SET' starts ranks)\n");
    else {
        con_drop(c, &s);
        rc = con_replay(c, &s);
        con_print_where(c, &s);
    }
    rs_release(&s);
    return rc;
}

static int cmd_kill(struct con *c, struct con_args *a)
{
    con_drop(c, &a->set);
    for (int r = 0; r < c->nranks; r++)
        if (rs_has(&a->set, r))
            c->ranks[r].killed = 1;
    return 0;
}

const struct con_cmd con_cmds_exec[] = {
    {"advance", NULL, "advance LOCATION", "run to LOCATION (or a stop)",
     CON_NEEDS_STOPPED | CON_NEEDS_RANKS, NULL, cmd_advance, NULL},
    {"continue", "c", "continue [&]",
     "resume until a breakpoint or the end (&: in the background)",
     CON_NEEDS_STOPPED | CON_NEEDS_RANKS, "& .", cmd_continue, NULL},
    {"finish", NULL, "finish", "run until the current function returns",
     CON_NEEDS_STOPPED | CON_NEEDS_RANKS, "&", cmd_finish, NULL},
    {"interrupt", NULL, "interrupt", "stop running ranks",
     CON_NEEDS_RANKS | CON_LAZY_OK, ".", cmd_interrupt, NULL},
    {"kill", NULL, "kill", "end the replay of the ranks (GDB too)",
     CON_NEEDS_RANKS | CON_LAZY_OK, ".", cmd_kill, NULL},
    {"next", "n", "next", "the next source line, over calls",
     CON_NEEDS_STOPPED | CON_NEEDS_RANKS, "&", cmd_next, NULL},
    {"restart", NULL, "restart",
     "re-run ranks from the start of their logs, to main (a lost or "
     "killed rank too)", 0, ".", cmd_restart, NULL},
    {"step", "s", "step", "the next source line, into calls",
     CON_NEEDS_STOPPED | CON_NEEDS_RANKS, "&", cmd_step, NULL},
    {"until", "u", "until", "the next line, not back into a loop",
     CON_NEEDS_STOPPED | CON_NEEDS_RANKS, "&", cmd_until, NULL},
    {NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL},
};
