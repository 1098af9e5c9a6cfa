/*
 * The life cycle: the log opens at the first MPI call, or at MPI_Init when
 * the rank is not known before it (rec.h); MPI_Finalize closes it;
 * MPI_Abort logs itself before the processes go; MPI_Session_init and
 * MPI_Session_finalize count the open sessions (a Sessions program's log
 * closes at exit). Their hooks run whether or not this rank is recorded
 * (the spec's 'lifecycle' kind). The mirror of replayer/rpl-init.c.
 */
#include "rec.h"
#include "thread.h"

/* The log opens at the first MPI call when the environment names the
 * rank (rec.h), else after a successful PMPI_Init*: times are relative to
 * the log's start, so Init is then at 0. MPI's own calls inside PMPI_Init
 * are not the program's: not logged. A second MPI_Init makes none (MPI
 * ends the rank there, or it returns an error): logging stays on, so
 * that it is logged as the call the rank died in (rec_fly). */
#define INIT(c, a, fn)                                                        \
    do {                                                                      \
        int early = rec_live(), again = 0;                                    \
        PMPI_Initialized(&again);                                             \
        if (!again)                                                           \
            rec_on = 0;                                                       \
        util_thread_internal(1);                                              \
        rec_pmpi_##fn(c, a);                                                  \
        util_thread_internal(-1);                                             \
        rec_on = early;                                                       \
        if (c->ret == MPI_SUCCESS) {                                          \
            rec_world(1);                                                     \
            rec_open();                                                       \
        }                                                                     \
        if (!early) {                                                         \
            c->t0 = 0;                                                        \
            c->t1 = rec_on ? rec_now() : 0;                                   \
        }                                                                     \
    } while (0)

/* Threads the MPI library starts in MPI_Init (a progress thread) or
 * MPI_Finalize are its own: they use up no number of the program's
 * (util/thread.h), whose replay starts none. */
void rec_MPI_Init(struct rec_call *c, struct args_MPI_Init *a)
{
    INIT(c, a, MPI_Init);
    /* MPICH's default level can be MULTIPLE (MPIR_CVAR_DEFAULT_THREAD_LEVEL). */
    int level;
    if (rec_on && c->ret == MPI_SUCCESS &&
        PMPI_Query_thread(&level) == MPI_SUCCESS &&
        level == MPI_THREAD_MULTIPLE)
        rec_mt = 1;
    struct log_rec rec;
    if (rec_frame_MPI_Init(c, a, &rec, 0, 0))
        rec_end(&rec);
}

void rec_MPI_Init_thread(struct rec_call *c, struct args_MPI_Init_thread *a)
{
    INIT(c, a, MPI_Init_thread);
    /* Calls from several threads: each record names its thread, and they
     * are committed one at a time from here on (rec.h). SERIALIZED too:
     * its threads take turns at MPI in an order of their own, which the
     * replay lets each thread follow with its own calls (replayer/rpl.c,
     * rpl_ser). */
    if (rec_on && c->ret == MPI_SUCCESS && a->provided &&
        *a->provided >= MPI_THREAD_SERIALIZED)
        rec_mt = 1;
    struct log_rec rec;
    if (rec_frame_MPI_Init_thread(c, a, &rec, 0, LOG_FIELD_HEAD + 4)) {
        rec_put_raw(&rec, LOG_A_MPI_Init_thread_provided, 0, a->provided, 4);
        rec_end(&rec);
    }
}

/* The record goes after PMPI_Finalize, as every call's: the attribute
 * delete functions MPI runs there (MPI_COMM_SELF's first) are the
 * program's, and their calls are logged before it (rec-cb.c). The log
 * stays open for the calls MPI-4 permits after it (info objects, version
 * queries, the tool interface): it closes at exit (rec.c). */
void rec_MPI_Finalize(struct rec_call *c, struct args_MPI_Finalize *a)
{
    struct log_rec rec;
    uint64_t t0 = rec_on ? rec_now() : 0;
    util_thread_internal(1);
    rec_pmpi_MPI_Finalize(c, a);
    util_thread_internal(-1);
    c->t0 = t0;
    c->t1 = rec_on ? rec_now() : 0;
    if (rec_frame_MPI_Finalize(c, a, &rec, 0, 0))
        rec_end(&rec);
    rec_finalized();
}

/* The Sessions model: the log opened at the program's first MPI call and
 * closes at exit, after the last session ends (rec.c). */
void rec_MPI_Session_init(struct rec_call *c,
                          struct args_MPI_Session_init *a)
{
    rec_live();
    int on = rec_on;
    rec_on = 0;
    rec_pmpi_MPI_Session_init(c, a);
    rec_on = on;
    if (c->ret == MPI_SUCCESS) {
        rec_sessions(1);
        rec_session_world(*a->session, 1);
    }
    struct log_rec rec;
    if (rec_frame_MPI_Session_init(c, a, &rec, 0, LOG_HANDLE_ROOM)) {
        if (c->ret == MPI_SUCCESS)
            log_put_handle(&rec, LOG_A_MPI_Session_init_session, LOG_F_HANDLE,
                           0, (uint32_t)*a->session);
        rec_end(&rec);
    }
}

void rec_MPI_Session_finalize(struct rec_call *c,
                              struct args_MPI_Session_finalize *a)
{
    MPI_Session s = *a->session;
    rec_session_world(s, 0);
    rec_pmpi_MPI_Session_finalize(c, a);
    if (c->ret == MPI_SUCCESS)
        rec_sessions(-1);
    struct log_rec rec;
    if (rec_frame_MPI_Session_finalize(c, a, &rec, 0, LOG_HANDLE_ROOM)) {
        if (c->ret == MPI_SUCCESS)
            log_put_handle(&rec, LOG_A_MPI_Session_finalize_session,
                           LOG_F_HANDLE, 0, (uint32_t)*a->session);
        rec_end(&rec);
    }
}

void rec_MPI_Abort(struct rec_call *c, struct args_MPI_Abort *a)
{
    struct log_rec rec;
    c->t0 = c->t1 = rec_on ? rec_now() : 0;
    if (rec_frame_MPI_Abort(c, a, &rec, 0, 0))
        rec_end(&rec);
    rec_pmpi_MPI_Abort(c, a);
}
