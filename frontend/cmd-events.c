/*
 * MPI event commands: goto, next-event, prev-event, until-call (running
 * ranks to events: con-goto.c), events, event, match, queues (the
 * logs, through the event index), sql (queries over them: ev-sql.h),
 * goto-send, goto-collective (following a message or a collective to its
 * partners).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "con.h"
#include "drdb-stub.h"
#include "ev-sql.h"
#include "events.h"
#include "fe.h"

/* Every rank of SET to event N. */
static int goto_one(struct con *c, const struct rankset *set, uint64_t n)
{
    uint64_t *t = calloc((size_t)c->nranks, sizeof *t);
    if (!t)
        return -1;
    for (int r = 0; r < c->nranks; r++)
        t[r] = n;
    int rc = con_goto(c, set, t, 0);
    free(t);
    return rc;
}

static int cmd_goto(struct con *c, struct con_args *a)
{
    uint64_t n;
    if (strncmp(a->text, "finding", 7) == 0 &&
        (a->text[7] == ' ' || !a->text[7]))
        return con_check_goto(c, a->text + 7 + (a->text[7] == ' '),
                              &a->set);
    if (*a->text == '{') {
        /* goto {SELECT rank, seq ...}: each rank to its own event */
        struct rankset set;
        uint64_t *t = calloc((size_t)c->nranks, sizeof *t);
        int rc = -1;
        if (t && con_args_events(c, a, a->text, &set, t) == 0) {
            if (con_runnable(c, &set, a->cmd->flags, a->cmd->name) == 0)
                rc = con_goto(c, &set, t, 0);
            rs_release(&set);
        }
        free(t);
        return rc;
    }
    if (fe_parse_u64(a->text, &n) < 0) {
        fprintf(stderr, "drdb: goto N: which event number?\n");
        return -1;
    }
    return goto_one(c, &a->set, n);
}

/* next-event / prev-event: each rank K events on from where it is. */
static int step_events(struct con *c, struct con_args *a, int dir)
{
    long long k = 1;
    if (*a->text && fe_parse_int(a->text, 0, LLONG_MAX, &k) < 0) {
        fprintf(stderr, "drdb: %s [K]: how many events?\n",
                dir > 0 ? "next-event" : "prev-event");
        return -1;
    }
    uint64_t *t = calloc((size_t)c->nranks, sizeof *t);
    if (!t)
        return -1;
    for (int r = 0; r < c->nranks; r++) {
        if (!rs_has(&a->set, r))
            continue;
        int ok;
        long long cur = con_eval_int(c, r, DRDB_SYM_EVENT, &ok);
        /* Before event cur in the stop hook, the next is cur + 1; stopped
         * between calls (a breakpoint, `next`), cur is not executed yet:
         * it is the next. */
        long long want = cur + dir * k -
                         (dir > 0 && !c->ranks[r]->at_event ? 1 : 0);
        t[r] = want < 0 ? 0 : (uint64_t)want;
    }
    int rc = con_goto(c, &a->set, t, 0);
    free(t);
    return rc;
}

static int cmd_next_event(struct con *c, struct con_args *a)
{
    return step_events(c, a, 1);
}

static int cmd_prev_event(struct con *c, struct con_args *a)
{
    return step_events(c, a, -1);
}

/* until-call NAME: each rank to its next call of NAME, found in its log. */
static int cmd_until_call(struct con *c, struct con_args *a)
{
    const struct log_func_desc *d = *a->text ? log_func_by_name(a->text)
                                             : NULL;
    int ok, rc = 0;
    if (!d) {
        fprintf(stderr, "drdb: until-call MPI_FUNCTION: '%s' is not an MPI "
                "function ('drdb functions' lists them)\n", a->text);
        return -1;
    }
    uint64_t *t = calloc((size_t)c->nranks, sizeof *t);
    struct rankset found;
    if (!t || rs_init(&found, c->nranks) < 0) {
        free(t);
        return -1;
    }
    for (int r = 0; r < c->nranks; r++) {
        if (!rs_has(&a->set, r))
            continue;
        long long cur = con_eval_int(c, r, DRDB_SYM_EVENT, &ok);
        /* From the next event when already stopped before one. */
        uint64_t from = (uint64_t)cur + (c->ranks[r]->at_event ? 1 : 0);
        for (uint64_t n = from; n < c->nevents[r]; n++) {
            struct log_event ev;
            char err[256];
            /* A callback entry is no call of its function. */
            if (ev_fn(c->ev, r, n) == d->id &&
                ev_event(c->ev, r, n, &ev, err, sizeof err) == 0 &&
                !ev_callback_kind(&ev)) {
                t[r] = n;
                rs_add(&found, r);
                break;
            }
        }
        if (!rs_has(&found, r))
            printf("[%d] no more calls of %s in the log\n", r, d->name);
    }
    if (rs_count(&found))
        rc = con_goto(c, &found, t, 0);
    else
        rc = -1;
    rs_release(&found);
    free(t);
    return rc;
}

/* ---- the logs: events, one event, matches, queues ------------------------ */

/* `events` of a rank: the session, whether the rank is inside the event
 * it stands at. */
struct listing {
    struct con *c;
    int inside;
};

/* An event of `events` as its row: a line, or in --json an object. */
static void event_row(void *ud, const struct ev_row *row, int mark)
{
    struct listing *ls = ud;
    struct con *c = ls->c;
    if (mark && ls->inside)
        mark = EV_MARK_INSIDE;
    char *line = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&line, &len);
    if (!f)
        return;
    ev_print_row(f, row, mark);
    fclose(f);
    line[strcspn(line, "\n")] = '\0';
    char rank[16], event[24], bytes[24], dur[32];
    snprintf(rank, sizeof rank, "%d", row->rank);
    snprintf(event, sizeof event, "%llu", (unsigned long long)row->event);
    snprintf(bytes, sizeof bytes, "%llu", (unsigned long long)row->bytes);
    snprintf(dur, sizeof dur, "%.3f", row->dur_us);
    static const char *const keys[] = {"#rank", "#event", "function",
                                       "peer", "tag", "comm", "count",
                                       "#bytes", "#dur_us", "#here",
                                       "#inside"};
    const char *vals[] = {rank, event, row->function, row->peer, row->tag,
                          row->comm, row->count, bytes, dur,
                          mark ? "true" : "false",
                          mark == EV_MARK_INSIDE ? "true" : "false"};
    con_table_row(c, 11, keys, vals, line);
    free(line);
}

/* events [--from N] [--count K] [--call F] [--peer P] [--tag T]: the
 * listing of `drdb log events` (events.h: ev_print_events; its options,
 * fe_events_opt_table), per rank of the set: from N, else around the
 * rank's position (marked "<= here"). */
static int cmd_events(struct con *c, struct con_args *a)
{
    struct fe_events_opts o = {.from = UINT64_MAX, .count = 20, .peer = -1,
                               .tag = -1};
    struct fe_pos pos;
    if (con_args_opts(a, fe_events_opt_table, &o, 0, &pos) < 0)
        return -1;
    if (pos.rest < a->argc) {
        fprintf(stderr, "drdb: events takes no '%s' ('events --help')\n",
                a->argv[pos.rest]);
        return -1;
    }
    struct ev_filter f = {o.call, o.peer, o.tag};
    char err[512];
    struct ev_run *x = con_events(c);
    if (!x)
        return -1;
    if (ev_filter_check(&f, err, sizeof err) < 0) {
        fprintf(stderr, "drdb: %s\n", err);
        return -1;
    }
    uint64_t count = o.count;
    if (!c->json_f)
        ev_print_events_header(stdout);
    for (int r = 0; r < c->nranks; r++) {
        if (!rs_has(&a->set, r))
            continue;
        struct con_pos p;
        con_position(c, r, &p);
        long long cur = p.kind == CON_POS_NONE ? -1 : (long long)p.n;
        struct listing ls = {c, p.kind == CON_POS_INSIDE};
        /* Around the current event by default. */
        uint64_t n = o.from != UINT64_MAX        ? o.from
                     : cur > (long long)(count / 2) ? (uint64_t)cur - count / 2
                                                   : 0;
        if (ev_list_events(x, r, n, count, &f, cur, event_row, &ls,
                           err, sizeof err) < 0) {
            fprintf(stderr, "drdb: %s\n", err);
            return -1;
        }
    }
    fflush(stdout);
    return 0;
}

/* event R:N [--raw] / match R:N: the event index prints it (each of a
 * query's events in rank order). */
static int print_event(struct con *c, struct con_args *a, int match)
{
    struct ev_run *x = con_events(c);
    struct rankset set;
    int rc = 0;
    char err[512];
    uint64_t *ev = calloc((size_t)c->nranks, sizeof *ev);
    if (!x || !ev || con_args_events(c, a, a->text, &set, ev) < 0) {
        free(ev);
        return -1;
    }
    for (int r = 0; r < c->nranks; r++) {
        if (!rs_has(&set, r))
            continue;
        int bad;
        if (match)
            bad = ev_print_match(x, stdout, r, ev[r], err, sizeof err) != 0;
        else
            bad = ev_print_event(x, stdout, r, ev[r],
                                 con_args_opt(a, "--raw") != NULL, err,
                                 sizeof err) < 0;
        if (bad) {
            fprintf(stderr, "drdb: %s\n", err);
            rc = -1;
        }
    }
    rs_release(&set);
    free(ev);
    return rc;
}

static int cmd_event(struct con *c, struct con_args *a)
{
    return print_event(c, a, 0);
}

static int cmd_match(struct con *c, struct con_args *a)
{
    return print_event(c, a, 1);
}

/* queues [R:N | N | {SELECT rank, seq ...}]: at those events, else at
 * each rank's position. */
static int cmd_queues(struct con *c, struct con_args *a)
{
    struct ev_run *x = con_events(c);
    struct rankset set;
    char err[512];
    int rc = 0;
    uint64_t *ev = calloc((size_t)c->nranks, sizeof *ev);
    if (!x || !ev) {
        free(ev);
        return -1;
    }
    if (*a->text) {
        if (con_args_events(c, a, a->text, &set, ev) < 0) {
            free(ev);
            return -1;
        }
    } else if (rs_init(&set, c->nranks) < 0) {
        free(ev);
        return -1;
    } else {
        for (int r = 0; r < c->nranks; r++) {
            if (!rs_has(&a->set, r))
                continue;
            long long cur = con_current_event(c, r);
            if (cur < 0) {
                fprintf(stderr, "drdb: rank %d has no position (not "
                        "replayed, or not stopped): 'queues %d:N' shows its "
                        "queues before its event N\n", r, r);
                rc = -1;
                continue;
            }
            rs_add(&set, r);
            ev[r] = (uint64_t)cur;
        }
    }
    for (int r = 0; r < c->nranks; r++)
        if (rs_has(&set, r) &&
            ev_print_queues(x, stdout, r, ev[r], err, sizeof err) < 0) {
            fprintf(stderr, "drdb: %s\n", err);
            rc = -1;
        }
    rs_release(&set);
    free(ev);
    return rc;
}

/* In --json mode, each row of RES as an object: numbers as numbers, SQL
 * NULL as null. */
static void sql_json_rows(struct con *c, const struct ev_sql_result *res)
{
    int n = res->ncols;
    char **keys = calloc((size_t)n + 1, sizeof *keys);
    const char **vals = calloc((size_t)n + 1, sizeof *vals);
    for (int i = 0; keys && vals && i < n; i++)
        if (!(keys[i] = malloc(strlen(res->names[i]) + 2)))
            n = i;
    for (size_t r = 0; keys && vals && r < res->nrows; r++) {
        for (int i = 0; i < n; i++) {
            const char *v = ev_sql_cell(res, r, i);
            int t = res->types[r * (size_t)res->ncols + (size_t)i];
            int num = !v || t == EV_SQL_INT || t == EV_SQL_REAL;
            snprintf(keys[i], strlen(res->names[i]) + 2, "%s%s",
                     num ? "#" : "", res->names[i]);
            vals[i] = v ? v : "null";
        }
        con_table_row(c, n, (const char *const *)keys, vals, NULL);
    }
    for (int i = 0; keys && i < n; i++)
        free(keys[i]);
    free(keys);
    free(vals);
}

/* sql SELECT ...: one query over the run's tables (docs/queries.md). */
static int cmd_sql(struct con *c, struct con_args *a)
{
    if (!a->text || !*a->text) {
        fprintf(stderr, "drdb: sql needs a query: sql SELECT ... "
                "(docs/queries.md)\n");
        return -1;
    }
    struct ev_sql_result res;
    int rc = con_query_run(c, a->text, &res);
    if (rc == 0 && !c->json_f)
        ev_sql_print(stdout, &res, EV_SQL_TABLE);
    else if (rc == 0)
        sql_json_rows(c, &res);
    ev_sql_result_release(&res);
    return rc;
}

/* ---- following a message or a collective --------------------------------- */

/* The last message rank R received before where it stands: 0 with its
 * event in *N, or -1 after an error. */
static int last_receive(struct con *c, struct ev_run *x, int r, uint64_t *n)
{
    struct ev_ref refs[256];
    char err[512];
    long long cur = con_current_event(c, r);
    *n = EV_NONE;
    for (long long e = cur - 1; e >= 0 && *n == EV_NONE; e--) {
        int k = ev_partners(x, r, (uint64_t)e, refs, 256, err, sizeof err);
        for (int i = 0; i < k && i < 256; i++)
            if (refs[i].kind == EV_K_SEND)
                *n = (uint64_t)e;
    }
    if (*n == EV_NONE) {
        fprintf(stderr, "drdb: rank %d received no message before its "
                "position\n", r);
        return -1;
    }
    printf("[%d] its last receive: event %llu\n", r, (unsigned long long)*n);
    return 0;
}

/* goto-send / goto-collective of rank R's event N: the partners, replayed
 * if needed, run to their calls. KIND: EV_K_SEND or EV_K_COLL. */
static int goto_partners_of(struct con *c, struct ev_run *x, int r,
                            uint64_t n, int kind)
{
    struct rankset todo, start;
    struct ev_ref refs[256];
    char err[512], buf[256];
    int rc;
    int np = ev_partners(x, r, n, refs, 256, err, sizeof err);
    if (np < 0) {
        fprintf(stderr, "drdb: %s\n", err);
        return -1;
    }
    uint64_t *t = calloc((size_t)c->nranks, sizeof *t);
    rs_init(&todo, c->nranks);
    for (int i = 0; t && i < np && i < 256; i++) {
        if (refs[i].kind != kind)
            continue;
        /* goto-collective: the members being replayed; goto-send: the
         * sender, started if it is not replayed yet. */
        if (kind == EV_K_COLL && !c->ranks[refs[i].rank]->gdb)
            continue;
        rs_add(&todo, refs[i].rank);
        t[refs[i].rank] = refs[i].event;
    }
    if (!rs_count(&todo)) {
        fprintf(stderr, "drdb: rank %d's event %llu has no %s%s\n", r,
                (unsigned long long)n,
                kind == EV_K_SEND ? "matching send" : "replayed member",
                kind == EV_K_SEND ? " (not a receive, or it matched none: "
                                    "'match' tells)" : "");
        rs_release(&todo);
        free(t);
        return -1;
    }
    rs_init(&start, c->nranks);
    for (int q = 0; q < c->nranks; q++)
        if (rs_has(&todo, q) && !c->ranks[q]->gdb)
            rs_add(&start, q);
    if (rs_count(&start)) {
        printf("[%s] starting the replay\n", rs_format(&start, buf,
                                                         sizeof buf));
        con_replay(c, &start);
    }
    rc = con_goto(c, &todo, t, 0);
    rs_release(&todo);
    rs_release(&start);
    free(t);
    return rc;
}

/* goto-send R:N / goto-collective R:N (or each event of a query's, in
 * rank order). */
static int goto_partners(struct con *c, struct con_args *a, int kind)
{
    struct ev_run *x = con_events(c);
    struct rankset set;
    uint64_t n;
    if (!x)
        return -1;
    if (!*a->text && kind == EV_K_SEND && rs_count(&a->set) == 1) {
        /* No event given: the last message the rank received. */
        int r = rs_first(&a->set);
        if (last_receive(c, x, r, &n) < 0)
            return -1;
        return goto_partners_of(c, x, r, n, kind);
    }
    uint64_t *ev = calloc((size_t)c->nranks, sizeof *ev);
    if (!ev || con_args_events(c, a, a->text, &set, ev) < 0) {
        free(ev);
        return -1;
    }
    int rc = 0;
    for (int r = 0; r < c->nranks; r++)
        if (rs_has(&set, r) && goto_partners_of(c, x, r, ev[r], kind) < 0)
            rc = -1;
    rs_release(&set);
    free(ev);
    return rc;
}

static int cmd_goto_send(struct con *c, struct con_args *a)
{
    return goto_partners(c, a, EV_K_SEND);
}

static int cmd_goto_collective(struct con *c, struct con_args *a)
{
    return goto_partners(c, a, EV_K_COLL);
}

const struct con_cmd con_cmds_events[] = {
    {"event", NULL, "event RANK:N|{SELECT rank, seq ...} [--raw]",
     "one MPI event in full: arguments, times, status, data", 0, "--raw",
     cmd_event, NULL},
    {"events", NULL, "events [OPTIONS]",
     "the MPI events of the set's ranks (as drdb log events), the "
     "current one marked <= here", 0, NULL, cmd_events,
     fe_events_opt_table},
    {"goto-collective", NULL, "goto-collective RANK:N",
     "every replayed member to the same instance of a collective", 0, NULL,
     cmd_goto_collective, NULL},
    {"goto-send", NULL, "goto-send [RANK:N]",
     "run the sender (started if needed) to the send a receive matched "
     "(no event: @R's last receive)", 0, NULL, cmd_goto_send, NULL},
    {"goto", NULL, "goto N | {SELECT rank, seq ...} | finding K",
     "run to just before MPI event N (from the nearest checkpoint, or the "
     "start); finding K: the replayed ranks to finding K's events",
     CON_NEEDS_RANKS | CON_LAZY_OK, NULL, cmd_goto, NULL},
    {"match", NULL, "match RANK:N|{SELECT rank, seq ...}",
     "the partners of an event: the send of a receive, a collective's "
     "members", 0, NULL, cmd_match, NULL},
    {"next-event", "ne", "next-event [K]",
     "run to just before the K-th next MPI event (default 1)",
     CON_NEEDS_RANKS, NULL, cmd_next_event, NULL},
    {"prev-event", "pe", "prev-event [K]",
     "back to just before the K-th previous MPI event (default 1)",
     CON_NEEDS_RANKS, NULL, cmd_prev_event, NULL},
    {"queues", NULL, "queues [RANK:N|{SELECT rank, seq ...}]",
     "at each rank's position (or before event N): messages sent to it not "
     "yet received, its pending requests", 0, NULL, cmd_queues, NULL},
    {"sql", NULL, "sql SELECT ...",
     "an SQL query over the run's events, matches, collectives, "
     "communicators (docs/queries.md)", 0, NULL, cmd_sql, NULL},
    {"until-call", NULL, "until-call MPI_FUNCTION",
     "run to just before the next call of an MPI function",
     CON_NEEDS_RANKS, NULL, cmd_until_call, NULL},
    {NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL},
};
