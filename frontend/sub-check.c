/* drdb check: MPI usage checks over a recorded run, offline
 * (events/ev-check.h, docs/check.md). */
#include <signal.h>
#include <stddef.h>
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

struct check_opts {
    const char *checks;
    int list, json, sarif, werror;
    struct fe_run_opts run;
};

#define OFF(f) offsetof(struct check_opts, f)
static const struct fe_opt check_opts[] = {
    FE_STR(0, "checks", "LIST", OFF(checks), "only these: names or patterns "
     "separated by commas, '-' before one turns it off (all,-race.*)"),
    FE_FLAG(0, "list", OFF(list), "the checks, with their severity"),
    FE_FLAG(0, "json", OFF(json), "one JSON document: checks, findings with "
     "their sites, notes, counts"),
    FE_FLAG(0, "sarif", OFF(sarif), "SARIF 2.1.0, for code-scanning tools: a "
     "rule per check, a result per finding at its source line"),
    FE_FLAG(0, "werror", OFF(werror), "warnings and portability findings "
     "count as errors"),
    FE_GROUP(OFF(run), fe_run_opt_table),
    FE_END,
};
#undef OFF

static int run(int argc, char **argv)
{
    static struct check_opts o;
    struct fe_pos pos;
    fe_run_opts_init(&o.run);
    if (fe_subcmd_parse(&fe_sub_check, argc, argv, &o, 1, &pos) < 0)
        return 2;
    if (o.list)
        return ev_check_print_list(stdout), 0;
    if (o.json && o.sarif)
        return fe_error("--json and --sarif: one format at a time"), 2;
    if (pos.n != 1 || pos.rest < argc)
        return fe_subcmd_misuse(&fe_sub_check);
    const char *spec = o.checks, *dir = pos.v[0];
    int format = o.json ? EV_CHECK_JSON : o.sarif ? EV_CHECK_SARIF
                                                  : EV_CHECK_HUMAN;
    int werror = o.werror;
    char err[512];
    unsigned char *on = malloc(ev_check_count() + 1);
    struct ev_run x;
    struct fe_run fr;
    if (!on || ev_check_select(spec, on, err, sizeof err) < 0 ||
        fe_run_opts_done(&o.run, &dir, err, sizeof err) < 0 ||
        fe_ev_open(&x, &fr, dir, &o.run, 1, err, sizeof err) < 0) {
        fe_error("%s", on ? err : "out of memory");
        free(on);
        fe_run_opts_release(&o.run);
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
    fe_run_opts_release(&o.run);
    return st;
}

const struct fe_subcmd fe_sub_check = {
    .name = "check",
    .args = "[HOST:]RUNDIR",
    .summary = "check a recorded run's MPI usage, offline",
    .help = "Reads every rank's log and reports MPI usage errors, grouped "
            "by check with a\ncount per check: each finding its check's "
            "name, severity and the events\ninvolved (R:N), each with its "
            "call and arguments and, when the log has its\nreturn "
            "address, its source line; then what a check could not see "
            "(notes)\nand the total (docs/check.md).\n",
    .opts = check_opts,
    .more = "Ctrl-C stops between checks and says so (exit status 130).\n"
            "Exit status: 1 when errors were found (with --werror: any "
            "finding), 0\notherwise, 2 on bad usage or a run that cannot "
            "be read.\n",
    .run = run,
};
