/* drdb console / drdb batch: debug replayed ranks, each under its own GDB. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <readline/history.h>
#include <readline/readline.h>

#include "args.h"
#include "con-complete.h"
#include "con.h"
#include "fe.h"
#include "launch.h"
#include "remote.h"
#include "life.h"
#include "util.h"

/* ---- interactive: readline's callback interface in the poll loop ------- */

/* readline's callbacks (line handler, completion, redisplay) take no
 * user data: the one interactive session of the process is reached
 * through these. */
static char *pending_line;
static int line_ready;

static void on_sigint(int sig)
{
    (void)sig;
    con_sigint = 1;
}

static void on_line(char *line)
{
    /* Removed here: a handler still installed when this returns has
     * readline show the prompt again, and the command's output would then
     * start on that line (over it, on terminals that go back to column 0
     * when the handler is removed). */
    rl_callback_handler_remove();
    pending_line = line;
    line_ready = 1;
}

/* Output while the user types: save the line, clear it, print above, put
 * the prompt and the line back. */
static char *saved_text;
static int saved_point;

static void rl_out_begin(void)
{
    saved_point = rl_point;
    saved_text = rl_copy_text(0, rl_end);
    rl_save_prompt();
    rl_replace_line("", 0);
    rl_redisplay();
}

static void rl_out_end(void)
{
    rl_restore_prompt();
    rl_replace_line(saved_text ? saved_text : "", 0);
    rl_point = saved_point;
    rl_redisplay();
    free(saved_text);
    saved_text = NULL;
}

/* Tab completion (con-complete.c): readline asks for the word at the
 * cursor. */
static struct con_compl *the_compl;
static int compl_shown; /* the last completion's time was shown */

/* LIST (sorted) as readline's matches: the text that replaces TEXT first
 * (the one completion, or what they all begin with, but never less than
 * TEXT: GDB may offer "ns::bar" for "bar"), then LIST. */
static char **to_readline(const char *text, char *const *list)
{
    size_t n = 0, lcd = strlen(list[0]), tl = strlen(text);
    while (list[n])
        n++;
    for (size_t i = 1; i < n; i++)
        while (lcd && strncmp(list[0], list[i], lcd) != 0)
            lcd--;
    int keep = n > 1 && (lcd < tl || strncmp(list[0], text, tl) != 0);
    char **m = calloc(n + 2, sizeof *m);
    int bad = !m || !(m[0] = keep ? strdup(text) : strndup(list[0], lcd));
    for (size_t i = 0; !bad && n > 1 && i < n; i++)
        bad = !(m[i + 1] = strdup(list[i]));
    if (bad) {
        for (size_t i = 0; m && m[i]; i++)
            free(m[i]);
        free(m);
        return NULL;
    }
    return m;
}

static char **complete(const char *text, int start, int end)
{
    int nospace;
    rl_attempted_completion_over = 1;
    compl_shown = 0;
    char **list = the_compl ? con_compl_words(the_compl, rl_line_buffer,
                                              start, end, &nospace)
                            : NULL;
    char **m = list ? to_readline(text, list) : NULL;
    con_compl_list_free(list);
    rl_completion_suppress_append = nospace;
    return m;
}

/* set timing on: how long the last completion took, above the prompt. */
static void show_completion_time(struct con *c)
{
    struct con_compl_stat st;
    char from[48] = "in drdb's tables";
    if (!c->timing || compl_shown || !the_compl)
        return;
    compl_shown = 1;
    con_compl_last(the_compl, &st);
    if (st.rank >= 0)
        snprintf(from, sizeof from, "by rank %d's GDB", st.rank);
    else if (st.elf)
        snprintf(from, sizeof from, "in the program's ELF file");
    rl_out_begin();
    fprintf(stderr, "drdb: completion took %.1f ms (%d found %s)\n", st.ms,
            st.n, from);
    rl_out_end();
}

/* The history file, ~/.drdb_history: read only when it is a regular file
 * of this user's; written as a new file beside it (util.h: never through a
 * link planted under its name), mode 0600, then renamed over it. */
#define HISTORY_FILE ".drdb_history"
#define HISTORY_KEEP 1000

static void load_history(const char *home)
{
    char path[4200];
    struct stat st;
    snprintf(path, sizeof path, "%s/" HISTORY_FILE, home);
    if (lstat(path, &st) == 0 && S_ISREG(st.st_mode) &&
        st.st_uid == getuid())
        read_history(path);
}

static void save_history(const char *home)
{
    char tmp[128];
    int dfd = util_dir_open(AT_FDCWD, home, 0);
    int fd = dfd < 0 ? dfd
                     : util_file_create_tmp(dfd, HISTORY_FILE, tmp, sizeof tmp,
                                            O_WRONLY);
    int rc = fd;
    HIST_ENTRY **list = history_list();
    int n = 0;
    while (list && list[n])
        n++;
    for (int i = n > HISTORY_KEEP ? n - HISTORY_KEEP : 0; fd >= 0 && i < n;
         i++) {
        rc = util_write_all(fd, list[i]->line, strlen(list[i]->line));
        if (rc == 0)
            rc = util_write_all(fd, "\n", 1);
        if (rc < 0)
            break;
    }
    if (fd >= 0) {
        if (close(fd) < 0 && rc >= 0)
            rc = -errno;
        if (rc >= 0)
            rc = util_file_replace(dfd, tmp, HISTORY_FILE);
        if (rc < 0)
            unlinkat(dfd, tmp, 0);
    }
    if (dfd >= 0)
        close(dfd);
    if (rc < 0)
        fprintf(stderr, "drdb: cannot save the history in '%s/" HISTORY_FILE
                "': %s\n", home, strerror(-rc));
}

/* A line typed at PROMPT, the poll loop running meanwhile (malloc'd; NULL
 * at the end of the input). Ctrl-C: at the command prompt a new line
 * (running ranks are stopped); at a body's prompt (BODY) the end, NULL
 * with con_sigint left set. */
static char *read_line(struct con *c, const char *prompt, int body)
{
    line_ready = 0;
    rl_callback_handler_install(prompt, on_line);
    while (!line_ready) {
        if (con_sigint && body) {
            rl_callback_handler_remove();
            rl_crlf();
            return NULL;
        }
        if (con_sigint) {
            /* Ctrl-C at the prompt: stop running ranks, new line. */
            con_sigint = 0;
            for (int r = 0; r < c->nranks; r++)
                if (c->ranks[r]->state == CON_RUNNING)
                    mi_gdb_interrupt(c->ranks[r]->gdb);
            rl_free_line_state();
            rl_crlf();
            rl_replace_line("", 0);
            rl_on_new_line();
            rl_redisplay();
        }
        int ready = con_idle(c, 0, 200);
        con_print_stopped(c); /* ranks that stopped in the background */
        if (ready) {
            rl_callback_read_char();
            if (!line_ready)
                show_completion_time(c);
        }
    }
    if (pending_line && *pending_line)
        add_history(pending_line);
    return pending_line;
}

/* A block's body at the prompt: GDB's '>' continuation prompt. */
static char *read_body(struct con *c, const char *intro)
{
    if (intro)
        printf("%s\n", intro);
    fflush(stdout);
    c->out_begin = rl_out_begin;
    c->out_end = rl_out_end;
    char *line = read_line(c, ">", 1);
    c->out_begin = c->out_end = NULL;
    return line;
}

static int interactive(struct con *c)
{
    const char *home = getenv("HOME");
    the_compl = con_compl_new(c);
    compl_shown = 1;
    if (home && *home)
        load_history(home);
    rl_attempted_completion_function = complete;
    /* '@' starts a set name: it must stay in the word being completed. */
    rl_basic_word_break_characters = " \t\n\"'";
    while (!c->quit) {
        char prompt[300], buf[256];
        snprintf(prompt, sizeof prompt, "(drdb %s) ",
                 rs_format(&c->focus, buf, sizeof buf));
        c->out_begin = rl_out_begin;
        c->out_end = rl_out_end;
        char *line = read_line(c, prompt, 0);
        if (!line) {
            putchar('\n');
            break;
        }
        /* While a command runs, its output is printed plainly. */
        c->out_begin = c->out_end = NULL;
        c->read_body = read_body;
        if (*line)
            con_execute(c, line);
        c->read_body = NULL;
        free(line);
    }
    c->out_begin = c->out_end = NULL;
    con_compl_free(the_compl);
    the_compl = NULL;
    if (home && *home)
        save_history(home);
    return 0;
}

/* `drdb attach HOST [ID]`: the kept session's note (remote_peek: its
 * processes' output stays held for the attach), and the run it names
 * into DIR and O. 0, or -1 (said). */
static int attach_note(struct fe_run_opts *o, const char *host,
                       const char *id, char *dir, size_t dirlen, char **note)
{
    struct remote_opts po = o->ro;
    struct remote *r;
    struct remote_proc **procs;
    size_t n;
    char err[1200];
    po.host = host;
    if (remote_peek(&r, &po, id, &procs, &n, note, err, sizeof err) < 0)
        return fe_error("%s", err), -1;
    free(procs);
    remote_close(r);
    if (con_keep_note_run(*note, o, dir, dirlen, err, sizeof err) < 0) {
        free(*note);
        *note = NULL;
        return fe_error("%s: %s", host, err), -1;
    }
    return 0;
}

/* The options of drdb console, batch and attach (HOST [ID]). */
struct console_opts {
    const char *ranks, *script, *debug_dir;
    long long timeout, keep_s;
    int batch, json, keep_going, trust, in_place, markdown;
    int lazy; /* --start: -1 by the ranks' number */
    struct fe_run_opts run;
};

static int start_opt(void *dst, const struct fe_opt *o, const char *arg)
{
    (void)o;
    if (strcmp(arg, "main") != 0 && strcmp(arg, "lazy") != 0)
        return fe_error("--start takes 'main' (every rank's GDB now, run "
                        "to main) or 'lazy' (each when a command needs "
                        "it), not '%s'", arg), -1;
    *(int *)dst = strcmp(arg, "lazy") == 0;
    return 0;
}

static int keep_opt(void *dst, const struct fe_opt *o, const char *arg)
{
    (void)o;
    *(long long *)dst = 600;
    if (arg && fe_parse_int(arg, 1, 7 * 86400, dst) < 0)
        return fe_error("--keep takes a number of seconds (1 to 604800), "
                        "not '%s'", arg), -1;
    return 0;
}

#define OFF(f) offsetof(struct console_opts, f)
static const struct fe_opt console_opts[] = {
    FE_STR('r', "ranks", "SET", OFF(ranks), "ranks to replay, e.g. 0-3,8 "
     "(default: 0)"),
    FE_CALL(0, "start", "main|lazy", OFF(lazy), start_opt, "main: every "
     "rank's GDB starts now, and runs to main; lazy: a rank's GDB starts "
     "when a command needs it (status, events, match, check, graph and "
     "queries need none). Default: main up to 64 ranks, lazy above"),
    FE_STR(0, "debug-file-directory", "DIRS", OFF(debug_dir), "where each "
     "GDB looks for separate debug info (GDB's setting): by default none, so "
     "the system's libraries (libc6-dbg) are not read: a GDB starts in half "
     "the time and memory; /usr/lib/debug reads them"),
    FE_STR('x', "execute", "F", OFF(script), "run the commands of file F "
     "first"),
    FE_FLAG('b', "batch", OFF(batch), "then exit (no prompt); exit status 1 "
     "if a command failed or a rank diverged or was lost"),
    FE_INT('t', "timeout", "S", OFF(timeout), 0, INT_MAX / 1000, "a number "
     "of seconds", "a command that does not complete in S seconds fails"),
    FE_FLAG(0, "json", OFF(json), "with --batch: one JSON object per command "
     "on stdout"),
    FE_FLAG('k', "keep-going", OFF(keep_going), "with --batch: run the whole "
     "script even after a failure"),
    FE_FLAG(0, "trust", OFF(trust), "run the recorded program even when the "
     "run is not signed with your key (one you did not record, or changed "
     "since: drdb log sign), the run or the program is another user's or "
     "writable by others, or the program is not the recorded build"),
    FE_FLAG(0, "write-in-place", OFF(in_place), "let the program write its "
     "files where it says, over the recorded run's (by default rank R writes "
     "in RUNDIR/replay-out/rank-R/, emptied when it starts)"),
    FE_CALL_OPT(0, "keep", "S", OFF(keep_s), keep_opt, "ranks on hosts: a "
     "dropped connection leaves their GDBs kept there S seconds (default "
     "600) for 'drdb attach HOST ID' (the session's id is printed); quit "
     "ends them"),
    FE_FLAG(0, "commands-markdown", OFF(markdown), NULL),
    FE_GROUP(OFF(run), fe_run_opt_table),
    FE_END,
};
#undef OFF

/* The session's end: a rank that ended abnormally fails a batch, unless
 * an `assert` on it passed after it ended (the script expected it);
 * interactively, a divergence or a lost rank. The exit status. */
static int finish(struct con *c, int batch, int rc)
{
    for (int r = 0; r < c->nranks; r++) {
        struct con_rank *k = c->ranks[r];
        if (!batch ? k->state != CON_DIVERGED && k->state != CON_LOST
                   : !con_rank_abnormal(k) || k->end_checked)
            continue;
        con_stub_failure(c, k);
        fprintf(stderr, "drdb: rank %d ended abnormally: %s%s%s (an 'assert' "
                "on it after its end accepts it)\n", r,
                con_state_name(k->state), k->reason[0] ? ": " : "",
                k->reason);
        rc = 1;
    }
    con_flow_release(c);
    con_keep_end(c); /* kept sessions end with the console's own end */
    con_close(c);
    con_json_close(c);
    return rc;
}

/* A session ended before its script or prompt: the exit status ST. */
static int abandon(struct con *c, int st)
{
    con_close(c);
    con_json_close(c);
    return st;
}

/* The program that will run and where its files go, shown and checked
 * before any GDB starts; then the ranks in focus started (or not: lazy).
 * 0, 1 when a rank did not start, or -1 (refused). */
static int begin(struct con *c, const struct console_opts *o, int lazy)
{
    FILE *out = o->json ? stderr : stdout;
    if (c->nhosts)
        fprintf(out, "  program: %s, checked on %s%s when a rank starts "
                "there\n", c->exe, c->hosts[0].name,
                c->nhosts > 1 ? " and the other hosts" : "");
    if (c->dir[0] && launch_check(&c->run, c->dir, c->exe, c->program != NULL,
                                  o->trust, out, "  ") < 0)
        return -1;
    /* Where the ranks' writes go (docs/replaying.md, "Files"). */
    fprintf(out, o->in_place
            ? "  files: --write-in-place: the program writes its files "
              "where it says, over the recorded run's\n"
            : "  files: rank R writes its files in " LAUNCH_OUT_DIR
              "/rank-R of its run directory (emptied when the rank "
              "starts): %s%s\n", c->dir[0] ? c->dir : "",
            c->nhosts ? (c->dir[0] ? " here, and on each host"
                                   : "on each host") : "");
    int rc = lazy ? 0 : con_replay(c, &c->focus) < 0;
    /* lazy, or those Ctrl-C kept from starting */
    con_defer(c, &c->focus);
    c->interrupted = 0;
    if (o->json)
        return rc;
    char buf[256];
    struct rankset up, later;
    rs_init(&up, c->nranks);
    rs_init(&later, c->nranks);
    rs_copy(&up, &c->focus);
    for (int r = 0; r < c->nranks; r++)
        if (c->ranks[r]->state == CON_DEFERRED) {
            rs_add(&later, r);
            rs_del(&up, r);
        }
    if (lazy)
        printf("ranks %s in the session, not started: each rank's GDB "
               "starts (and runs to main)\nwhen a command needs it; "
               "'replay' starts the ranks in focus now\n",
               rs_format(&c->focus, buf, sizeof buf));
    else if (rs_count(&up))
        printf("replaying %s %s, stopped %s\n",
               rs_count(&up) > 1 ? "ranks" : "rank",
               rs_format(&up, buf, sizeof buf),
               c->main_sym < 0 ? "before the first MPI call" : "at main");
    if (!lazy && rs_count(&later))
        printf("ranks %s not started (Ctrl-C): each starts when a "
               "command needs it\n", rs_format(&later, buf, sizeof buf));
    rs_release(&up);
    rs_release(&later);
    return rc;
}

/* The kept GDBs of NOTE's session (drdb attach HOST [ID]) as the ranks',
 * where they stand: 0, 1 when not all of them (said), or -1 when none
 * (said; the session stays kept as it is). */
static int adopt(struct con *c, const struct console_opts *o,
                 const char *note, const char *host, const char *id)
{
    int n = 0;
    char buf[256];
    int rc = con_keep_adopt(c, note, host, id, &n) < 0 || !n;
    if (!n) {
        fprintf(stderr, "drdb: no rank's GDB to take over in the session on "
                "%s: 'drdb attach --list %s' shows it\n", host, host);
        return -1;
    }
    if (!o->json)
        printf("attached on %s: ranks %s as they were\n", host,
               rs_format(&c->focus, buf, sizeof buf));
    if (!o->json && c->program) /* what a replay or restart runs */
        printf("  program: %s (the kept session's, not the recorded one)\n",
               c->program);
    return rc;
}

/* C opened on run DIR as O says, PROG (NULL: the recorded program) run
 * instead: 0, or the exit status (said). */
static int open_session(struct con *c, struct console_opts *o,
                        const char *dir, char **prog)
{
    char err[512];
    fe_nofile_raise(); /* each rank's log, its GDB's pipes and terminal */
    if (con_open(c, dir, &o->run, err, sizeof err) < 0) {
        con_close(c);
        return fe_error("%s", err);
    }
    if (prog) {
        size_t used = 0;
        if (!realpath(prog[0], c->exe))
            snprintf(c->exe, sizeof c->exe, "%s", prog[0]);
        for (int i = 0; prog[i] && used < sizeof c->args; i++)
            used += (size_t)snprintf(c->args + used, sizeof c->args - used,
                                     "%s%s", i ? "\x1f" : "", prog[i]);
    }
    if (snprintf(c->debug_dir, sizeof c->debug_dir, "%s", o->debug_dir) >=
        (int)sizeof c->debug_dir) {
        con_close(c);
        return fe_error("--debug-file-directory: too long a path");
    }
    c->trust = o->trust;
    c->program = prog ? prog[0] : NULL;
    c->json = o->json;
    c->keep_going = o->keep_going;
    c->in_place = o->in_place;
    c->timeout_ms = (int)o->timeout * 1000;
    if (con_parse_set(c, o->ranks, strlen(o->ranks), &c->focus) < 0) {
        con_close(c);
        return 2;
    }
    if (o->json && con_json_open(c) < 0) {
        con_close(c);
        return 2;
    }
    return 0;
}

/* --keep: the run as given, for the session note. */
static void keep_spec(const struct console_opts *o, const char *dir,
                      char *spec, size_t len)
{
    size_t used = 0;
    for (int i = 0; i < o->run.nparts && used < len; i++)
        used += (size_t)snprintf(spec + used, len - used, "opt also\t%s\n",
                                 o->run.parts[i]);
    if (o->run.hosts_arg && used < len)
        used += (size_t)snprintf(spec + used, len - used, "opt hosts\t%s\n",
                                 o->run.hosts_arg);
    if (used < len)
        snprintf(spec + used, len - used, "run %s\n", dir);
}

/* drdb console, drdb batch (CMD), and drdb attach HOST [ID] (ATTACH). */
static int start(int argc, char **argv, const struct fe_subcmd *cmd,
                 int attach)
{
    static struct console_opts o = {.ranks = "0", .debug_dir = "",
                                    .lazy = -1};
    struct fe_pos pos;
    int batch_cmd = cmd == &fe_sub_batch;
    fe_run_opts_init(&o.run);
    /* RUNDIR, then attach's ID or batch's SCRIPT; options before, between
     * or after them; then "-- PROGRAM ARGS": another build of the
     * program */
    int rc = fe_opts_parse(console_opts, cmd->name, argc, argv, &o,
                           attach || batch_cmd ? 2 : 1, &pos);
    if (rc == -2)
        fprintf(stderr, "       'drdb %s --help' lists its options\n",
                cmd == &fe_sub_attach ? "console" : cmd->name);
    if (rc < 0)
        return 2;
    if (o.markdown)
        return con_cmds_markdown(stdout), 0;
    if (attach && o.keep_s)
        return fe_error("drdb attach keeps the session as it was kept"), 2;
    if (!pos.n)
        return fe_error(attach ? "which host? for example: drdb attach node17"
                               : "which run? for example: drdb console "
                                 "run1"), 2;
    if (batch_cmd && pos.n < 2)
        return fe_error("drdb batch RUNDIR SCRIPT: which script?"), 2;
    if (pos.rest < argc && !pos.dashdash)
        return fe_error("what is '%s'? a program to replay instead of the "
                        "recorded one goes after '--': drdb %s %s%s%s -- "
                        "PROGRAM ARGS", argv[pos.rest], cmd->name, pos.v[0],
                        pos.n > 1 ? " " : "", pos.n > 1 ? pos.v[1] : ""), 2;
    char **prog = pos.dashdash && pos.rest < argc ? argv + pos.rest : NULL;
    int batch = o.batch || batch_cmd;
    const char *script = batch_cmd ? pos.v[1] : o.script;
    if (batch && !script)
        return fe_error("--batch needs a script: -x SCRIPT"), 2;
    if (o.json && !batch && isatty(0))
        return fe_error("--json is for scripts: drdb batch --json RUNDIR "
                        "SCRIPT"), 2;

    /* attach: HOST [ID], the run from the kept session's note */
    const char *dir = pos.v[0], *host = pos.v[0];
    const char *id = attach && pos.n > 1 ? pos.v[1] : NULL;
    char *note = NULL, run_dir[4096], spec[16384], err[512];
    if (attach && attach_note(&o.run, host, id, run_dir, sizeof run_dir,
                              &note) < 0)
        return 1;
    if (attach)
        dir = run_dir;
    o.run.ro.keep_s = (int)o.keep_s; /* each host's connection is kept */
    if (fe_run_opts_done(&o.run, &dir, err, sizeof err) < 0) {
        free(note);
        return fe_error("%s", err);
    }
    struct con c;
    rc = open_session(&c, &o, dir, prog);
    if (rc) {
        free(note);
        return rc;
    }
    /* Ctrl-C pauses the ranks in focus, never drdb (no SA_RESTART: the
     * poll loop sees it at once). */
    struct sigaction sa = {0};
    sa.sa_handler = on_sigint;
    sigaction(SIGINT, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    /* However the console ends (quit, a closed terminal, TERM, a crash,
     * SIGKILL), its GDBs, programs and shadows end with it (life.h); the
     * shadows of a console killed before are removed now. */
    life_install(LIFE_TERM);
    life_sweep(life_tmpdir(), LIFE_SHADOW_PREFIX);
    life_sweep(life_tmpdir(), LIFE_REPLAY_PREFIX);
    if (!o.json)
        con_summary(&c, stdout);
    fflush(stdout);
    keep_spec(&o, dir, spec, sizeof spec);
    if (o.keep_s && con_keep_start(&c, (int)o.keep_s, spec,
                                   o.json ? stderr : stdout) < 0) {
        free(note);
        return abandon(&c, 2);
    }
    if (attach) {
        rc = adopt(&c, &o, note, host, id);
        free(note);
        if (rc < 0)
            return abandon(&c, 1);
    } else {
        rc = begin(&c, &o, o.lazy < 0 ? rs_count(&c.focus) > CON_LAZY_ABOVE
                                      : o.lazy);
        if (rc < 0)
            return abandon(&c, 2);
    }
    if (script)
        rc |= con_source(&c, script) < 0;
    /* Commands from a pipe or a file: read them as a script (echoed, in
     * order), without readline's prompt. */
    if (!batch && !c.quit)
        rc |= isatty(0) ? interactive(&c) : con_source(&c, "-") < 0;
    return finish(&c, batch, rc);
}

int fe_console_attach(int argc, char **argv)
{
    return start(argc, argv, &fe_sub_attach, 1);
}

static int run_console(int argc, char **argv)
{
    return start(argc, argv, &fe_sub_console, 0);
}

static int run_batch(int argc, char **argv)
{
    return start(argc, argv, &fe_sub_batch, 0);
}

const struct fe_subcmd fe_sub_console = {
    .name = "console",
    .args = "[HOST:]RUNDIR [-- PROGRAM ARGS]",
    .summary = "debug replayed ranks interactively, each under its own GDB",
    .help = "Opens a recorded run, starts the replay of the chosen ranks "
            "(default: rank 0),\neach under its own GDB, stopped at main "
            "(more than 64 ranks: each when a\ncommand needs it), and reads "
            "commands ('help' lists them).\nCommands go to the "
            "ranks in focus, or to '@SET COMMAND's set. After '--',\nanother "
            "program (a rebuilt one) runs instead of the recorded.\n",
    .opts = console_opts,
    .more = "Before any GDB starts, the console shows the program that will "
            "run (path,\nowner, build id) and checks it. HOST:RUNDIR: the "
            "ranks replay on HOST, each\nGDB started there by its drdb agent "
            "over one ssh connection, which checks\nthe program when a rank "
            "starts (docs/remote.md).\n\n"
            "example:\n  drdb console --ranks 0-3 run1\n"
            "  drdb console --ranks 0-3 node17:/scratch/me/run1\n"
            "  drdb console --launcher srun --ranks 0-255 /scratch/me/run1"
            "   # in salloc\n",
    .run = run_console,
};

const struct fe_subcmd fe_sub_batch = {
    .name = "batch",
    .args = "[HOST:]RUNDIR SCRIPT [-- PROGRAM ARGS]",
    .summary = "run a console script non-interactively",
    .help = "Like 'drdb console --batch -x SCRIPT RUNDIR': each command "
            "completes on every\ntargeted rank before the next starts; the "
            "first failing command ends the\nscript (-k: goes on). Exit status 1 if a "
            "command or an assert failed, or a rank diverged\nor was lost. "
            "It takes the options of drdb console.\n",
    .opts = console_opts,
    .more = "example:\n  drdb batch --ranks 0-3 run1 check.drdb\n",
    .run = run_batch,
};
