/* drdb console / drdb batch: debug replayed ranks, each under its own GDB. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <readline/history.h>
#include <readline/readline.h>

#include "args.h"
#include "con.h"
#include "fe.h"
#include "launch.h"
#include "remote.h"
#include "life.h"
#include "util.h"

/* ---- interactive: readline's callback interface in the poll loop ------- */

/* readline's callbacks (line handler, completion generators, redisplay)
 * take no user data: the one interactive session of the process is
 * reached through these. */
static struct con *the_con;
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

/* Tab completion: command names first, then @set names, then (for
 * location arguments) the functions GDB knows. */
static char *gen_command(const char *text, int state)
{
    static const struct con_cmd *k;
    static size_t user;
    size_t len = strlen(text);
    if (!state)
        user = 0;
    for (k = state ? k : con_cmd_next(NULL); k; k = con_cmd_next(k))
        if (strncmp(k->name, text, len) == 0) {
            const char *name = k->name;
            k = con_cmd_next(k);
            return strdup(name);
        }
    /* then the user commands (define) */
    for (const char *u; (u = con_flow_user_name(the_con, user)); user++)
        if (strncmp(u, text, len) == 0) {
            user++;
            return strdup(u);
        }
    return NULL;
}

static char *gen_set(const char *text, int state)
{
    static const char *const builtin[] = {"all", "stopped", "running",
                                          "exited", "diverged", "lost"};
    static int i;
    size_t len = strlen(text + 1), nb = sizeof builtin / sizeof builtin[0];
    if (!state)
        i = 0;
    /* text starts with '@' */
    while (i < (int)nb + the_con->nsets) {
        const char *w = i < (int)nb ? builtin[i] : the_con->sets[i - nb].name;
        i++;
        if (strncmp(w, text + 1, len) == 0) {
            char *at = malloc(strlen(w) + 2);
            if (at)
                sprintf(at, "@%s", w);
            return at;
        }
    }
    return NULL;
}

/* Source locations: GDB's own completion (-complete "break TEXT") on the
 * first replayed rank. */
static char **gdb_matches;
static char *gen_location(const char *text, int state)
{
    static int i;
    if (!state)
        i = 0;
    while (gdb_matches && gdb_matches[i]) {
        const char *m = gdb_matches[i++];
        if (strncmp(m, text, strlen(text)) == 0)
            return strdup(m);
    }
    return NULL;
}

static void load_gdb_matches(const char *text)
{
    for (int i = 0; gdb_matches && gdb_matches[i]; i++)
        free(gdb_matches[i]);
    free(gdb_matches);
    gdb_matches = NULL;
    for (int r = 0; r < the_con->nranks; r++) {
        struct con_rank *k = &the_con->ranks[r];
        if (!k->gdb || k->state == CON_LOST || k->state == CON_RUNNING)
            continue;
        char cli[512];
        snprintf(cli, sizeof cli, "break %s", text);
        struct mi_cmd mc;
        mi_cmd_init(&mc);
        mi_cmd_op(&mc, "-complete");
        mi_cmd_arg(&mc, cli);
        struct mi_reply rep;
        if (mi_cmd_str(&mc) &&
            mi_gdb_exec_sync(k->gdb, mi_cmd_str(&mc), &rep, 2000) == 0) {
            const struct mi_value *list = mi_get(rep.record, "matches");
            size_t n = list ? list->count : 0, j = 0;
            gdb_matches = calloc(n + 1, sizeof *gdb_matches);
            for (const struct mi_value *v = list ? list->first : NULL;
                 v && gdb_matches; v = v->next)
                if (v->str && strncmp(v->str, "break ", 6) == 0)
                    gdb_matches[j++] = strdup(v->str + 6);
        }
        mi_reply_release(&rep);
        mi_cmd_release(&mc);
        break;
    }
}

static char **complete(const char *text, int start, int end)
{
    (void)end;
    rl_attempted_completion_over = 1;
    if (text[0] == '@')
        return rl_completion_matches(text, gen_set);
    /* The command word: the first word, or the second after "@SET". */
    int i = 0;
    while (i < start && rl_line_buffer[i] == ' ')
        i++;
    if (rl_line_buffer[i] == '@') {
        while (i < start && rl_line_buffer[i] != ' ')
            i++;
        while (i < start && rl_line_buffer[i] == ' ')
            i++;
    }
    if (i == start)
        return rl_completion_matches(text, gen_command);
    const char *cmd = rl_line_buffer + i;
    static const char *const locs[] = {"break ", "tbreak ", "b ", "list ",
                                       "advance ", "until ", "l "};
    for (size_t k = 0; k < sizeof locs / sizeof locs[0]; k++)
        if (strncmp(cmd, locs[k], strlen(locs[k])) == 0) {
            load_gdb_matches(text);
            return rl_completion_matches(text, gen_location);
        }
    return NULL;
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
                if (c->ranks[r].state == CON_RUNNING)
                    mi_gdb_interrupt(c->ranks[r].gdb);
            rl_free_line_state();
            rl_crlf();
            rl_replace_line("", 0);
            rl_on_new_line();
            rl_redisplay();
        }
        if (con_idle(c, 0, 200))
            rl_callback_read_char();
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
    the_con = c;
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
    if (home && *home)
        save_history(home);
    return 0;
}

/* `drdb attach HOST [ID]`: the kept session's note (remote_peek: its
 * processes' output stays held for the attach), and the run it names
 * into DIR and O. 0, or -1 (said). */
static int attach_note(const struct remote_opts *ro, const char *host,
                       const char *id, struct fe_run_opts *o, char *dir,
                       size_t dirlen, char **note)
{
    struct remote_opts po = *ro;
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

static int start(int argc, char **argv, int batch_cmd, int attach)
{
    static const struct option opts[] = {
        {"ranks", required_argument, NULL, 'r'},
        {"batch", no_argument, NULL, 'b'},
        {"execute", required_argument, NULL, 'x'},
        {"timeout", required_argument, NULL, 't'},
        {"commands-markdown", no_argument, NULL, 'M'},
        {"json", no_argument, NULL, 'j'},
        {"keep-going", no_argument, NULL, 'k'},
        {"trust", no_argument, NULL, 'T'},
        {"write-in-place", no_argument, NULL, 'W'},
        {"ssh-option", required_argument, NULL, 'O'},
        {"remote-drdb", required_argument, NULL, 'O'},
        {"launcher", required_argument, NULL, 'O'},
        {"also", required_argument, NULL, 'O'},
        {"hosts", required_argument, NULL, 'O'},
        {"keep", optional_argument, NULL, 'K'},
        {"start", required_argument, NULL, 'S'},
        {"debug-file-directory", required_argument, NULL, 'D'},
        {NULL, 0, NULL, 0},
    };
    /* --keep: the run as given, for the session note */
    char spec[16384] = "", run_dir[4096];
    size_t spec_len = 0;
    long long keep_s = 0;
    /* HOST:RUNDIR, --also, --hosts: the run's parts and how their hosts
     * are reached (fe.h). */
    static struct remote_opts ro;
    static struct fe_run_opts runopts;
    int optidx = 0;
    fe_run_opts_init(&runopts, &ro);
    const char *ranks = "0", *script = NULL;
    long long timeout = 0;
    int batch = batch_cmd, json = 0, keep_going = 0, trust = 0, ch;
    int in_place = 0, lazy = -1; /* --start: -1 by the ranks' number */
    const char *debug_dir = "";
    /* RUNDIR, then attach's ID or batch's SCRIPT; options before, between
     * or after them */
    const char *pos[2];
    int npos = 0;
    while ((ch = fe_getopt(argc, argv, "+r:bx:t:k", opts, &optidx, pos,
                           attach || batch_cmd ? 2 : 1, &npos)) != -1) {
        switch (ch) {
        case 'r': ranks = optarg; break;
        case 'b': batch = 1; break;
        case 'x': script = optarg; break;
        case 't':
            if (fe_parse_int(optarg, 0, INT_MAX / 1000, &timeout) < 0) {
                fe_error("--timeout takes a number of seconds, not '%s'",
                         optarg);
                return 2;
            }
            break;
        case 'M': con_cmds_markdown(stdout); return 0;
        case 'j': json = 1; break;
        case 'k': keep_going = 1; break;
        case 'T': trust = 1; break;
        case 'W': in_place = 1; break;
        case 'D': debug_dir = optarg; break;
        case 'S':
            if (strcmp(optarg, "main") != 0 && strcmp(optarg, "lazy") != 0) {
                fe_error("--start takes 'main' (every rank's GDB now, run "
                         "to main) or 'lazy' (each when a command needs "
                         "it), not '%s'", optarg);
                return 2;
            }
            lazy = strcmp(optarg, "lazy") == 0;
            break;
        case 'K':
            if (attach) {
                fe_error("drdb attach keeps the session as it was kept");
                return 2;
            }
            keep_s = 600;
            if (optarg && fe_parse_int(optarg, 1, 7 * 86400, &keep_s) < 0) {
                fe_error("--keep takes a number of seconds (1 to 604800), "
                         "not '%s'", optarg);
                return 2;
            }
            break;
        case 'O':
            if (fe_run_opt(&runopts, opts[optidx].name, optarg) < 0)
                return 2;
            if (strcmp(opts[optidx].name, "also") == 0 ||
                strcmp(opts[optidx].name, "hosts") == 0)
                spec_len += (size_t)snprintf(
                    spec + spec_len, sizeof spec - spec_len, "opt %s\t%s\n",
                    opts[optidx].name, optarg);
            if (spec_len >= sizeof spec) {
                fe_error("too many parts for --keep");
                return 2;
            }
            break;
        default:
            fe_subcmd_usage(batch_cmd ? &fe_sub_batch : &fe_sub_console,
                            stderr);
            return 2;
        }
    }
    if (!npos) {
        fe_error(attach ? "which host? for example: drdb attach node17"
                        : "which run? for example: drdb console run1");
        return 2;
    }
    const char *dir = pos[0];
    /* attach: HOST [ID], the run from the kept session's note */
    const char *host = dir, *id = NULL;
    char *note = NULL;
    if (attach) {
        if (npos > 1)
            id = pos[1];
        if (optind < argc) {
            fe_subcmd_usage(&fe_sub_attach, stderr);
            return 2;
        }
        if (attach_note(&ro, host, id, &runopts, run_dir, sizeof run_dir,
                        &note) < 0)
            return 1;
        dir = run_dir;
    } else if (keep_s) {
        snprintf(spec + spec_len, sizeof spec - spec_len, "run %s\n", dir);
    }
    if (batch_cmd) {
        if (npos < 2) {
            fe_error("drdb batch RUNDIR SCRIPT: which script?");
            return 2;
        }
        script = pos[1];
    }
    /* "-- PROGRAM ARGS": replay another build of the program. */
    char **prog = NULL;
    if (optind < argc && strcmp(argv[optind], "--") != 0) {
        fe_error("what is '%s'? a program to replay instead of the "
                 "recorded one goes after '--': drdb %s %s%s%s -- PROGRAM "
                 "ARGS", argv[optind], batch_cmd ? "batch" : "console", dir,
                 batch_cmd ? " " : "", batch_cmd ? script : "");
        free(note);
        return 2;
    }
    if (optind < argc && optind + 1 < argc)
        prog = argv + optind + 1;
    if (batch && !script) {
        fe_error("--batch needs a script: -x SCRIPT");
        return 2;
    }
    if (json && !batch && isatty(0)) {
        fe_error("--json is for scripts: drdb batch --json RUNDIR SCRIPT");
        return 2;
    }

    struct con c;
    char err[512];
    ro.keep_s = (int)keep_s; /* each host's connection is kept */
    if (fe_run_opts_alloc(&runopts, dir, err, sizeof err) < 0) {
        free(note);
        return fe_error("%s", err);
    }
    fe_nofile_raise(); /* each rank's log, its GDB's pipes and terminal */
    if (con_open(&c, dir, &runopts, err, sizeof err) < 0) {
        con_close(&c);
        free(note);
        return fe_error("%s", err);
    }
    if (prog) {
        size_t used = 0;
        if (!realpath(prog[0], c.exe))
            snprintf(c.exe, sizeof c.exe, "%s", prog[0]);
        for (int i = 0; prog[i] && used < sizeof c.args; i++)
            used += (size_t)snprintf(c.args + used, sizeof c.args - used,
                                     "%s%s", i ? "\x1f" : "", prog[i]);
    }
    c.trust = trust;
    if (strlen(debug_dir) >= sizeof c.debug_dir) {
        con_close(&c);
        free(note);
        return fe_error("--debug-file-directory: too long a path");
    }
    snprintf(c.debug_dir, sizeof c.debug_dir, "%s", debug_dir);
    c.program = prog ? prog[0] : NULL;
    c.json = json;
    c.keep_going = keep_going;
    c.in_place = in_place;
    c.timeout_ms = (int)timeout * 1000;
    if (con_parse_set(&c, ranks, strlen(ranks), &c.focus) < 0) {
        con_close(&c);
        return 2;
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

    if (json && con_json_open(&c) < 0) {
        con_close(&c);
        return 2;
    }
    if (!json)
        con_summary(&c, stdout);
    /* The program that will run, shown and checked before any GDB
     * starts. */
    fflush(stdout);
    if (keep_s && con_keep_start(&c, (int)keep_s, spec,
                                 json ? stderr : stdout) < 0) {
        con_close(&c);
        con_json_close(&c);
        return 2;
    }
    int rc = 0;
    if (attach) {
        /* the kept GDBs as the ranks', where they stand */
        int n = 0;
        char buf[256];
        rc = con_keep_adopt(&c, note, host, id, &n) < 0 || !n;
        free(note);
        if (!n) { /* the session stays kept as it is */
            fprintf(stderr, "drdb: no rank's GDB to take over in the "
                    "session on %s: 'drdb attach --list %s' shows it\n",
                    host, host);
            con_close(&c);
            con_json_close(&c);
            return 1;
        }
        if (!json)
            printf("attached on %s: ranks %s as they were\n", host,
                   rs_format(&c.focus, buf, sizeof buf));
        if (!json && c.program) /* what a replay or restart runs */
            printf("  program: %s (the kept session's, not the recorded "
                   "one)\n", c.program);
    }
    if (!attach && c.nhosts)
        fprintf(json ? stderr : stdout, "  program: %s, checked on %s%s "
                "when a rank starts there\n", c.exe, c.hosts[0].name,
                c.nhosts > 1 ? " and the other hosts" : "");
    if (!attach && c.dir[0] &&
        launch_check(&c.run, c.dir, c.exe, prog != NULL, trust,
                     json ? stderr : stdout, "  ") < 0) {
        con_close(&c);
        con_json_close(&c);
        return 2;
    }
    if (!attach) {
        /* Where the ranks' writes go (docs/replaying.md, "Files"). */
        fprintf(json ? stderr : stdout, in_place
                ? "  files: --write-in-place: the program writes its files "
                  "where it says, over the recorded run's\n"
                : "  files: rank R writes its files in " LAUNCH_OUT_DIR
                  "/rank-R of its run directory (emptied when the rank "
                  "starts): %s%s\n", c.dir[0] ? c.dir : "",
                c.nhosts ? (c.dir[0] ? " here, and on each host"
                                     : "on each host") : "");
        if (lazy < 0)
            lazy = rs_count(&c.focus) > CON_LAZY_ABOVE;
        if (!lazy)
            rc = con_replay(&c, &c.focus) < 0;
        /* lazy, or those Ctrl-C kept from starting */
        con_defer(&c, &c.focus);
        c.interrupted = 0;
    }
    if (!attach && !json) {
        char buf[256];
        struct rankset up, later;
        rs_init(&up, c.nranks);
        rs_init(&later, c.nranks);
        rs_copy(&up, &c.focus);
        for (int r = 0; r < c.nranks; r++)
            if (c.ranks[r].state == CON_DEFERRED) {
                rs_add(&later, r);
                rs_del(&up, r);
            }
        if (lazy)
            printf("ranks %s in the session, not started: each rank's GDB "
                   "starts (and runs to main)\nwhen a command needs it; "
                   "'replay' starts the ranks in focus now\n",
                   rs_format(&c.focus, buf, sizeof buf));
        else if (rs_count(&up))
            printf("replaying ranks %s, stopped at main\n",
                   rs_format(&up, buf, sizeof buf));
        if (!lazy && rs_count(&later))
            printf("ranks %s not started (Ctrl-C): each starts when a "
                   "command needs it\n", rs_format(&later, buf, sizeof buf));
        rs_release(&up);
        rs_release(&later);
    }
    if (script)
        rc |= con_source(&c, script) < 0;
    /* Commands from a pipe or a file: read them as a script (echoed, in
     * order), without readline's prompt. */
    if (!batch && !c.quit)
        rc |= isatty(0) ? interactive(&c) : con_source(&c, "-") < 0;
    /* In batch, a rank that ended abnormally fails the run, unless an
     * `assert` on it passed after it ended (the script expected it);
     * interactively, a divergence or a lost rank. */
    for (int r = 0; r < c.nranks; r++) {
        struct con_rank *k = &c.ranks[r];
        if (!batch ? k->state != CON_DIVERGED && k->state != CON_LOST
                   : !con_rank_abnormal(k) || k->end_checked)
            continue;
        con_stub_failure(&c, k);
        fprintf(stderr, "drdb: rank %d ended abnormally: %s%s%s (an 'assert' "
                "on it after its end accepts it)\n", r,
                con_state_name(k->state), k->reason[0] ? ": " : "",
                k->reason);
        rc = 1;
    }
    con_flow_release(&c);
    con_keep_end(&c); /* kept sessions end with the console's own end */
    con_close(&c);
    con_json_close(&c);
    return rc;
}

int fe_console_attach(int argc, char **argv)
{
    return start(argc, argv, 0, 1);
}

static int run_console(int argc, char **argv)
{
    return start(argc, argv, 0, 0);
}

static int run_batch(int argc, char **argv)
{
    return start(argc, argv, 1, 0);
}

const struct fe_subcmd fe_sub_console = {
    .name = "console",
    .args = "[--ranks SET] [--start main|lazy] [-x SCRIPT [--batch]] "
            "[--timeout S] [--trust] [--debug-file-directory DIRS] "
            "[--write-in-place] [--ssh-option OPT]... [--remote-drdb PATH] "
            "[--launcher ssh|srun] [--also PART]... [--hosts LIST] "
            "[--keep[=S]] [HOST:]RUNDIR [-- PROGRAM ARGS]",
    .summary = "debug replayed ranks interactively, each under its own GDB",
    .help = "Opens a recorded run, starts the replay of the chosen ranks "
            "(default: rank 0),\neach under its own GDB, stopped at main "
            "(more than 64 ranks: each when a\ncommand needs it), and reads "
            "commands ('help' lists them).\nCommands go to the "
            "ranks in focus, or to '@SET COMMAND's set. After '--',\nanother "
            "program (a rebuilt one) runs instead of the recorded.\n\n"
            "  -r, --ranks SET    ranks to replay, e.g. 0-3,8 (default: 0)\n"
            "      --start main|lazy  main: every rank's GDB starts now, and "
            "runs to main;\n"
            "                     lazy: a rank's GDB starts when a command "
            "needs it\n"
            "                     (status, events, match, check, graph and "
            "queries need\n"
            "                     none). Default: main up to 64 ranks, "
            "lazy above\n"
            "      --debug-file-directory DIRS  where each GDB looks for "
            "separate debug\n"
            "                     info (GDB's setting): by default none, "
            "so the system's\n"
            "                     libraries (libc6-dbg) are not read: a GDB "
            "starts in\n"
            "                     half the time and memory; /usr/lib/debug "
            "reads them\n"
            "  -x, --execute F    run the commands of file F first\n"
            "  -b, --batch        then exit (no prompt); exit status 1 if a "
            "command\n"
            "                     failed or a rank diverged or was lost\n"
            "  -t, --timeout S    a command that does not complete in S "
            "seconds fails\n"
            "      --json         with --batch: one JSON object per command "
            "on stdout\n"
            "  -k, --keep-going   with --batch: run the whole script even "
            "after a failure\n"
            "      --trust        run the recorded program even when the run "
            "or the\n"
            "                     program is another user's or writable by "
            "others, or the\n"
            "                     program is not the recorded build\n"
            "      --write-in-place  let the program write its files where "
            "it says, over\n"
            "                     the recorded run's (by default rank R "
            "writes in\n"
            "                     RUNDIR/replay-out/rank-R/, emptied when it "
            "starts)\n"
            "      --ssh-option OPT  for HOST:RUNDIR: passed to ssh as -o OPT\n"
            "      --remote-drdb PATH  for HOST:RUNDIR: the drdb there "
            "(default: drdb\n"
            "                     on its PATH)\n"
            "      --launcher ssh|srun  how each host's agent starts: over "
            "ssh (default),\n"
            "                     or by srun as a step of the Slurm "
            "allocation drdb\n"
            "                     runs in; srun with RUNDIR alone: RUNDIR "
            "on every node\n"
            "                     of the allocation, as --hosts lists them\n"
            "      --also PART    another part of the run (repeatable): a "
            "DIR or\n"
            "                     HOST:DIR holding some ranks' logs\n"
            "      --hosts LIST   RUNDIR on each host of LIST (h1,h2:N or "
            "@FILE, an\n"
            "                     MPICH host file): each rank replays on "
            "the host\n"
            "                     that has its log, the one mpiexec placed "
            "it on first\n"
            "      --keep[=S]     ranks on hosts: a dropped connection "
            "leaves their GDBs\n"
            "                     kept there S seconds (default 600) for "
            "'drdb attach HOST ID'\n"
            "                     (the session's id is printed); quit ends "
            "them\n\n"
            "Before any GDB starts, the console shows the program that will "
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
    .args = "[--ranks SET] [--start main|lazy] [--timeout S] [--json] [-k] "
            "[--trust] [--debug-file-directory DIRS] "
            "[--write-in-place] RUNDIR SCRIPT [-- PROGRAM ARGS]",
    .summary = "run a console script non-interactively",
    .help = "Like 'drdb console --batch -x SCRIPT RUNDIR': each command "
            "completes on every\ntargeted rank before the next starts; the "
            "first failing command ends the\nscript (-k: goes on). Exit status 1 if a "
            "command or an assert failed, or a rank diverged\nor was lost.\n"
            "\nexample:\n  drdb batch --ranks 0-3 run1 check.drdb\n",
    .run = run_batch,
};
