/*
 * The life cycle: MPI_Init opens the log (its record is the first, at time
 * 0), MPI_Finalize closes it, MPI_Abort logs itself before the processes
 * go. Their hooks run whether or not this rank is recorded (the spec's
 * 'lifecycle' kind). The mirror of replayer/rpl-init.c.
 */
#include "rec.h"
#include "thread.h"

/* Opens the log after a successful PMPI_Init*: times are relative to the
 * log's start, so Init itself is at 0. */
static void opened(struct rec_call *c)
{
    if (c->ret == MPI_SUCCESS)
        rec_open();
    c->t0 = 0;
    c->t1 = rec_on ? rec_now() : 0;
}

/* Threads the MPI library starts in MPI_Init (a progress thread) or
 * MPI_Finalize are its own: they use up no number of the program's
 * (util/thread.h), whose replay starts none. */
void rec_MPI_Init(struct rec_call *c, struct args_MPI_Init *a)
{
    util_thread_internal(1);
    rec_pmpi_MPI_Init(c, a);
    util_thread_internal(-1);
    opened(c);
    /* MPICH's default level can be MULTIPLE (MPIR_CVAR_DEFAULT_THREAD_LEVEL). */
    int level;
    if (rec_on && PMPI_Query_thread(&level) == MPI_SUCCESS &&
        level == MPI_THREAD_MULTIPLE)
        rec_mt = 1;
    struct log_rec rec;
    if (rec_frame_MPI_Init(c, a, &rec, 0, 0))
        rec_end(&rec);
}

void rec_MPI_Init_thread(struct rec_call *c, struct args_MPI_Init_thread *a)
{
    util_thread_internal(1);
    rec_pmpi_MPI_Init_thread(c, a);
    util_thread_internal(-1);
    opened(c);
    /* Calls from several threads: each record names its thread, and they
     * are committed one at a time from here on (rec.h). */
    if (rec_on && c->ret == MPI_SUCCESS && a->provided &&
        *a->provided == MPI_THREAD_MULTIPLE)
        rec_mt = 1;
    struct log_rec rec;
    if (rec_frame_MPI_Init_thread(c, a, &rec, 0, LOG_FIELD_HEAD + 4)) {
        rec_put_raw(&rec, LOG_A_MPI_Init_thread_provided, 0, a->provided, 4);
        rec_end(&rec);
    }
}

/* The record goes first: after PMPI_Finalize nothing may fail. */
void rec_MPI_Finalize(struct rec_call *c, struct args_MPI_Finalize *a)
{
    struct log_rec rec;
    c->t0 = c->t1 = rec_on ? rec_now() : 0;
    if (rec_frame_MPI_Finalize(c, a, &rec, 0, 0))
        rec_end(&rec);
    util_thread_internal(1);
    rec_pmpi_MPI_Finalize(c, a);
    util_thread_internal(-1);
    rec_close(); /* also after logging stopped early: trims the file */
}

void rec_MPI_Abort(struct rec_call *c, struct args_MPI_Abort *a)
{
    struct log_rec rec;
    c->t0 = c->t1 = rec_on ? rec_now() : 0;
    if (rec_frame_MPI_Abort(c, a, &rec, 0, 0))
        rec_end(&rec);
    rec_pmpi_MPI_Abort(c, a);
}
