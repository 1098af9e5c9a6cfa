/*
 * Execution commands: continue, next, step, finish, until, advance,
 * interrupt, restart, kill.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "con.h"

/* Runs execution command CLI (GDB's, as typed: "next", "until 42",
 * "finish"), whose first word is VERB, on every rank of SET through GDB's
 * CLI: GDB says what it does and where each rank stops, as at its own
 * prompt. Ranks stopped inside the stub first leave it for the program's
 * frame (con_stub_leave). Without BACKGROUND, waits for each to stop and
 * prints where, merged. */
static int exec_cli(struct con *c, const struct rankset *set,
                    const char *verb, const char *cli, int background)
{
    struct rankset run, done;
    int rc = 0;
    if (rs_init(&run, c->nranks) < 0 || rs_init(&done, c->nranks) < 0)
        return -1;
    rs_copy(&run, set);
    if (strcmp(verb, "continue") != 0 && strcmp(verb, "run") != 0)
        rc = con_stub_leave(c, set, verb, &done);
    char *mi = con_mi_console(cli);
    for (int r = 0; mi && r < c->nranks; r++) {
        if (!rs_has(set, r) || rs_has(&done, r)) {
            rs_del(&run, r);
            continue;
        }
        struct con_rank *k = c->ranks[r];
        k->refused = 0;
        k->at_event = 0;
        /* Running from now: GDB's ^running may come before its *running,
         * and the rank must not look stopped in between. */
        k->state = CON_RUNNING;
        con_stop_begin(k);
        if (mi_gdb_send(k->gdb, mi, 0, con_on_exec_reply, k) < 0) {
            k->state = CON_LOST;
            rc = -1;
        }
    }
    free(mi);
    /* GDB says "Continuing." before the program runs: once every rank's
     * GDB answered the command, said for those it runs, before their
     * output (the rest of their report when they stop) */
    c->out_hold = 1;
    con_wait(c, &run, 0);
    c->out_hold = 0;
    struct con_answer *head = calloc((size_t)c->nranks + 1, sizeof *head);
    int nh = 0;
    for (int r = 0; head && r < c->nranks; r++) {
        struct con_stop *st = &c->ranks[r]->stop;
        if (!rs_has(&run, r) || st->len < 12 ||
            strncmp(st->text, "Continuing.\n", 12) != 0)
            continue;
        /* (run said "Starting program:" instead) */
        if (strcmp(verb, "run") != 0) {
            head[nh].rank = r;
            head[nh++].text = strdup("Continuing.");
        }
        st->len -= 12;
        memmove(st->text, st->text + 12, st->len + 1);
    }
    if (nh)
        con_print_merged(c, head, nh);
    for (int i = 0; i < nh; i++)
        free(head[i].text);
    free(head);
    if (background) {
        /* "continue &": the prompt comes back at once; the ranks' output
         * shows above it; 'interrupt' (or Ctrl-C) stops them. */
        con_wait(c, &run, 0);
        rs_release(&run);
        rs_release(&done);
        return rc;
    }
    if (con_wait(c, &run, 1) < 0) {
        fprintf(stderr, "drdb: timed out after %d ms: the ranks still "
                "running are left running ('interrupt' stops them)\n",
                c->timeout_ms);
        rc = -1;
    }
    for (int r = 0; r < c->nranks; r++)
        if (rs_has(&run, r) && !c->ranks[r]->refused)
            con_stub_landing(c, c->ranks[r]);
    /* Where the ranks stand, in GDB's words; those whose GDB refused the
     * command did not move: its error is their answer. */
    con_print_where(c, set);
    for (int r = 0; r < c->nranks; r++)
        if (rs_has(set, r) && (c->ranks[r]->state == CON_DIVERGED ||
                               c->ranks[r]->state == CON_LOST ||
                               c->ranks[r]->refused))
            rc = -1;
    rs_release(&run);
    rs_release(&done);
    return rc;
}

/* VERB with the command's argument, if any ("next 3", "until 42"). */
static int exec_op(struct con *c, struct con_args *a, const char *verb)
{
    char cli[4200];
    snprintf(cli, sizeof cli, "%s%s%s", verb, *a->text ? " " : "", a->text);
    return exec_cli(c, &a->set, verb, cli, a->bg);
}

static int cmd_continue(struct con *c, struct con_args *a)
{
    return exec_op(c, a, "continue");
}

static int cmd_next(struct con *c, struct con_args *a)
{
    return exec_op(c, a, "next");
}

static int cmd_step(struct con *c, struct con_args *a)
{
    return exec_op(c, a, "step");
}

static int cmd_nexti(struct con *c, struct con_args *a)
{
    return exec_op(c, a, "nexti");
}

static int cmd_stepi(struct con *c, struct con_args *a)
{
    return exec_op(c, a, "stepi");
}

static int cmd_finish(struct con *c, struct con_args *a)
{
    return exec_op(c, a, "finish");
}

static int cmd_until(struct con *c, struct con_args *a)
{
    return exec_op(c, a, "until");
}

static int cmd_advance(struct con *c, struct con_args *a)
{
    if (!*a->text) {
        fprintf(stderr, "drdb: advance LOCATION: where to?\n");
        return -1;
    }
    return exec_op(c, a, "advance");
}

static int cmd_interrupt(struct con *c, struct con_args *a)
{
    c->interrupted = 1;
    for (int r = 0; r < c->nranks; r++)
        if (rs_has(&a->set, r) && c->ranks[r]->state == CON_RUNNING)
            mi_gdb_interrupt(c->ranks[r]->gdb);
    con_wait(c, &a->set, 1);
    con_print_where(c, &a->set);
    return 0;
}

/* The set's ranks that are replayed, or were (lost, killed), re-run from
 * the start of their logs to main, into S (empty); -1 when none is or a
 * start failed. */
static int rerun(struct con *c, struct con_args *a, const char *verb,
                 struct rankset *s)
{
    for (int r = 0; r < c->nranks; r++)
        if (rs_has(&a->set, r) && (c->ranks[r]->gdb || c->ranks[r]->killed ||
                                   c->ranks[r]->state == CON_LOST))
            rs_add(s, r);
    if (!rs_count(s)) {
        fprintf(stderr, "drdb: %s: no replayed rank in the set ('replay "
                "@SET' starts ranks)\n", verb);
        return -1;
    }
    con_drop(c, s);
    return con_replay(c, s);
}

static int cmd_restart(struct con *c, struct con_args *a)
{
    struct rankset s;
    if (rs_init(&s, c->nranks) < 0)
        return -1;
    int rc = rerun(c, a, "restart", &s);
    if (rs_count(&s))
        con_print_where(c, &s);
    rs_release(&s);
    return rc;
}

/* GDB's run: restart, then on to a breakpoint or the end, as GDB runs a
 * program to its first stop. */
static int cmd_run(struct con *c, struct con_args *a)
{
    struct rankset s;
    if (rs_init(&s, c->nranks) < 0)
        return -1;
    int rc = rerun(c, a, "run", &s);
    for (int r = 0; r < c->nranks; r++)
        if (c->ranks[r]->state != CON_STOPPED)
            rs_del(&s, r);
    if (rs_count(&s)) {
        char buf[256];
        printf("[%s] Starting program: %s (the replay of the recorded rank, "
               "from the start of its log)\n",
               rs_format(&s, buf, sizeof buf), c->exe);
        if (exec_cli(c, &s, "run", "continue", a->bg) < 0)
            rc = -1;
    }
    rs_release(&s);
    return rc;
}

static int cmd_kill(struct con *c, struct con_args *a)
{
    con_drop(c, &a->set);
    for (int r = 0; r < c->nranks; r++)
        if (rs_has(&a->set, r))
            c->ranks[r]->killed = 1;
    return 0;
}

static int cmd_jump(struct con *c, struct con_args *a)
{
    if (!*a->text) {
        fprintf(stderr, "drdb: jump LOCATION: where to?\n");
        return -1;
    }
    return exec_op(c, a, "jump");
}

const struct con_cmd con_cmds_exec[] = {
    {"advance", NULL, "advance LOCATION", "run to LOCATION (or a stop)",
     CON_NEEDS_STOPPED | CON_NEEDS_RANKS, "&", cmd_advance, NULL},
    {"continue", "c fg", "continue [N] [&]",
     "resume until a breakpoint or the end (N: ignore this breakpoint N-1 "
     "more times; &: in the background)",
     CON_NEEDS_STOPPED | CON_NEEDS_RANKS, "&", cmd_continue, NULL},
    {"finish", "fin", "finish", "run until the current function returns",
     CON_NEEDS_STOPPED | CON_NEEDS_RANKS, "&", cmd_finish, NULL},
    {"interrupt", NULL, "interrupt", "stop running ranks",
     CON_NEEDS_RANKS | CON_LAZY_OK, ".", cmd_interrupt, NULL},
    {"jump", "j", "jump LOCATION", "resume at LOCATION (GDB's jump)",
     CON_NEEDS_STOPPED | CON_NEEDS_RANKS, "&", cmd_jump, NULL},
    {"kill", "k", "kill", "end the replay of the ranks (GDB too)",
     CON_NEEDS_RANKS | CON_LAZY_OK, ".", cmd_kill, NULL},
    {"next", "n", "next [N]", "the next source line, over calls",
     CON_NEEDS_STOPPED | CON_NEEDS_RANKS, "&", cmd_next, NULL},
    {"nexti", "ni", "nexti [N]", "the next instruction, over calls",
     CON_NEEDS_STOPPED | CON_NEEDS_RANKS, "&", cmd_nexti, NULL},
    {"restart", NULL, "restart",
     "re-run ranks from the start of their logs, to main (a lost or "
     "killed rank too)", 0, ".", cmd_restart, NULL},
    {"run", "r", "run [&]",
     "re-run ranks from the start of their logs, on to a breakpoint or "
     "their end (as GDB's run; restart stops at main)",
     0, "&", cmd_run, NULL},
    {"step", "s", "step [N]", "the next source line, into calls",
     CON_NEEDS_STOPPED | CON_NEEDS_RANKS, "&", cmd_step, NULL},
    {"stepi", "si", "stepi [N]", "the next instruction, into calls",
     CON_NEEDS_STOPPED | CON_NEEDS_RANKS, "&", cmd_stepi, NULL},
    {"until", "u", "until [LOCATION]",
     "the next line, not back into a loop (LOCATION: as advance, within "
     "the current frame)",
     CON_NEEDS_STOPPED | CON_NEEDS_RANKS, "&", cmd_until, NULL},
    {NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL},
};
