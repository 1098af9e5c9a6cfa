/*
 * Error handlers: the program's own functions, kept with their handles and
 * called where MPI called them: when a replayed call returns an error
 * (rpl_end, rpl_end_win, rpl_end_file), with the logged error code, and
 * by the MPI_*_call_errhandler calls. The calls a handler makes replay the
 * events the recorder logged inside it (rpl_cb_enter). Which object's
 * handler runs follows MPICH 4.0.2: the object the call names; a call
 * naming none raises on MPI_COMM_WORLD; a file with no handler of its own
 * uses MPI_FILE_NULL's (whose default, as a file's, is MPI_ERRORS_RETURN);
 * a new communicator inherits its parent's.
 */
#include "rpl.h"
#include "util.h"

struct errh {
    int eh; /* the handle (MPI_ERRHANDLER_NULL: a free slot) */
    void (*fn)(void);
};
static struct util_htab errhs =
    UTIL_HTAB_INIT(struct errh, eh, MPI_ERRHANDLER_NULL);

/* Which handler each object has: few, and read only on errors. */
struct objerrh {
    enum rpl_obj kind;
    int64_t obj;
    int eh;
};
static struct objerrh *objs;
static size_t nobjs, capobjs;

static struct objerrh *obj_find(enum rpl_obj kind, int64_t obj)
{
    for (size_t i = 0; i < nobjs; i++)
        if (objs[i].kind == kind && objs[i].obj == obj)
            return &objs[i];
    return NULL;
}

void rpl_errh_create(MPI_Errhandler eh, void (*fn)(void))
{
    struct errh e = {(int)eh, fn};
    if (util_htab_put(&errhs, &e) < 0)
        rpl_fail(NULL, RPL_EXIT_SETUP, "out of memory for error handlers");
}

void rpl_errh_set(enum rpl_obj kind, int64_t obj, MPI_Errhandler eh)
{
    struct objerrh *o = obj_find(kind, obj);
    if (!o) {
        if (util_grow(&objs, &capobjs, nobjs + 1, sizeof *objs) < 0)
            rpl_fail(NULL, RPL_EXIT_SETUP, "out of memory for error handlers");
        o = &objs[nobjs++];
    }
    *o = (struct objerrh){kind, obj, (int)eh};
}

void rpl_errh_inherit(MPI_Comm parent, MPI_Comm comm)
{
    const struct objerrh *o = obj_find(RPL_OBJ_COMM, (int64_t)parent);
    if (o)
        rpl_errh_set(RPL_OBJ_COMM, (int64_t)comm, o->eh);
}

void rpl_errh_raise(enum rpl_obj kind, int64_t obj, int code)
{
    const struct objerrh *o = obj_find(kind, obj);
    if (!o && kind == RPL_OBJ_FILE)
        o = obj_find(kind, (int64_t)(intptr_t)MPI_FILE_NULL);
    const struct errh *e = o ? util_htab_find(&errhs, o->eh) : NULL;
    if (!e || !e->fn)
        return; /* MPI_ERRORS_RETURN (ERRORS_ARE_FATAL ended the run) */
    rpl_cb_enter();
    if (kind == RPL_OBJ_FILE) {
        MPI_File f = (MPI_File)(intptr_t)obj;
        ((MPI_File_errhandler_function *)(void *)e->fn)(&f, &code);
    } else {
        int h = (int)obj; /* MPI_Comm, MPI_Win: int handles */
        ((MPI_Comm_errhandler_function *)(void *)e->fn)(&h, &code);
    }
    rpl_cb_leave();
}

int rpl_end_win(struct rpl_call *c, MPI_Win win)
{
    int ret = rpl_end(c, MPI_COMM_NULL);
    if (ret != MPI_SUCCESS && win != MPI_WIN_NULL)
        rpl_errh_raise(RPL_OBJ_WIN, (int64_t)win, ret);
    return ret;
}

int rpl_end_file(struct rpl_call *c, MPI_File fh)
{
    int ret = rpl_end(c, MPI_COMM_NULL);
    if (ret != MPI_SUCCESS)
        rpl_errh_raise(RPL_OBJ_FILE, (int64_t)(intptr_t)fh, ret);
    return ret;
}

/* ---- the hooks ------------------------------------------------------------ */

#define CREATE_HOOK(NAME, FN)                                                \
    int rpl_##NAME(struct args_##NAME *a)                                    \
    {                                                                        \
        int ret = rpl_replay_##NAME(a);                                      \
        if (ret == MPI_SUCCESS)                                              \
            rpl_errh_create(*a->errhandler, (void (*)(void))a->FN);          \
        return ret;                                                          \
    }
CREATE_HOOK(MPI_Comm_create_errhandler, comm_errhandler_fn)
CREATE_HOOK(MPI_Errhandler_create, comm_errhandler_fn)
CREATE_HOOK(MPI_Win_create_errhandler, win_errhandler_fn)
CREATE_HOOK(MPI_File_create_errhandler, file_errhandler_fn)

#define SET_HOOK(NAME, KIND, OBJ)                                            \
    int rpl_##NAME(struct args_##NAME *a)                                    \
    {                                                                        \
        int ret = rpl_replay_##NAME(a);                                      \
        if (ret == MPI_SUCCESS)                                              \
            rpl_errh_set(KIND, (int64_t)(intptr_t)a->OBJ, a->errhandler);    \
        return ret;                                                          \
    }
SET_HOOK(MPI_Comm_set_errhandler, RPL_OBJ_COMM, comm)
SET_HOOK(MPI_Errhandler_set, RPL_OBJ_COMM, comm)
SET_HOOK(MPI_Win_set_errhandler, RPL_OBJ_WIN, win)
SET_HOOK(MPI_File_set_errhandler, RPL_OBJ_FILE, file)

/* The logged return code is the handler's doing: run the handler with the
 * program's code. */
#define CALL_HOOK(NAME, KIND, OBJ)                                           \
    int rpl_##NAME(struct args_##NAME *a)                                    \
    {                                                                        \
        struct rpl_call c;                                                   \
        rpl_begin_##NAME(&c, a);                                             \
        rpl_fields_##NAME(&c, a);                                            \
        int ret = rpl_end(&c, MPI_COMM_NULL);                                \
        rpl_errh_raise(KIND, (int64_t)(intptr_t)a->OBJ, a->errorcode);       \
        return ret;                                                          \
    }
CALL_HOOK(MPI_Comm_call_errhandler, RPL_OBJ_COMM, comm)
CALL_HOOK(MPI_Win_call_errhandler, RPL_OBJ_WIN, win)
CALL_HOOK(MPI_File_call_errhandler, RPL_OBJ_FILE, fh)
