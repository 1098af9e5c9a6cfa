/* drdb console / drdb batch: debug replayed ranks, each under its own GDB. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <readline/history.h>
#include <readline/readline.h>

#include "con.h"
#include "fe.h"

/* The one-screen summary of the run. */
static void summary(struct con *c)
{
    char host[128] = "";
    log_run_get(&c->run, "command", host, sizeof host);
    printf("run %s: %d ranks\n", c->dir, c->nranks);
    if (host[0])
        printf("recorded: %s\n", host);
    fe_log_summary(c->dir, stdout);
}

/* Runs the commands of SCRIPT ("-": stdin), echoing each. Stops at the
 * first that fails. 0 or 1. */
static int run_script(struct con *c, const char *script)
{
    FILE *f = strcmp(script, "-") == 0 ? stdin : fopen(script, "r");
    char *line = NULL;
    size_t cap = 0;
    int lineno = 0, rc = 0;
    if (!f)
        return fe_error("cannot read '%s': %s", script, strerror(errno));
    while (!c->quit && getline(&line, &cap, f) > 0) {
        lineno++;
        line[strcspn(line, "\n")] = '\0';
        const char *p = line + strspn(line, " \t");
        if (!*p || *p == '#')
            continue;
        printf("(drdb) %s\n", p);
        fflush(stdout);
        if (con_execute(c, p) < 0) {
            fprintf(stderr, "drdb: %s:%d: '%s' failed\n", script, lineno, p);
            rc = 1;
            break;
        }
    }
    free(line);
    if (f != stdin)
        fclose(f);
    return rc;
}

static volatile sig_atomic_t got_sigint;

static void on_sigint(int sig)
{
    (void)sig;
    got_sigint = 1;
}

static int interactive(struct con *c)
{
    char hist[4096] = "";
    const char *home = getenv("HOME");
    if (home) {
        snprintf(hist, sizeof hist, "%s/.drdb_history", home);
        read_history(hist);
    }
    while (!c->quit) {
        char prompt[300], buf[256];
        snprintf(prompt, sizeof prompt, "(drdb %s) ",
                 rs_format(&c->focus, buf, sizeof buf));
        got_sigint = 0;
        char *line = readline(prompt);
        if (!line) {
            putchar('\n');
            break;
        }
        if (*line) {
            add_history(line);
            con_execute(c, line);
        }
        free(line);
    }
    if (hist[0])
        write_history(hist);
    return 0;
}

static void commands_markdown(void)
{
    printf("# Console commands\n\nGenerated from the console's command "
           "table (`frontend/con-cmd.c`). Any command may be prefixed by "
           "`@SET` to run on a rank set once; `focus SET` changes the "
           "default.\n\n| command | alias | what it does |\n|---|---|---|\n");
    for (int i = 0; i < con_ncmds; i++)
        printf("| `%s` | %s | %s |\n", con_cmds[i].usage,
               con_cmds[i].alias ? con_cmds[i].alias : "",
               con_cmds[i].summary);
}

static int start(int argc, char **argv, int batch_cmd)
{
    static const struct option opts[] = {
        {"ranks", required_argument, NULL, 'r'},
        {"batch", no_argument, NULL, 'b'},
        {"execute", required_argument, NULL, 'x'},
        {"timeout", required_argument, NULL, 't'},
        {"commands-markdown", no_argument, NULL, 'M'},
        {NULL, 0, NULL, 0},
    };
    const char *ranks = "0", *script = NULL;
    int batch = batch_cmd, timeout = 0, ch;
    while ((ch = getopt_long(argc, argv, "+r:bx:t:", opts, NULL)) != -1) {
        switch (ch) {
        case 'r': ranks = optarg; break;
        case 'b': batch = 1; break;
        case 'x': script = optarg; break;
        case 't': timeout = atoi(optarg); break;
        case 'M': commands_markdown(); return 0;
        default:
            fe_subcmd_usage(batch_cmd ? &fe_sub_batch : &fe_sub_console,
                            stderr);
            return 2;
        }
    }
    if (optind >= argc) {
        fe_error("which run? for example: drdb console run1");
        return 2;
    }
    const char *dir = argv[optind++];
    if (batch_cmd) {
        if (optind >= argc) {
            fe_error("drdb batch RUNDIR SCRIPT: which script?");
            return 2;
        }
        script = argv[optind++];
    }
    if (batch && !script) {
        fe_error("--batch needs a script: -x SCRIPT");
        return 2;
    }

    struct con c;
    char err[512];
    if (con_open(&c, dir, err, sizeof err) < 0) {
        con_close(&c);
        return fe_error("%s", err);
    }
    c.batch = batch;
    c.timeout_ms = timeout * 1000;
    int at;
    const char *why;
    if (rs_parse(&c, ranks, strlen(ranks), &c.focus, &at, &why) < 0) {
        rs_report(ranks, strlen(ranks), at, why);
        con_close(&c);
        return 2;
    }
    struct sigaction sa = {0};
    sa.sa_handler = on_sigint;
    sigaction(SIGINT, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);

    summary(&c);
    int rc = con_replay(&c, &c.focus) < 0;
    {
        char buf[256];
        printf("replaying ranks %s, stopped at main\n",
               rs_format(&c.focus, buf, sizeof buf));
    }
    if (script)
        rc |= run_script(&c, script);
    if (!batch && !c.quit)
        interactive(&c);
    for (int r = 0; r < c.nranks; r++)
        if (c.ranks[r].state == CON_DIVERGED || c.ranks[r].state == CON_LOST)
            rc = 1;
    con_close(&c);
    return rc;
}

static int run_console(int argc, char **argv)
{
    return start(argc, argv, 0);
}

static int run_batch(int argc, char **argv)
{
    return start(argc, argv, 1);
}

const struct fe_subcmd fe_sub_console = {
    .name = "console",
    .args = "[--ranks SET] [-x SCRIPT [--batch]] [--timeout S] RUNDIR",
    .summary = "debug replayed ranks interactively, each under its own GDB",
    .help = "Opens a recorded run, starts the replay of the chosen ranks "
            "(default: rank 0),\neach under its own GDB, stopped at main, "
            "and reads commands ('help' lists\nthem). Commands go to the "
            "ranks in focus, or to '@SET COMMAND's set.\n\n"
            "  -r, --ranks SET    ranks to replay at the start, e.g. 0-3,8\n"
            "  -x, --execute F    run the commands of file F first\n"
            "  -b, --batch        then exit (no prompt); exit status 1 if a "
            "command\n"
            "                     failed or a rank diverged or was lost\n"
            "  -t, --timeout S    a command that does not complete in S "
            "seconds fails\n\n"
            "example:\n  drdb console --ranks 0-3 run1\n",
    .run = run_console,
};

const struct fe_subcmd fe_sub_batch = {
    .name = "batch",
    .args = "[--ranks SET] [--timeout S] RUNDIR SCRIPT",
    .summary = "run a console script non-interactively",
    .help = "Like 'drdb console --batch -x SCRIPT RUNDIR': each command "
            "completes on every\ntargeted rank before the next starts; the "
            "first failing command ends the\nscript. Exit status 1 if a "
            "command or an assert failed, or a rank diverged\nor was lost.\n"
            "\nexample:\n  drdb batch --ranks 0-3 run1 check.drdb\n",
    .run = run_batch,
};
