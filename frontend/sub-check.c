/* drdb check: MPI usage checks over a recorded run, offline
 * (events/ev-check.h, docs/check.md). */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ev-check.h"
#include "fe.h"
#include "remote.h"

/* Set by SIGINT: the runner stops between checks (and a check every few
 * thousand events). */
static volatile int interrupted;

static void on_sigint(int sig)
{
    (void)sig;
    interrupted = 1;
}

static int usage(void)
{
    fe_subcmd_usage(&fe_sub_check, stderr);
    return 2;
}

static int run(int argc, char **argv)
{
    static const struct option opts[] = {
        {"checks", required_argument, NULL, 'c'},
        {"list", no_argument, NULL, 'l'},
        {"json", no_argument, NULL, 'j'},
        {"sarif", no_argument, NULL, 's'},
        {"werror", no_argument, NULL, 'w'},
        {"ssh-option", required_argument, NULL, 'O'},
        {"remote-drdb", required_argument, NULL, 'O'},
        {"launcher", required_argument, NULL, 'O'},
        {"also", required_argument, NULL, 'O'},
        {"hosts", required_argument, NULL, 'O'},
        {NULL, 0, NULL, 0},
    };
    static struct remote_opts ropts;
    static struct fe_run_opts runopts;
    const char *spec = NULL;
    int c, optidx = 0, format = EV_CHECK_HUMAN, werror = 0;
    fe_run_opts_init(&runopts, &ropts);
    optind = 1;
    while ((c = getopt_long(argc, argv, "", opts, &optidx)) != -1) {
        switch (c) {
        case 'c': spec = optarg; break;
        case 'l': ev_check_print_list(stdout); return 0;
        case 'j':
        case 's':
            if (format != EV_CHECK_HUMAN) {
                fe_error("--json and --sarif: one format at a time");
                return 2;
            }
            format = c == 'j' ? EV_CHECK_JSON : EV_CHECK_SARIF;
            break;
        case 'w': werror = 1; break;
        case 'O':
            if (fe_run_opt(&runopts, opts[optidx].name, optarg) < 0)
                return 2;
            break;
        default: return usage();
        }
    }
    if (optind + 1 != argc)
        return usage();
    char err[512];
    unsigned char *on = malloc(ev_check_count() + 1);
    struct ev_run x;
    struct fe_run fr;
    if (!on || ev_check_select(spec, on, err, sizeof err) < 0 ||
        fe_run_opts_alloc(&runopts, argv[optind], err, sizeof err) < 0 ||
        fe_ev_open(&x, &fr, argv[optind], &runopts, 1, err, sizeof err) < 0) {
        fe_error("%s", on ? err : "out of memory");
        free(on);
        fe_run_opts_release(&runopts);
        return 2;
    }
    struct ev_check_report rep;
    ev_check_report_init(&rep);
    struct ev_check_ctx ctx = {.x = &x, .emit = ev_check_keep_emit,
                               .note = ev_check_keep_note, .ud = &rep,
                               .interrupted = &interrupted};
    struct sigaction sa = {0}, old;
    sa.sa_handler = on_sigint;
    sigaction(SIGINT, &sa, &old);
    int st;
    if (ev_check_run(&ctx, on, err, sizeof err) < 0) {
        st = fe_error("%s", err) + 1;
    } else {
        ev_check_print(&x, &rep, on, interrupted, format, stdout);
        size_t bad = rep.count[EV_CHECK_ERROR];
        if (werror)
            bad += rep.count[EV_CHECK_WARNING] +
                   rep.count[EV_CHECK_PORTABILITY];
        st = bad ? 1 : 0;
        if (interrupted) {
            fprintf(stderr, "drdb: interrupted: not every check ran\n");
            st = 130;
        }
    }
    sigaction(SIGINT, &old, NULL);
    ev_check_report_release(&rep);
    free(on);
    ev_close(&x);
    fe_run_close(&fr);
    fe_run_opts_release(&runopts);
    return st;
}

const struct fe_subcmd fe_sub_check = {
    .name = "check",
    .args = "[--checks LIST] [--list] [--json|--sarif] [--werror] "
            "[--ssh-option OPT]... [--remote-drdb PATH] [--launcher "
            "ssh|srun] [--also PART]... [--hosts LIST] [HOST:]RUNDIR",
    .summary = "check a recorded run's MPI usage, offline",
    .help = "  Reads every rank's log and reports MPI usage errors, grouped "
            "by check with\n  a count per check: each finding its check's "
            "name, severity and the events\n  involved (R:N), each with its "
            "call and arguments and, when the log has\n  its return "
            "address, its source line; then what a check could not see\n"
            "  (notes) and the total (docs/check.md).\n"
            "  --checks LIST  only these: names or patterns separated by "
            "commas,\n                 '-' before one turns it off "
            "(all,-race.*)\n"
            "  --list         the checks, with their severity\n"
            "  --json         one JSON document: checks, findings with "
            "their sites,\n                 notes, counts\n"
            "  --sarif        SARIF 2.1.0, for code-scanning tools: a rule "
            "per check, a\n                 result per finding at its "
            "source line\n"
            "  --werror       warnings and portability findings count as "
            "errors\n"
            "  --ssh-option OPT, --remote-drdb PATH, --launcher ssh|srun, "
            "--also PART,\n  --hosts LIST, HOST:RUNDIR: a run whose logs "
            "are on other hosts, read\n  there by drdb's agent (as `drdb "
            "log` and `drdb console` take them)\n"
            "  Ctrl-C stops between checks and says so (exit status 130).\n"
            "  Exit status: 1 when errors were found (with --werror: any "
            "finding), 0\n  otherwise, 2 on bad usage or a run that cannot "
            "be read.\n",
    .run = run,
};
