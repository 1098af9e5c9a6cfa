/*
 * bisect @R COND [--from N] [--to M] [--events {SELECT rank, seq ...}]: the
 * first MPI event of rank R before which the GDB expression COND is true,
 * assuming it stays true once it is (docs/console.md, "Bisect").
 *
 * A binary search over event positions: a probe runs the rank to just
 * before an event (con_goto, quietly) and evaluates COND in the program's
 * frame there. The first probe, at the last candidate, runs the whole
 * range once with automatic checkpoints in the stub every range/32 events;
 * every later probe is then a rollback to the checkpoint nearest before
 * its event plus a run shorter than that interval; Ctrl-C is taken
 * between two of them. The user's breakpoints
 * are disabled meanwhile (a probe must reach its event), and enabled again
 * after.
 *
 * A search that fails (a condition GDB rejects, no event where it holds,
 * Ctrl-C, the timeout) leaves the rank where it stood and none of its
 * checkpoints: a checkpoint taken there first is rolled back to, then it
 * and every later one are forgotten; when a probe re-ran the rank from
 * the start of its log (that process and its checkpoints are gone), the
 * rank is run again to the event it stood before.
 */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "args.h"
#include "con.h"
#include "drdb-stub.h"
#include "events.h"

/* How many automatic checkpoints the first pass over the range takes. */
#define BISECT_CKPTS 32

struct bisect {
    struct con *c;
    int r;
    const char *cond;
    char *mi;               /* -data-evaluate-expression "(COND) != 0" */
    uint64_t from;          /* the candidates: FROM + i, i < N ... */
    uint64_t *seqs;         /* ... or SEQS[i] (--events) */
    size_t n;
    uint64_t *target;       /* con_goto's, nranks long */
    int probes;
    int guard;              /* Ctrl-C waits for the end of a probe */
    int64_t t0, shown;
    char where[2][600];     /* the last false (0) and first true (1) */
    /* where the rank stood (halted: stopped, diverged, at the end of its
     * log), to come back to when the search fails */
    int halted, at_event;
    long long event;
    long home;              /* the checkpoint taken there, or 0 */
    pid_t pid;              /* in that process */
    char home_where[256], home_reason[256];
};

static uint64_t pos(const struct bisect *b, size_t i)
{
    return b->seqs ? b->seqs[i] : b->from + i;
}

/* The rank of B to before candidate I; COND there: 1 true, 0 false, -1
 * after an error (reported), -2 when Ctrl-C or the timeout stopped it.
 * WHERE (when not NULL) gets the program's frame and the event. */
static int probe(struct bisect *b, size_t i, char *where, size_t len)
{
    struct con *c = b->c;
    struct con_rank *k = c->ranks[b->r];
    struct rankset one;
    uint64_t ev = pos(b, i);
    if (rs_init(&one, c->nranks) < 0)
        return -1;
    rs_add(&one, b->r);
    b->target[b->r] = ev;
    /* A probe of the search is a rollback and a short run: Ctrl-C is
     * taken after it (search() sees it), never in the middle of a
     * rollback, so the rank stops at a probe's event. (GDBs started
     * meanwhile unblock it: mi_gdb_start.) */
    sigset_t intr, old;
    sigemptyset(&intr);
    sigaddset(&intr, SIGINT);
    if (b->guard)
        sigprocmask(SIG_BLOCK, &intr, &old);
    int rc = con_goto(c, &one, b->target, 1);
    if (b->guard)
        sigprocmask(SIG_SETMASK, &old, NULL);
    rs_release(&one);
    b->probes++;
    if (c->interrupted)
        return -2;
    if (rc < 0 || k->state != CON_STOPPED || !k->at_event ||
        con_current_event(c, b->r) != (long long)ev) {
        fprintf(stderr, "drdb: bisect: rank %d did not reach event %llu: "
                "%s%s%s\n", b->r, (unsigned long long)ev,
                con_state_name(k->state), k->reason[0] ? ": " : "",
                k->reason);
        return -1;
    }
    if (where)
        snprintf(where, len, "%s, %s", k->reason, k->where);
    struct mi_reply rep;
    long long v = 0;
    int st = mi_gdb_exec_sync(k->gdb, b->mi, &rep, 10000);
    if (st != 0 || mi_get_int(rep.record, "value", &v) < 0) {
        const char *m = st != 0 && rep.message ? rep.message
                                               : "not a truth value";
        size_t ml = strlen(m);
        fprintf(stderr, "drdb: bisect: '%s' on rank %d before event %llu: "
                "%.*s: give a GDB expression valid in the program's frame at "
                "every event it tries\n", b->cond, b->r,
                (unsigned long long)ev,
                (int)(ml && m[ml - 1] == '.' ? ml - 1 : ml), m);
        mi_reply_release(&rep);
        return -1;
    }
    mi_reply_release(&rep);
    return v != 0;
}

/* Disables (ON 0) or enables again (ON 1) the user's enabled breakpoints
 * on rank R. */
static void user_bpts(struct con *c, int r, int on)
{
    for (int i = 0; i < c->nbpts; i++) {
        const struct con_bpt *p = &c->bpts[i];
        if (!p->enabled || !p->gdbno || !p->gdbno[r])
            continue;
        char mi[64];
        struct mi_reply rep;
        snprintf(mi, sizeof mi, "%s %d",
                 on ? "-break-enable" : "-break-disable", p->gdbno[r]);
        mi_gdb_exec_sync(c->ranks[r]->gdb, mi, &rep, 10000);
        mi_reply_release(&rep);
    }
}

/* Every few seconds, how far the search is (stderr). */
static void progress(struct bisect *b, size_t lo, size_t hi)
{
    int64_t now = mi_now_ms();
    if (now - b->t0 < 2000 || now - b->shown < 2000)
        return;
    b->shown = now;
    fprintf(stderr, "drdb: bisect: %d probes, %.1f s: between events %llu "
            "and %llu\n", b->probes, (double)(now - b->t0) / 1000,
            (unsigned long long)pos(b, lo), (unsigned long long)pos(b, hi));
}

/* The binary search over candidates LO (COND false) and HI (true). 0, -1
 * after an error, -2 stopped: *LO and *HI are where it stands. */
static int search(struct bisect *b, size_t *lo, size_t *hi)
{
    struct con *c = b->c;
    while (*hi - *lo > 1) {
        if (con_sigint) {
            con_sigint = 0;
            c->interrupted = 1;
        }
        if (c->interrupted ||
            (c->timeout_ms > 0 && mi_now_ms() - b->t0 > c->timeout_ms))
            return -2;
        size_t mid = *lo + (*hi - *lo) / 2;
        char where[600];
        int v = probe(b, mid, where, sizeof where);
        if (v < 0)
            return v;
        *(v ? hi : lo) = mid;
        snprintf(b->where[v], sizeof b->where[v], "%s", where);
        progress(b, *lo, *hi);
    }
    return 0;
}

/* Whether checkpoint ID of rank R is in its process. */
static int has_ckpt(struct con *c, int r, long id)
{
    struct con_ckpt *v = NULL;
    int n = con_ckpt_list(c, r, &v), found = 0;
    for (int i = 0; i < n; i++)
        found |= v[i].id[0] != 's' && v[i].num == id;
    free(v);
    return found;
}

/* After a failed search: rank R back where it stood, the checkpoints it
 * took forgotten. Ctrl-C waits meanwhile (a second one must not leave the
 * rank half-way): the search was stopped already. */
static void go_home_now(struct bisect *b);
static void go_home(struct bisect *b)
{
    sigset_t intr, old;
    int was = b->c->interrupted;
    sigemptyset(&intr);
    sigaddset(&intr, SIGINT);
    sigprocmask(SIG_BLOCK, &intr, &old);
    b->c->interrupted = 0;
    go_home_now(b);
    b->c->interrupted = was;
    con_sigint = 0;
    sigprocmask(SIG_SETMASK, &old, NULL);
}

static void go_home_now(struct bisect *b)
{
    struct con *c = b->c;
    struct con_rank *k = c->ranks[b->r];
    int r = b->r;
    char id[32];
    if (!k->gdb || !con_rank_halted(k))
        return;
    if (b->home && con_inferior_pid(c, r) == b->pid &&
        has_ckpt(c, r, b->home)) {
        /* the same process: to the checkpoint taken where it stood */
        snprintf(id, sizeof id, "%ld", b->home);
        if (con_ckpt_roll(c, r, id, NULL) == 0) {
            snprintf(k->where, sizeof k->where, "%s", b->home_where);
            snprintf(k->reason, sizeof k->reason, "%s", b->home_reason);
            k->at_event = b->at_event;
            if (k->at_event)
                con_select_user_frame(c, k);
        }
        con_ckpt_forget_since(c, r, b->home);
        return;
    }
    /* A probe re-ran it: every checkpoint of this process is the
     * search's. To its event again (at main: main). */
    struct rankset one;
    if (rs_init(&one, c->nranks) < 0)
        return;
    rs_add(&one, r);
    if (b->halted && b->event == 0 && !b->at_event) {
        con_drop(c, &one);
        con_replay(c, &one);
    } else if (b->halted) {
        b->target[r] = (uint64_t)b->event;
        con_goto(c, &one, b->target, 1);
        if (!b->at_event)
            fprintf(stderr, "drdb: bisect: rank %d stood between two MPI "
                    "calls: it is back before the next one, event %lld\n",
                    r, b->event);
    }
    rs_release(&one);
    if (k->gdb && con_rank_halted(k))
        con_ckpt_forget_since(c, r, 1);
}

static void no_checkpoints(int r)
{
    fprintf(stderr, "drdb: bisect needs checkpoints on rank %d: a "
            "single-threaded process, and a console started without "
            DRDB_ENV_CKPT "=off (docs/checkpoints.md)\n", r);
}

/* The checks at both ends, the first pass taking checkpoints, the search;
 * the report. */
static int run(struct bisect *b)
{
    struct con *c = b->c;
    int r = b->r, ok, rc, v;
    size_t lo = 0, hi = b->n - 1;
    struct con_rank *rk = c->ranks[r];
    long long every = 0;
    int every_set = 0;
    char e[96];
    /* Where it stands: a checkpoint there (it says whether the rank can
     * take them at all), to come back to if the search fails. */
    b->halted = rk->gdb && con_rank_halted(rk);
    if (b->halted) {
        b->event = con_current_event(c, r);
        b->at_event = rk->at_event;
        snprintf(b->home_where, sizeof b->home_where, "%s", rk->where);
        snprintf(b->home_reason, sizeof b->home_reason, "%s", rk->reason);
        b->pid = con_inferior_pid(c, r);
        if ((b->home = con_ckpt_take(c, r)) < 0) {
            no_checkpoints(r);
            b->home = 0;
            return -1;
        }
    }
    v = probe(b, lo, b->where[0], sizeof b->where[0]);
    if (v == 1)
        fprintf(stderr, "drdb: bisect: '%s' is true already before event "
                "%llu, the first it tries: nothing to bisect (an earlier "
                "--from?)\n", b->cond, (unsigned long long)pos(b, lo));
    if (v != 0) {
        rc = v == -2 ? -2 : -1;
        goto out;
    }
    /* Here, a checkpoint: it says whether a rank started by the first
     * probe can take them (and is where probes before the first automatic
     * one start). */
    if (con_ckpt_take(c, r) < 0) {
        no_checkpoints(r);
        rc = -1;
        goto out;
    }
    every = con_eval_int(c, r, DRDB_SYM_CKPT_EVERY, &ok);
    every_set = 1;
    uint64_t span = pos(b, hi) - pos(b, lo), k = span / BISECT_CKPTS;
    snprintf(e, sizeof e, DRDB_SYM_CKPT_EVERY " = %llu",
             (unsigned long long)(k ? k : 1));
    con_eval_int(c, r, e, &ok);
    v = probe(b, hi, b->where[1], sizeof b->where[1]);
    if (v == 0)
        fprintf(stderr, "drdb: bisect: '%s' is still false before event "
                "%llu, the last it tries: nothing to find (a later --to?)\n",
                b->cond, (unsigned long long)pos(b, hi));
    b->guard = 1;
    rc = v == 1 ? search(b, &lo, &hi) : v == 0 ? -1 : v;
    /* The rank is left before the first event COND holds at. */
    if (rc == 0 && con_current_event(c, r) != (long long)pos(b, hi) &&
        probe(b, hi, NULL, 0) != 1)
        rc = -1;
out:
    /* (A rollback brought the first pass's value back.) */
    if (every_set && rk->gdb && con_rank_halted(rk)) {
        snprintf(e, sizeof e, DRDB_SYM_CKPT_EVERY " = %lld", every);
        con_eval_int(c, r, e, &ok);
    }
    if (rc != 0)
        go_home(b);
    if (rc == -1 && b->halted)
        fprintf(stderr, "drdb: bisect: rank %d is back where it stood, "
                "without the checkpoints the search took\n", r);
    double s = (double)(mi_now_ms() - b->t0) / 1000;
    if (rc == 0) {
        printf("bisect: rank %d: '%s'\n  first true: %s\n  last false: %s\n"
               "  %d probes, %.2f s; rank %d stopped before event %llu\n",
               r, b->cond, b->where[1], b->where[0], b->probes, s, r,
               (unsigned long long)pos(b, hi));
    } else if (rc == -2) {
        fprintf(stderr, "drdb: bisect %s after %d probes (%.1f s): the "
                "first event is after %llu, at most %llu; rank %d is back "
                "where it was:\n", c->interrupted ? "interrupted" :
                "timed out", b->probes, s, (unsigned long long)pos(b, lo),
                (unsigned long long)pos(b, hi), r);
    }
    return rc;
}

/* The candidates from the options: the range, or the query's events in
 * it. 0, or -1 (reported). */
static int candidates(struct bisect *b, const struct con_args *a,
                      const char *query)
{
    struct con *c = b->c;
    uint64_t nev = c->nevents[b->r];
    long long v[2] = {0, nev ? (long long)nev - 1 : 0};
    const char *names[2] = {"--from", "--to"};
    for (int i = 0; i < 2; i++) {
        const char *val = con_args_opt(a, names[i]);
        if (val && (fe_parse_int(val, 0, LLONG_MAX, &v[i]) < 0 ||
                    (uint64_t)v[i] >= nev)) {
            fprintf(stderr, "drdb: bisect %s N: an event of rank %d (0-%llu), "
                    "not '%s'\n", names[i], b->r,
                    (unsigned long long)(nev ? nev - 1 : 0), val);
            return -1;
        }
    }
    if (query) {
        size_t m = 0;
        if (con_query_seqs(c, query, strlen(query), b->r, &b->seqs, &b->n) <
            0)
            return -1;
        for (size_t i = 0; i < b->n; i++)
            if (b->seqs[i] >= (uint64_t)v[0] && b->seqs[i] <= (uint64_t)v[1])
                b->seqs[m++] = b->seqs[i];
        b->n = m;
    } else {
        b->from = (uint64_t)v[0];
        b->n = v[1] >= v[0] ? (size_t)(v[1] - v[0] + 1) : 0;
    }
    if (b->n < 2) {
        fprintf(stderr, "drdb: bisect: %zu event%s of rank %d to try (from "
                "%lld to %lld%s): it needs two at least\n", b->n,
                b->n == 1 ? "" : "s", b->r, v[0], v[1],
                query ? ", of the query's" : "");
        return -1;
    }
    return 0;
}

/* TEXT's last word when it is a query, "{SELECT ...}" or "{WITH ...}":
 * where it starts, or NULL. */
static const char *trailing_query(const char *text)
{
    const char *last = NULL;
    for (const char *w = text + strspn(text, " \t"); *w;
         w += strspn(w, " \t")) {
        last = w;
        w += con_word_len(w);
    }
    if (!last || *last != '{' || con_brace_len(last) != strlen(last))
        return NULL;
    const char *s = last + 1 + strspn(last + 1, " \t\n");
    return !strncasecmp(s, "SELECT", 6) || !strncasecmp(s, "WITH", 4) ? last
                                                                       : NULL;
}

static int cmd_bisect(struct con *c, struct con_args *a)
{
    struct bisect b = {.c = c, .r = rs_first(&a->set), .t0 = mi_now_ms()};
    if (rs_count(&a->set) != 1) {
        fprintf(stderr, "drdb: bisect works on one rank: bisect @R COND\n");
        return -1;
    }
    /* COND: the text, without a trailing query */
    const char *query = con_args_opt(a, "--events");
    const char *tq = query ? NULL : trailing_query(a->text);
    char *cond = strndup(a->text, tq ? (size_t)(tq - a->text) : strlen(a->text));
    size_t cl = cond ? strlen(cond) : 0;
    while (cl && (cond[cl - 1] == ' ' || cond[cl - 1] == '\t'))
        cond[--cl] = '\0';
    if (tq)
        query = tq;
    if (query && (*query != '{' || con_brace_len(query) != strlen(query))) {
        fprintf(stderr, "drdb: bisect --events {SELECT rank, seq FROM ...}: "
                "not '%s'\n", query);
        free(cond);
        return -1;
    }
    if (!cond || !*cond) {
        fprintf(stderr, "drdb: bisect @R COND: which condition? (a GDB "
                "expression, e.g. 'x > 1e3')\n");
        free(cond);
        return -1;
    }
    b.cond = cond;
    char expr[4200];
    snprintf(expr, sizeof expr, "(%s) != 0", cond);
    b.mi = con_mi_arg("-data-evaluate-expression", expr);
    b.target = calloc((size_t)c->nranks, sizeof *b.target);
    int rc = -1;
    if (b.mi && b.target && candidates(&b, a, query) == 0) {
        user_bpts(c, b.r, 0);
        rc = run(&b);
        if (c->ranks[b.r]->gdb)
            user_bpts(c, b.r, 1);
        if (rc == -2) {
            struct rankset one;
            if (rs_init(&one, c->nranks) == 0) {
                rs_add(&one, b.r);
                con_print_where(c, &one);
                rs_release(&one);
            }
            rc = -1;
        }
    }
    fflush(stdout);
    free(b.mi);
    free(b.target);
    free(b.seqs);
    free(cond);
    return rc;
}

const struct con_cmd con_cmds_bisect[] = {
    {"bisect", NULL, "bisect @R COND [--from N] [--to M] [{SELECT rank, "
     "seq ...}]",
     "the first event of rank R before which GDB's COND holds (binary "
     "search with checkpoints; docs/console.md)", CON_NEEDS_RANKS,
     "--from= --to= --events=", cmd_bisect, NULL},
    {NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL},
};
