/* drdb check: MPI usage checks over a recorded run, offline
 * (events/ev-check.h, docs/check.md). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ev-check.h"
#include "fe.h"
#include "remote.h"

/* What the run of checks found. */
struct found {
    size_t count[3]; /* per severity */
};

static void emit(void *ud, const struct ev_check_finding *f)
{
    struct found *fd = ud;
    fd->count[f->severity]++;
    printf("%s %s: %s\n", ev_check_severity_name(f->severity), f->check,
           f->message);
    for (int i = 0; i < f->nsites; i++) {
        const struct ev_check_site *s = &f->sites[i];
        if (s->event == EV_NONE)
            printf("    %d:end %s\n", s->rank, s->role);
        else
            printf("    %d:%llu %s\n", s->rank,
                   (unsigned long long)s->event, s->role);
    }
}

static void note(void *ud, const char *check, const char *msg)
{
    (void)ud;
    printf("note %s: %s\n", check, msg);
}

static int list_checks(void)
{
    for (size_t i = 0; i < ev_check_count(); i++) {
        const struct ev_check_def *d = ev_check_at(i);
        printf("  %-26s %-11s %s\n", d->name,
               ev_check_severity_name(d->severity), d->summary);
    }
    return 0;
}

static int run(int argc, char **argv)
{
    static const struct option opts[] = {
        {"checks", required_argument, NULL, 'c'},
        {"list", no_argument, NULL, 'l'},
        {NULL, 0, NULL, 0},
    };
    static struct remote_opts ropts;
    struct fe_run_opts runopts;
    const char *spec = NULL;
    int c;
    fe_run_opts_init(&runopts, &ropts);
    optind = 1;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        if (c == 'c')
            spec = optarg;
        else if (c == 'l')
            return list_checks();
        else {
            fe_subcmd_usage(&fe_sub_check, stderr);
            return 2;
        }
    }
    if (optind + 1 != argc) {
        fe_subcmd_usage(&fe_sub_check, stderr);
        return 2;
    }
    char err[512];
    unsigned char *on = malloc(ev_check_count() + 1);
    if (!on)
        return fe_error("out of memory");
    if (ev_check_select(spec, on, err, sizeof err) < 0) {
        free(on);
        return fe_error("%s", err) + 1;
    }
    struct ev_run x;
    struct fe_run fr;
    if (fe_ev_open(&x, &fr, argv[optind], &runopts, err, sizeof err) < 0) {
        free(on);
        return fe_error("%s", err) + 1;
    }
    struct found fd = {{0}};
    struct ev_check_ctx ctx = {.x = &x, .emit = emit, .note = note,
                               .ud = &fd};
    int st = 0;
    if (ev_check_run(&ctx, on, err, sizeof err) < 0)
        st = fe_error("%s", err) + 1;
    else {
        printf("%zu errors, %zu warnings, %zu portability\n",
               fd.count[EV_CHECK_ERROR], fd.count[EV_CHECK_WARNING],
               fd.count[EV_CHECK_PORTABILITY]);
        st = fd.count[EV_CHECK_ERROR] ? 1 : 0;
    }
    free(on);
    ev_close(&x);
    fe_run_close(&fr);
    fe_run_opts_release(&runopts);
    return st;
}

const struct fe_subcmd fe_sub_check = {
    .name = "check",
    .args = "[--checks LIST] [--list] RUNDIR",
    .summary = "check a recorded run's MPI usage, offline",
    .help = "  Reads every rank's log and reports MPI usage errors: each "
            "finding its\n  check's name, severity and the events involved "
            "(R:N).\n"
            "  --checks LIST  only these: names or patterns separated by "
            "commas,\n                 '-' before one turns it off "
            "(all,-race.*)\n"
            "  --list         the checks, with their severity\n"
            "  Exit status: 1 when errors were found, 0 otherwise, 2 on "
            "bad usage\n  or a run that cannot be read.\n",
    .run = run,
};
