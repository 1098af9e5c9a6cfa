/*
 * Error handlers: the program's own functions, kept with their handles.
 * The stub does not decide when MPI would call one: the recorder logged
 * an entry for each call MPI made of a program's handler (which handler,
 * on which object, with which error code; log-codec.h), and the stub
 * makes the same call there (rpl_cb_run in rpl.c), the calls the handler
 * makes replaying the events logged after the entry.
 */
#include "rpl.h"
#include "util.h"

struct errh {
    int eh; /* the handle (MPI_ERRHANDLER_NULL: a free slot) */
    void (*fn)(void);
};
static struct util_htab errhs =
    UTIL_HTAB_INIT(struct errh, eh, MPI_ERRHANDLER_NULL);

static void errh_create(int ret, MPI_Errhandler eh, void (*fn)(void))
{
    struct errh e = {(int)eh, fn};
    if (ret == MPI_SUCCESS && util_htab_put(&errhs, &e) < 0)
        rpl_fail(NULL, RPL_EXIT_SETUP, "out of memory for error handlers");
}

void rpl_errh_callback(struct rpl_call *c, const struct log_cb *cb,
                       int ptr)
{
    const struct errh *e = util_htab_find(&errhs, cb->handle);
    if (!e || !e->fn)
        rpl_fail(c, RPL_EXIT_DIVERGED, "replay diverged: MPI called the "
                 "program's error handler %#x, which the replay does not "
                 "know", (unsigned)cb->handle);
    int code = cb->code;
    rpl_cb_enter();
    if (ptr) { /* a file, a pointer in MPICH: the recorded value */
        MPI_File f = (MPI_File)(intptr_t)cb->obj;
        ((MPI_File_errhandler_function *)(void *)e->fn)(&f, &code);
    } else { /* MPI_Comm, MPI_Win, MPI_Session: int handles */
        int h = (int)cb->obj;
        ((MPI_Comm_errhandler_function *)(void *)e->fn)(&h, &code);
    }
    rpl_cb_leave();
}

#define CREATE_HOOK(NAME, FN)                                                \
    int rpl_##NAME(struct args_##NAME *a)                                    \
    {                                                                        \
        int ret = rpl_replay_##NAME(a);                                      \
        errh_create(ret, *a->errhandler, (void (*)(void))a->FN);             \
        return ret;                                                          \
    }
CREATE_HOOK(MPI_Comm_create_errhandler, comm_errhandler_fn)
CREATE_HOOK(MPI_Errhandler_create, comm_errhandler_fn)
CREATE_HOOK(MPI_Win_create_errhandler, win_errhandler_fn)
CREATE_HOOK(MPI_File_create_errhandler, file_errhandler_fn)
CREATE_HOOK(MPI_Session_create_errhandler, session_errhandler_fn)
