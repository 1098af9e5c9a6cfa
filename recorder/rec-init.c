/*
 * The life cycle: MPI_Init opens the log (its record is the first, at time
 * 0), MPI_Finalize closes it, MPI_Abort logs itself before the processes
 * go. Their hooks run whether or not this rank is recorded (the spec's
 * 'lifecycle' kind). The mirror of replayer/rpl-init.c.
 */
#include <stdio.h>

#include "rec.h"

/* Opens the log after a successful PMPI_Init*: times are relative to the
 * log's start, so Init itself is at 0. */
static void opened(struct rec_call *c)
{
    if (c->ret == MPI_SUCCESS)
        rec_open();
    c->t0 = 0;
    c->t1 = rec_on ? rec_now() : 0;
}

void rec_MPI_Init(struct rec_call *c, struct args_MPI_Init *a)
{
    rec_pmpi_MPI_Init(c, a);
    opened(c);
    struct log_rec rec;
    if (rec_frame_MPI_Init(c, a, &rec, 0, 0))
        rec_end(&rec);
}

void rec_MPI_Init_thread(struct rec_call *c, struct args_MPI_Init_thread *a)
{
    rec_pmpi_MPI_Init_thread(c, a);
    opened(c);
    if (a->provided && *a->provided == MPI_THREAD_MULTIPLE)
        fprintf(stderr,
                "drdb-record: warning: MPI_THREAD_MULTIPLE: calls from several "
                "threads are logged in the order they complete; replay "
                "reproduces that order only if the threads make their MPI "
                "calls in it\n");
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
    rec_pmpi_MPI_Finalize(c, a);
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
