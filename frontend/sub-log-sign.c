/*
 * drdb log sign RUNDIR: signs a run of this user's with their key
 * (launch.h, docs/security.md), after showing what its replay runs, so
 * that replays start it without --trust: a run recorded before drdb
 * signed runs, or one the user checked and takes as their own.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fe.h"
#include "launch.h"
#include "log-reader.h"

static int cmd_sign(int argc, char **argv)
{
    struct fe_pos pos;
    struct log_run run;
    struct stat st;
    char dir[PATH_MAX], err[4600], exe[PATH_MAX];
    if (fe_subcmd_parse(&fe_sub_log_sign, argc, argv, NULL, 1, &pos) < 0)
        return 2;
    if (pos.n != 1 || pos.rest < argc)
        return fe_subcmd_misuse(&fe_sub_log_sign);
    if (!realpath(pos.v[0], dir))
        return fe_error("cannot open run '%s': %s", pos.v[0],
                        strerror(errno)), 2;
    if (stat(dir, &st) == 0 && st.st_uid != geteuid())
        return fe_error("'%s' is not your run directory: drdb signs only "
                        "runs of your own; copy it to a directory of yours "
                        "(cp -r), check it there, then sign the copy", dir),
               2;
    if (log_run_open(&run, dir, err, sizeof err) < 0)
        return fe_error("%s", err), 2;
    printf("signing %s/%s with your key: its replays will run, without "
           "asking,\n", dir, LOG_RUN_FILE);
    launch_show(&run, dir,
                log_run_get(&run, "exe", exe, sizeof exe) ? exe : "(none)",
                stdout, "  ");
    log_run_release(&run);
    if (launch_run_sign(dir, err, sizeof err) < 0)
        return fe_error("%s", err), 1;
    printf("signed\n");
    return 0;
}

const struct fe_subcmd fe_sub_log_sign = {
    .name = "sign",
    .args = "RUNDIR",
    .summary = "sign a run of yours with your key, after showing what its "
               "replay runs, so that replays start it without --trust",
    .more = "drdb record signs the runs it records; sign a run recorded "
            "before drdb signed\nruns, or one you checked and take as your "
            "own (docs/security.md)\n",
    .parent = &fe_sub_log,
    .run = cmd_sign,
};
