/*
 * Running ranks to events: goto's engine (and next-event's, until-call's,
 * goto-send's, bisect's probes), through the stub's stop-at-event hook,
 * checkpoints and re-runs.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "con.h"
#include "drdb-stub.h"
#include "events.h"

/* con_goto, and con_goto_or_end when ENDS: a target may be the rank's
 * event count (past its last event: the end of its log). */
static int go(struct con *c, const struct rankset *set,
              const uint64_t *target, int quiet, int ends)
{
    struct rankset back, fwd, rerun, start;
    int rc = 0;
    /* Ranks not started yet start (to main) when their target is in
     * their logs. */
    if (rs_init(&start, c->nranks) < 0)
        return -1;
    for (int r = 0; r < c->nranks; r++)
        if (rs_has(set, r) && c->ranks[r]->state == CON_DEFERRED &&
            target[r] < c->nevents[r] + (ends != 0))
            rs_add(&start, r);
    rc = con_start_deferred(c, &start) < 0 && c->interrupted ? -1 : 0;
    rs_release(&start);
    if (rc < 0)
        return -1;
    /* Where each rank stood (LLONG_MAX: past its end): a re-run passes
     * the user's breakpoints behind it without stopping. */
    long long *from = calloc((size_t)c->nranks, sizeof *from);
    if (!from)
        return -1;
    rs_init(&back, c->nranks);
    rs_init(&fwd, c->nranks);
    rs_init(&rerun, c->nranks);
    for (int r = 0; r < c->nranks; r++) {
        if (!rs_has(set, r))
            continue;
        if (target[r] >= c->nevents[r] + (ends != 0)) {
            fprintf(stderr, "drdb: rank %d has %llu events (0-%llu): no event "
                    "%llu\n", r, (unsigned long long)c->nevents[r],
                    (unsigned long long)(c->nevents[r] ? c->nevents[r] - 1
                                                       : 0),
                    (unsigned long long)target[r]);
            rc = -1;
            continue;
        }
        int ok = 0;
        long long cur = c->ranks[r]->state == CON_EXITED
                            ? (long long)c->nevents[r]
                            : con_eval_int(c, r, DRDB_SYM_EVENT, &ok);
        if (c->ranks[r]->state == CON_EXITED || !ok)
            ok = 0;
        from[r] = ok ? cur : LLONG_MAX;
        if (!ok || (uint64_t)cur > target[r] ||
            ((uint64_t)cur == target[r] && !c->ranks[r]->at_event &&
             c->ranks[r]->state != CON_STOPPED))
            rs_add(&back, r);
        else if ((uint64_t)cur == target[r] && c->ranks[r]->at_event)
            continue; /* already there */
        rs_add(&fwd, r);
    }
    /* The nearest checkpoint at or before the target, when it is ahead of
     * where the rank can start from (back: the start; forward: here). */
    for (int r = 0; r < c->nranks; r++) {
        if (!rs_has(set, r) || target[r] >= c->nevents[r] + (ends != 0))
            continue;
        int ok;
        long long cur = rs_has(&back, r) ? -1
                        : c->ranks[r]->state == CON_STOPPED
                            ? con_eval_int(c, r, DRDB_SYM_EVENT, &ok)
                            : -1;
        int rolled = con_ckpt_nearest(c, r, target[r], cur, quiet);
        if (rolled == 1) {
            rs_add(&rerun, r);
            rs_del(&back, r);
            rs_add(&fwd, r);
            long long now = con_eval_int(c, r, DRDB_SYM_EVENT, &ok);
            if (ok && (uint64_t)now == target[r] && c->ranks[r]->at_event)
                rs_del(&fwd, r);
        }
    }
    if (rs_count(&back)) {
        char buf[256];
        if (!quiet)
            printf("[%s] re-running from the start of the log\n",
                   rs_format(&back, buf, sizeof buf));
        con_drop(c, &back);
        if (con_replay(c, &back) < 0)
            rc = -1;
        for (int r = 0; r < c->nranks; r++)
            if (rs_has(&back, r))
                rs_add(&rerun, r);
    }
    char *cont = con_mi_console("continue");
    for (int round = 0; rs_count(&fwd) && round < 1000 && !c->interrupted;
         round++) {
        for (int r = 0; r < c->nranks; r++) {
            if (!rs_has(&fwd, r))
                continue;
            struct con_rank *k = c->ranks[r];
            if (k->state != CON_STOPPED) {
                rs_del(&fwd, r);
                continue;
            }
            con_stub_stop_at(c, r, target[r]);
            k->reason[0] = '\0';
            k->at_event = 0;
            k->state = CON_RUNNING;
            /* through GDB's CLI: a breakpoint or watchpoint on the way
             * is reported in GDB's words */
            con_stop_begin(k);
            if (!cont || mi_gdb_send(k->gdb, cont, 0, con_on_exec_reply,
                                     k) < 0)
                k->state = CON_LOST;
        }
        if (con_wait(c, &fwd, 1) < 0)
            rc = -1;
        /* A user breakpoint on the way stops the rank there, as GDB's
         * `advance`; one a re-run passes before where the rank stood is
         * behind the user: it goes on. Ctrl-C stops every rank. */
        for (int r = 0; r < c->nranks; r++) {
            struct con_rank *k = c->ranks[r];
            if (!rs_has(&fwd, r))
                continue;
            int ok = 0;
            long long now = rs_has(&rerun, r) && k->state == CON_STOPPED &&
                                    !k->at_event
                                ? con_eval_int(c, r, DRDB_SYM_EVENT, &ok)
                                : 0;
            if (!ok || now > from[r] || !k->at_bpt)
                rs_del(&fwd, r);
        }
    }
    free(cont);
    for (int r = 0; r < c->nranks; r++)
        if (rs_has(set, r) && !c->ranks[r]->at_event &&
            c->ranks[r]->state == CON_STOPPED)
            con_stub_no_stop(c, r);
    for (int r = 0; r < c->nranks; r++) {
        struct con_rank *k = c->ranks[r];
        if (!rs_has(set, r) || k->state != CON_STOPPED ||
            target[r] >= c->nevents[r] + (ends != 0))
            continue;
        struct con_pos p;
        char pos[100];
        int ok;
        if (k->at_event) {
            con_stub_no_stop(c, r);
            if (con_eval_int(c, r, DRDB_SYM_EVENT, &ok) == (long long)target[r])
            {
                con_select_user_frame(c, k);
                con_position(c, r, &p);
                if (target[r] < c->nevents[r]) {
                    snprintf(k->reason, sizeof k->reason, "%s",
                             con_pos_text(c, r, &p, pos, sizeof pos));
                } else { /* the end of its log: in the call it never
                          * finished */
                    char call[200];
                    int got = ev_call_in_progress(c->ev, r, call,
                                                  sizeof call);
                    snprintf(k->reason, sizeof k->reason, "at the end of "
                             "its log%s%s", got > 0 ? ", in " : "",
                             got > 0 ? call : "");
                }
                continue;
            }
        }
        /* Stopped on its way (a breakpoint, Ctrl-C): said, with where it
         * stands in its log, so that ranks stopped at other events do
         * not read as one; at a breakpoint or watchpoint, after GDB's
         * report of it (without its "Continuing."). */
        if (k->at_bpt)
            con_stub_landing(c, k);
        con_position(c, r, &p);
        char why[128];
        snprintf(why, sizeof why, "%.127s", k->reason);
        snprintf(k->reason, sizeof k->reason, "%s%sevent %llu not reached: "
                 "%s", why, why[0] ? "; " : "",
                 (unsigned long long)target[r],
                 con_pos_text(c, r, &p, pos, sizeof pos));
        struct con_stop *st = &k->stop;
        char *t = NULL;
        if (k->at_bpt && st->len) {
            const char *rep = st->text;
            if (!strncmp(rep, "Continuing.\n", 12))
                rep += 12 + strspn(rep + 12, "\n");
            if (asprintf(&t, "%sevent %llu not reached: %s\n", rep,
                         (unsigned long long)target[r], pos) >= 0) {
                free(st->text);
                st->text = t;
                st->len = strlen(t);
                st->cap = st->len + 1;
            }
        } else if (st->len) {
            st->len = 0;
            st->text[0] = '\0';
        }
    }
    if (!quiet)
        con_print_where(c, set);
    rs_release(&back);
    rs_release(&fwd);
    rs_release(&rerun);
    free(from);
    return rc;
}

int con_goto(struct con *c, const struct rankset *set,
             const uint64_t *target, int quiet)
{
    return go(c, set, target, quiet, 0);
}

int con_goto_or_end(struct con *c, const struct rankset *set,
                    const uint64_t *target, int quiet)
{
    return go(c, set, target, quiet, 1);
}

