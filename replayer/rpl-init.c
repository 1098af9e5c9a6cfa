/*
 * The life cycle, and the calls MPI permits before MPI_Init and after
 * MPI_Finalize. A log that opened at the program's first MPI call
 * (LOG_HDR_EARLY) has the calls before MPI_Init (and all of a Sessions
 * program's): they are replayed. Older logs, and every log after
 * MPI_Finalize, do not: the stub answers those calls itself outside the
 * replay. The mirror of recorder/rec-init.c.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "rpl.h"

static void at_exit(void)
{
    if (rpl_state != RPL_RUNNING || drdb_event >= drdb_nevents)
        return;
    /* A log cut by a full disk: the recorded rank's own later calls were
     * not logged, so exiting here is the end of the log, not a
     * divergence. */
    if (rpl_log_cut_at(drdb_event))
        rpl_log_end(NULL);
    rpl_fail(NULL, RPL_EXIT_DIVERGED,
             "replay diverged: the program exits without MPI_Finalize, but "
             "the log has %" PRIu64 " events", (uint64_t)drdb_nevents);
}

void rpl_run_started(void)
{
    static int armed;
    rpl_state = RPL_RUNNING;
    if (!armed++)
        atexit(at_exit);
}

static int started(int ret)
{
    rpl_run_started();
    return ret;
}

int rpl_MPI_Init(struct args_MPI_Init *a)
{
    return started(rpl_replay_MPI_Init(a));
}

int rpl_MPI_Init_thread(struct args_MPI_Init_thread *a)
{
    return started(rpl_replay_MPI_Init_thread(a));
}

int rpl_MPI_Finalize(struct args_MPI_Finalize *a)
{
    int ret = rpl_replay_MPI_Finalize(a);
    rpl_state = RPL_FINALIZED;
    return ret;
}

int rpl_MPI_Abort(struct args_MPI_Abort *a)
{
    struct rpl_call c;
    rpl_begin_MPI_Abort(&c, a);
    fflush(NULL);
    fprintf(stderr, "drdb-replay: rank %d: MPI_Abort(comm %#x, %d) at event "
            "%" PRIu64 ", as in the recorded run\n", drdb_rank,
            (unsigned)a->comm, a->errorcode, c.ev.index);
    _exit(a->errorcode);
}

/* ---- answers outside the replay ----------------------------------------- */

int rpl_MPI_Initialized(struct args_MPI_Initialized *a)
{
    if (rpl_logging())
        return rpl_replay_MPI_Initialized(a);
    *a->flag = rpl_state != RPL_PRE_INIT;
    return MPI_SUCCESS;
}

int rpl_MPI_Finalized(struct args_MPI_Finalized *a)
{
    if (rpl_logging())
        return rpl_replay_MPI_Finalized(a);
    *a->flag = rpl_state == RPL_FINALIZED;
    return MPI_SUCCESS;
}

int rpl_MPI_Get_version(struct args_MPI_Get_version *a)
{
    if (rpl_logging())
        return rpl_replay_MPI_Get_version(a);
    *a->version = MPI_VERSION;
    *a->subversion = MPI_SUBVERSION;
    return MPI_SUCCESS;
}

int rpl_MPI_Get_library_version(struct args_MPI_Get_library_version *a)
{
    if (rpl_logging())
        return rpl_replay_MPI_Get_library_version(a);
    *a->resultlen = snprintf(a->version, MPI_MAX_LIBRARY_VERSION_STRING,
                             "MPICH Version: %s (drdb replay stub)",
                             MPI_VERSION == 4 ? "4.0.2" : "?");
    return MPI_SUCCESS;
}

double rpl_MPI_Wtime(struct args_MPI_Wtime *a)
{
    if (rpl_logging())
        return rpl_replay_MPI_Wtime(a);
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double rpl_MPI_Wtick(struct args_MPI_Wtick *a)
{
    return rpl_logging() ? rpl_replay_MPI_Wtick(a) : 1e-9;
}
