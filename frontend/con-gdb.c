/*
 * GDB by default: a command the console does not define is GDB's. It goes
 * to each rank of its set as a CLI command (-interpreter-exec console), and
 * the ranks' answers are merged like every other answer, in GDB's words
 * (its breakpoint numbers the session's).
 *
 * Which GDB command a word names is GDB's own answer: the names and aliases
 * of its `help all`, asked once of the first rank's GDB, and its rule (an
 * exact name or alias, else a unique prefix). The GDB commands that would
 * break the session if passed raw (run, attach, file, quit, set confirm,
 * ...) are caught first: each has a drdb meaning or a refusal that says
 * what to use instead (docs/console.md, "GDB by default").
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "con.h"
#include "util.h"

/* GDB's top-level commands: each name or alias, with its command's first
 * name (its canonical one). */
struct con_gdbcmd {
    char *name;
    const char *canon; /* the entry's own name when it is the canonical */
};

/* A GDB command caught before it reaches GDB: DRDB, the console command
 * that gives it its drdb meaning, or WHY it is refused. */
static const struct {
    const char *gdb, *drdb, *why;
} caught[] = {
    {"run", "run", NULL},
    {"start", "restart", NULL},
    {"starti", NULL, "a replayed rank starts at main: 'restart' re-runs it "
     "there, 'goto 0' stops it before its first MPI call"},
    {"attach", NULL, "the ranks are drdb's replays: 'replay @SET' starts "
     "ranks"},
    {"detach", NULL, "'drop @SET' ends ranks' replays; 'quit' the session"},
    {"disconnect", NULL, "'drop @SET' ends ranks' replays"},
    {"target", NULL, "the ranks are drdb's replays, local or on their hosts"},
    {"file", NULL, "the program is the recorded one: 'drdb console RUNDIR "
     "-- PROGRAM' replays another build"},
    {"exec-file", NULL, "the program is the recorded one: 'drdb console "
     "RUNDIR -- PROGRAM' replays another build"},
    {"core-file", NULL, "a core file is not a replay: 'gdb PROGRAM CORE' "
     "outside drdb"},
    {"add-inferior", NULL, "one replay per rank: 'replay @SET' adds ranks"},
    {"clone-inferior", NULL, "one replay per rank: 'replay @SET' adds "
     "ranks"},
    {"remove-inferiors", NULL, "'drop @SET' ends ranks' replays"},
    {"inferior", NULL, "one replay per rank: '@R COMMAND' runs a command on "
     "rank R"},
    {"tty", NULL, "each rank's output comes here, tagged with its rank"},
    {"new-ui", NULL, "drdb drives each GDB's one interface"},
    {"interpreter-exec", NULL, "drdb drives each GDB through MI: type the "
     "command itself"},
    {"shell", NULL, "not run through the ranks' GDBs: use a terminal"},
    {"pipe", NULL, "not run through the ranks' GDBs"},
    {"make", NULL, "not run through the ranks' GDBs: use a terminal"},
    {"record", NULL, "a replay is recorded already: 'goto N', 'prev-event' "
     "and 'rollback' go back"},
    {"reverse-continue", NULL, "not yet: 'prev-event', 'goto N' and "
     "'rollback' go back by MPI events"},
    {"reverse-next", NULL, "not yet: 'prev-event', 'goto N' and 'rollback' "
     "go back by MPI events"},
    {"reverse-step", NULL, "not yet: 'prev-event', 'goto N' and 'rollback' "
     "go back by MPI events"},
    {"reverse-finish", NULL, "not yet: 'prev-event', 'goto N' and "
     "'rollback' go back by MPI events"},
    {"reverse-nexti", NULL, "not yet: 'prev-event' goes back by MPI "
     "events"},
    {"reverse-stepi", NULL, "not yet: 'prev-event' goes back by MPI "
     "events"},
    {"python-interactive", NULL, "no interactive interpreter through the "
     "ranks' GDBs: 'python STATEMENT' runs one"},
    {"guile-repl", NULL, "no interactive interpreter through the ranks' "
     "GDBs"},
};

/* GDB settings (`set NAME ...`) the console owns or that would break the
 * session: WHY they are refused. */
static const struct {
    const char *name, *why;
} caught_set[] = {
    {"confirm", "drdb answers for GDB: it never asks"},
    {"pagination", "drdb pages nothing: its output is a terminal's"},
    {"height", "drdb pages nothing: its output is a terminal's"},
    {"mi-async", "drdb drives each GDB asynchronously"},
    {"non-stop", "drdb stops each rank whole"},
    {"target-async", "drdb drives each GDB asynchronously"},
    {"args", "a rank replays with its recorded arguments: 'drdb console "
     "RUNDIR -- PROGRAM ARGS' gives others"},
    {"environment", "a rank replays in its recorded environment"},
    {"cwd", "a rank replays in its recorded working directory"},
    {"exec-wrapper", "drdb starts each rank's replay itself"},
    {"startup-with-shell", "drdb starts each rank's replay itself"},
    {"inferior-tty", "each rank's output comes here, tagged with its rank"},
    {"logging", "drdb's output is the session's: redirect drdb's own"},
    {"schedule-multiple", "each rank is one process of its own"},
    {"follow-fork-mode", "a replayed rank is one process"},
    {"detach-on-fork", "a replayed rank is one process"},
    {"interactive-mode", "drdb answers for GDB"},
};

/* Adds NAME (LEN bytes) for canonical command CANON. */
static int add_name(struct con *c, const char *name, size_t len,
                    const char *canon)
{
    if (util_grow(&c->gdbcmds, &c->cap_gdbcmds, (size_t)c->ngdbcmds + 1,
                  sizeof *c->gdbcmds) < 0)
        return -1;
    char *n = strndup(name, len);
    if (!n)
        return -1;
    c->gdbcmds[c->ngdbcmds].name = n;
    c->gdbcmds[c->ngdbcmds].canon = canon ? canon : n;
    c->ngdbcmds++;
    return 0;
}

/* GDB's commands from rank R's `help all`: its lines "name, alias, ... --
 * what it does"; a line whose name has a space is a subcommand's, left
 * out, and so is an alias with a space ("show, info set": `show` is
 * GDB's). */
static int load_table(struct con *c, int r)
{
    struct mi_reply rep;
    char *mi = con_mi_console("help all");
    int st = mi ? mi_gdb_exec_sync(c->ranks[r]->gdb, mi, &rep, 30000) : -1;
    free(mi);
    if (st != 0 || !rep.console) {
        if (st == 0)
            mi_reply_release(&rep);
        return -1;
    }
    for (const char *l = rep.console; *l;) {
        const char *nl = strchr(l, '\n');
        size_t ll = nl ? (size_t)(nl - l) : strlen(l);
        const char *dash = memmem(l, ll, " -- ", 4);
        if (dash && dash > l) {
            /* "break, brea, bre, br, b" */
            const char *canon = NULL;
            for (const char *p = l; p < dash;) {
                size_t n = strcspn(p, ",");
                if (p + n > dash)
                    n = (size_t)(dash - p);
                int spaced = memchr(p, ' ', n) != NULL;
                if (spaced && p == l)
                    break; /* a subcommand's line */
                if (!spaced && add_name(c, p, n, canon) == 0 && !canon)
                    canon = c->gdbcmds[c->ngdbcmds - 1].name;
                p += n;
                while (p < dash && (*p == ',' || *p == ' '))
                    p++;
            }
        }
        l = nl ? nl + 1 : l + ll;
    }
    mi_reply_release(&rep);
    c->gdbcmds_loaded = 1;
    return 0;
}

/* The first rank of SET whose GDB can answer, or -1. */
static int first_rank(const struct con *c, const struct rankset *set)
{
    for (int r = 0; r < c->nranks; r++)
        if (rs_has(set, r) && c->ranks[r]->gdb &&
            c->ranks[r]->state != CON_LOST)
            return r;
    return -1;
}

const char *con_gdb_resolve(struct con *c, const struct rankset *set,
                            const char *word, size_t len, int *ambiguous)
{
    *ambiguous = 0;
    if (!c->gdbcmds_loaded) {
        int r = first_rank(c, set);
        if (r < 0)
            for (r = 0; r < c->nranks && (!c->ranks[r]->gdb ||
                                          c->ranks[r]->state == CON_LOST);
                 r++)
                ;
        if (r >= c->nranks || load_table(c, r) < 0)
            return NULL;
    }
    const char *found = NULL;
    for (int i = 0; i < c->ngdbcmds; i++) {
        const struct con_gdbcmd *g = &c->gdbcmds[i];
        if (strlen(g->name) == len && strncmp(g->name, word, len) == 0)
            return g->canon;
        if (strncmp(g->name, word, len) == 0) {
            if (found && found != g->canon)
                *ambiguous = 1;
            found = g->canon;
        }
    }
    return *ambiguous ? NULL : found;
}

const char *con_gdb_exact(struct con *c, const char *name)
{
    int amb;
    const char *canon = con_gdb_resolve(c, &c->focus, name, strlen(name),
                                        &amb);
    for (int i = 0; canon && i < c->ngdbcmds; i++)
        if (strcmp(c->gdbcmds[i].name, name) == 0)
            return canon;
    return NULL;
}

const char *con_gdb_name(struct con *c, int i)
{
    if (!c->gdbcmds_loaded) {
        int r;
        for (r = 0; r < c->nranks && (!c->ranks[r]->gdb ||
                                      c->ranks[r]->state == CON_LOST ||
                                      c->ranks[r]->state == CON_RUNNING);
             r++)
            ;
        if (r == c->nranks || load_table(c, r) < 0)
            return NULL;
    }
    for (int k = 0; k < c->ngdbcmds; k++)
        if (c->gdbcmds[k].canon == c->gdbcmds[k].name && i-- == 0)
            return c->gdbcmds[k].name;
    return NULL;
}

void con_gdb_candidates(const struct con *c, const char *word, size_t len,
                        FILE *out)
{
    for (int i = 0; i < c->ngdbcmds; i++)
        if (c->gdbcmds[i].canon == c->gdbcmds[i].name &&
            strncmp(c->gdbcmds[i].name, word, len) == 0 &&
            !con_cmd_lookup(c->gdbcmds[i].name, strlen(c->gdbcmds[i].name)))
            fprintf(out, " %s", c->gdbcmds[i].name);
}

void con_gdb_release(struct con *c)
{
    for (int i = 0; i < c->ngdbsets; i++)
        free(c->gdbsets[i]);
    free(c->gdbsets);
    c->gdbsets = NULL;
    c->ngdbsets = 0;
    for (int i = 0; i < c->ngdbcmds; i++)
        free(c->gdbcmds[i].name);
    free(c->gdbcmds);
    c->gdbcmds = NULL;
    c->ngdbcmds = 0;
    c->cap_gdbcmds = 0;
    c->gdbcmds_loaded = 0;
}

const char *con_gdb_caught(const char *canon, const char **why)
{
    *why = NULL;
    for (size_t i = 0; i < sizeof caught / sizeof caught[0]; i++)
        if (strcmp(caught[i].gdb, canon) == 0) {
            *why = caught[i].why;
            return caught[i].drdb;
        }
    return NULL;
}

const char *con_gdb_caught_set(const char *word, size_t len)
{
    for (size_t i = 0; i < sizeof caught_set / sizeof caught_set[0]; i++)
        if (len >= 3 && len <= strlen(caught_set[i].name) &&
            strncmp(caught_set[i].name, word, len) == 0)
            return caught_set[i].why;
    return NULL;
}

void con_gdb_keep_set(struct con *c, const char *cli)
{
    /* a later value of the same setting replaces the earlier: the words
     * before the last one ("set print pretty" of "set print pretty on") */
    size_t key = strlen(cli);
    while (key && cli[key - 1] != ' ')
        key--;
    for (int i = 0; i < c->ngdbsets; i++)
        if (key && !strncmp(c->gdbsets[i], cli, key)) {
            char *n = strdup(cli);
            if (n) {
                free(c->gdbsets[i]);
                c->gdbsets[i] = n;
            }
            return;
        }
    if (util_grow(&c->gdbsets, &c->cap_gdbsets, (size_t)c->ngdbsets + 1,
                  sizeof *c->gdbsets) < 0)
        return;
    if ((c->gdbsets[c->ngdbsets] = strdup(cli)))
        c->ngdbsets++;
}
