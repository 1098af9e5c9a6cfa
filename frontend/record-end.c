/*
 * What drdb record does once the launcher has ended (fe.h): the verdict on
 * each rank's log (the compression: run-compress.c).
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fe.h"
#include "log-compress.h"
#include "log-reader.h"
#include "rankset.h"

/* After the run: each rank that should have a log and has none, or whose
 * log is truncated, killed or damaged, named on stderr. RANKS: the
 * --ranks list (NULL: all). Returns the number of ranks named, or -1 when
 * the run cannot be opened at all. */
int fe_rec_verdict(const char *dir, const char *ranks, int *ended)
{
    *ended = 0;
    struct log_run run;
    char err[512], buf[512];
    if (log_run_open(&run, dir, err, sizeof err) < 0) {
        fprintf(stderr, "drdb: the run cannot be opened: %s\n", err);
        return -1;
    }
    int n = run.world_size, named = 0;
    log_run_release(&run);
    struct rankset want, sets[6];
    static const char *const what[6] = {
        "no log (it could not be created: see the messages above)",
        "truncated (disk full): logged up to the stop, replayable that far",
        "killed mid-run", "ended in MPI_Abort", "damaged",
        "cut at --max-log-size: logged up to the limit, replayable that "
        "far"};
    int at;
    const char *why;
    if (rs_init(&want, n) < 0)
        return -1;
    for (int i = 0; i < 6; i++)
        rs_init(&sets[i], n);
    if (!ranks || rs_parse(ranks, strlen(ranks), &want, NULL, NULL, &at,
                           &why) < 0)
        for (int r = 0; r < n; r++)
            rs_add(&want, r);
    for (int r = 0; r < n; r++) {
        if (!rs_has(&want, r))
            continue;
        char path[PATH_MAX];
        struct log_rank lr;
        log_path(path, sizeof path, dir, r);
        if (log_rank_open_trusted(&lr, path, err, sizeof err) < 0) {
            rs_add(&sets[errno == ENOENT || access(path, F_OK) < 0 ? 0 : 4],
                   r);
            continue;
        }
        switch (log_rank_ending(&lr, buf, sizeof buf)) {
        case LOG_END_TRUNCATED:
            rs_add(&sets[lr.hdr.flags & LOG_HDR_LIMITED ? 5 : 1], r);
            break;
        case LOG_END_KILLED:
            /* a rank's own crash, the call MPI ended it in, its exit
             * without MPI_Finalize, said apart from the ranks the
             * launcher killed after it */
            if (log_rank_signal(dir, &lr) || lr.died ||
                log_rank_exited(dir, &lr)) {
                log_rank_ending_in(dir, &lr, buf, sizeof buf);
                fprintf(stderr, "drdb: rank %d: %s\n", r, buf);
                (*ended)++;
            } else {
                rs_add(&sets[2], r);
            }
            break;
        case LOG_END_ABORT: rs_add(&sets[3], r); break;
        case LOG_END_CORRUPT: rs_add(&sets[4], r); break;
        default: break;
        }
        log_rank_release(&lr);
    }
    for (int i = 0; i < 6; i++) {
        if (rs_count(&sets[i])) {
            char list[200];
            fprintf(stderr, "drdb: rank%s %s: %s\n",
                    rs_count(&sets[i]) > 1 ? "s" : "",
                    rs_format(&sets[i], list, sizeof list), what[i]);
            /* The program's own end (an abort, a kill) is the launcher's
             * failure; a missing or cut log is the recording's (cut at
             * the limit asked for, it is what was asked). */
            if (i == 0 || i == 1 || i == 4)
                named += rs_count(&sets[i]);
            else if (i == 2 || i == 3)
                *ended += rs_count(&sets[i]);
        }
        rs_release(&sets[i]);
    }
    rs_release(&want);
    return named;
}

