/*
 * Session commands: status, replay, drop, focus, defset, expand, quit, set.
 * (help and source are the dispatcher's, con-cmd.c.)
 */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "con.h"
#include "drdb-stub.h"
#include "events.h"

/* status [@SET]: the set's ranks (by default the focus and every other
 * rank replayed), each with its state, event and where. */
static int cmd_status(struct con *c, struct con_args *a)
{
    struct rankset set;
    if (rs_init(&set, c->nranks) < 0)
        return -1;
    rs_copy(&set, &a->set);
    int focus = 1;
    for (int r = 0; r < c->nranks; r++)
        focus &= rs_has(&a->set, r) == rs_has(&c->focus, r);
    if (focus)
        for (int r = 0; r < c->nranks; r++)
            if (c->ranks[r]->gdb || c->ranks[r]->state != CON_OFF ||
                c->ranks[r]->killed)
                rs_add(&set, r);
    /* With remote ranks, each rank's host ("local": here). */
    int hosts = c->nhosts > 0;
    char buf[256];
    if (!c->json_f && hosts)
        printf("%-5s %-12s %-22s %-15s %s\n", "rank", "state", "event",
               "host", "where");
    else if (!c->json_f)
        printf("%-5s %-12s %-22s %s\n", "rank", "state", "event", "where");
    /* Many ranks not started: one line for them (but a row each in
     * JSON). */
    struct rankset later;
    rs_init(&later, c->nranks);
    for (int r = 0; r < c->nranks; r++)
        if (rs_has(&set, r) && c->ranks[r]->state == CON_DEFERRED)
            rs_add(&later, r);
    if (c->json_f || rs_count(&later) <= 16)
        rs_clear(&later);
    for (int r = 0; r < c->nranks; r++) {
        struct con_rank *k = c->ranks[r];
        if (!rs_has(&set, r) || rs_has(&later, r) ||
            (!k->gdb && k->state == CON_OFF && !k->killed &&
             rs_count(&set) > 16))
            continue;
        con_stub_failure(c, k);
        int at = con_rank_halted(k);
        char ev[64];
        const char *fn = "";
        unsigned long long total = c->nevents[r];
        struct con_pos p;
        con_position(c, r, &p);
        /* where it stands (docs/console.md, "Where a rank stands") */
        switch (p.kind) {
        case CON_POS_BEFORE:
            snprintf(ev, sizeof ev, "before %llu/%llu",
                     (unsigned long long)p.n, total);
            break;
        case CON_POS_INSIDE:
            snprintf(ev, sizeof ev, "inside %llu/%llu",
                     (unsigned long long)p.n, total);
            break;
        case CON_POS_BETWEEN:
            if (p.n)
                snprintf(ev, sizeof ev, "after %llu/%llu",
                         (unsigned long long)p.n - 1, total);
            else
                snprintf(ev, sizeof ev, "before 0/%llu", total);
            break;
        case CON_POS_END:
            snprintf(ev, sizeof ev, "end %llu/%llu", total, total);
            break;
        default:
            if (k->gdb && k->state == CON_RUNNING && k->last_event >= 0)
                snprintf(ev, sizeof ev, ">=%lld/%llu", k->last_event,
                         total);
            else
                snprintf(ev, sizeof ev, "-/%llu", total);
        }
        if ((p.kind == CON_POS_BEFORE || p.kind == CON_POS_INSIDE) &&
            p.n < total && k->state != CON_DEFERRED)
            fn = log_func_name(ev_fn(con_events(c), r, p.n));
        const char *state = k->state == CON_OFF && k->killed
                                ? "killed"
                                : con_state_name(k->state);
        char where[1024], line[1600], num[16];
        /* (an event's stop: its position is the event column's) */
        const char *why = k->at_event ? "" : k->reason;
        snprintf(where, sizeof where, "%s%s%s%s%s", at ? k->where : k->reason,
                 *fn ? " in " : "", fn, at && why[0] ? ", " : "",
                 at ? why : "");
        if (k->state == CON_DEFERRED)
            snprintf(where, sizeof where, "its GDB starts when a command "
                     "needs it");
        const char *host = k->host >= 0 ? c->hosts[k->host].name : "local";
        if (hosts)
            snprintf(line, sizeof line, "%-5d %-12s %-22s %-15s %s", r, state,
                     ev, host, where);
        else
            snprintf(line, sizeof line, "%-5d %-12s %-22s %s", r, state, ev,
                     where);
        snprintf(num, sizeof num, "%d", r);
        static const char *const keys[] = {"#rank", "state", "event",
                                           "host", "where"};
        const char *vals[] = {num, state, ev, host, where};
        static const char *const keys4[] = {"#rank", "state", "event",
                                            "where"};
        const char *vals4[] = {num, state, ev, where};
        if (hosts)
            con_table_row(c, 5, keys, vals, line);
        else
            con_table_row(c, 4, keys4, vals4, line);
        char sh[256];
        con_shadow_status(c, r, sh, sizeof sh);
        if (sh[0])
            printf("      %s\n", sh);
    }
    if (rs_count(&later))
        printf("%s (%d ranks): not started, each before its event 0; its "
               "GDB starts when a command needs it ('replay @SET' starts "
               "ranks now)\n", rs_format(&later, buf, sizeof buf),
               rs_count(&later));
    rs_release(&later);
    rs_release(&set);
    fflush(stdout);
    return 0;
}

static int cmd_replay(struct con *c, struct con_args *a)
{
    struct rankset s;
    if (con_args_set(c, a, a->text, &s) < 0)
        return -1;
    int rc = con_replay(c, &s);
    con_print_where(c, &s);
    rs_release(&s);
    return rc;
}

static int cmd_drop(struct con *c, struct con_args *a)
{
    struct rankset s;
    if (con_args_set(c, a, a->text, &s) < 0)
        return -1;
    con_drop(c, &s);
    rs_release(&s);
    return 0;
}

static int cmd_focus(struct con *c, struct con_args *a)
{
    char buf[256];
    if (*a->text) {
        struct rankset t;
        if (con_args_set(c, a, a->text, &t) < 0)
            return -1;
        rs_copy(&c->focus, &t);
        rs_release(&t);
    }
    printf("focus: %s\n", rs_format(&c->focus, buf, sizeof buf));
    return 0;
}

static int cmd_defset(struct con *c, struct con_args *a)
{
    char name[65];
    const char *def;
    con_args_word(a, name, sizeof name, &def);
    if (!*name || strlen(name) >= 64 || !*def ||
        !(isalpha((unsigned char)name[0]) || name[0] == '_')) {
        fprintf(stderr, "drdb: defset NAME SET, e.g. defset bad 3,7\n");
        return -1;
    }
    struct rankset t;
    if (rs_init(&t, c->nranks) < 0)
        return -1;
    if (con_named_set(c, name, &t) == 0) {
        int builtin = 1;
        for (int i = 0; i < c->nsets; i++)
            builtin &= strcmp(c->sets[i].name, name) != 0;
        if (builtin) {
            fprintf(stderr, "drdb: '%s' is a built-in set\n", name);
            rs_release(&t);
            return -1;
        }
    }
    rs_release(&t);
    if (con_args_set(c, a, def, &t) < 0)
        return -1;
    int rc = con_define_set(c, name, &t);
    rs_release(&t);
    return rc;
}

/* expand [RANKSET]: each rank's own answer behind the last merged one. */
static int cmd_expand(struct con *c, struct con_args *a)
{
    struct rankset only;
    if (con_args_set(c, a, a->text, &only) < 0)
        return -1;
    if (!c->nlast)
        printf("nothing to expand: no merged answer yet\n");
    for (int i = 0; i < c->nlast; i++)
        if (c->last[i].text && (!*a->text || rs_has(&only, c->last[i].rank)))
            printf("[%d] %s\n", c->last[i].rank, c->last[i].text);
    rs_release(&only);
    return 0;
}

static int cmd_quit(struct con *c, struct con_args *a)
{
    (void)a;
    c->quit = 1;
    return 0;
}

/* Every option of `set` of the session's own: its usage message and
 * `help set` (every other is GDB's). */
#define SET_OPTIONS                                                        \
    "set merge on|off | prefix on|off | timing on|off"                     \
    " | output-color on|off | groups N | width N | timeout MS | checkpoint-interval S|off"       \
    " | checkpoint-every N|off | GDB's: var EXPR = VALUE, print pretty on,"\
    " ..."

static int set_usage(void)
{
    fprintf(stderr, "drdb: " SET_OPTIONS "\n");
    return -1;
}

/* set width N: every rank that can take it, and every rank started
 * later. */
static int set_width(struct con *c, long long n)
{
    char cli[64];
    struct rankset all;
    snprintf(cli, sizeof cli, "set width %lld", n);
    c->width = n; /* for the GDBs started later (con-rank.c) */
    rs_init(&all, c->nranks);
    for (int r = 0; r < c->nranks; r++)
        if (c->ranks[r]->gdb && c->ranks[r]->state != CON_LOST &&
            c->ranks[r]->state != CON_RUNNING)
            rs_add(&all, r);
    int rc = rs_count(&all) ? con_passthrough(c, &all, cli) : 0;
    rs_release(&all);
    return rc;
}

/* A GDB setting (set print pretty on) on the set's ranks; the session
 * keeps it for their GDBs started later (con_gdb_keep_set). Settings drdb
 * owns, or that would break the session, are refused. */
static int set_gdb(struct con *c, struct con_args *a, const char *w)
{
    const char *why = con_gdb_caught_set(w, strlen(w));
    if (why) {
        fprintf(stderr, "drdb: 'set %s' is not passed to the ranks' GDBs: "
                "%s\n", w, why);
        return -1;
    }
    if (con_runnable(c, &a->set, CON_NEEDS_RANKS | CON_NEEDS_STOPPED,
                     "set") < 0)
        return -1;
    char cli[4200];
    snprintf(cli, sizeof cli, "set %s", a->text);
    int rc = con_passthrough(c, &a->set, cli);
    /* variables are the program's state; settings the session's */
    if (rc == 0 && strcmp(w, "var") != 0 && strcmp(w, "variable") != 0 &&
        w[0] != '$' && !strchr(w, '='))
        con_gdb_keep_set(c, cli);
    return rc;
}

static int cmd_set(struct con *c, struct con_args *a)
{
    char w[64];
    const char *val;
    long long n;
    con_args_word(a, w, sizeof w, &val);
    if (!*w)
        return set_usage();
    /* set var X = V, and GDB's convenience variables: set $i = 0 */
    if (strcmp(w, "var") == 0 || strcmp(w, "variable") == 0 || w[0] == '$')
        return set_gdb(c, a, w);
    if (!*val && (!strcmp(w, "merge") || !strcmp(w, "prefix") ||
                  !strcmp(w, "timing") || !strcmp(w, "output-color") ||
                  !strcmp(w, "groups") ||
                  !strcmp(w, "width") || !strcmp(w, "timeout")))
        return set_usage();
    /* the session's on|off settings */
    int *sw = strcmp(w, "merge") == 0    ? &c->merge
              : strcmp(w, "prefix") == 0 ? &c->prefix
              : strcmp(w, "timing") == 0 ? &c->timing
              : strcmp(w, "output-color") == 0 ? &c->color
                                         : NULL;
    if (sw) {
        if (fe_parse_onoff(val, sw) < 0) {
            fprintf(stderr, "drdb: set %s on|off\n", w);
            return -1;
        }
        return 0;
    }
    if (strcmp(w, "groups") == 0 || strcmp(w, "width") == 0 ||
        strcmp(w, "timeout") == 0) {
        if (fe_parse_int(val, 0, INT_MAX, &n) < 0) {
            fprintf(stderr, "drdb: set %s %s: a number\n", w,
                    strcmp(w, "timeout") == 0 ? "MS" : "N");
            return -1;
        }
        if (strcmp(w, "width") == 0)
            return set_width(c, n);
        *(strcmp(w, "groups") == 0 ? &c->max_groups : &c->timeout_ms) = (int)n;
        return 0;
    }
    if (strcmp(w, "checkpoint-interval") == 0 ||
        strcmp(w, "checkpoint-every") == 0)
        return con_ckpt_set(c, w, val);
    return set_gdb(c, a, w);
}

const struct con_cmd con_cmds_session[] = {
    {"defset", NULL, "defset NAME SET", "name a rank set (then @NAME)",
     CON_SET_ARG, NULL, cmd_defset, NULL},
    {"drop", NULL, "drop [@SET]", "end the replay of the ranks of the set",
     0, NULL, cmd_drop, NULL},
    {"expand", NULL, "expand [SET]",
     "each rank's own answer behind the last merged one", CON_SET_ARG,
     NULL, cmd_expand, NULL},
    {"focus", NULL, "focus [SET]",
     "the ranks later commands go to (the prompt shows it)", CON_SET_ARG,
     NULL, cmd_focus, NULL},
    {"quit", "q", "quit", "end the session (and every replay)", 0, ".",
     cmd_quit, NULL},
    {"replay", NULL, "replay [@SET]",
     "start the replay of the ranks of the set, stopped at main", 0, NULL,
     cmd_replay, NULL},
    {"set", NULL, "set var X = V | OPTION VALUE",
     "assign a variable, or a session option: " SET_OPTIONS, 0, NULL,
     cmd_set, NULL},
    {"status", NULL, "status",
     "each rank: state, where it stands in its log (before, inside or "
     "after event N of total), where in the program", 0,
     ".", cmd_status, NULL},
    {NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL},
};
