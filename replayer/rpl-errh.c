/*
 * Error handlers: the program's own function, kept with its handle and
 * called by rpl_end() where MPI called it (when a call on the communicator
 * returned an error).
 */
#include "rpl.h"

int rpl_MPI_Comm_create_errhandler(struct args_MPI_Comm_create_errhandler *a)
{
    int ret = rpl_replay_MPI_Comm_create_errhandler(a);
    if (ret == MPI_SUCCESS)
        rpl_errh_create(*a->errhandler,
                        (void (*)(void))a->comm_errhandler_fn);
    return ret;
}

int rpl_MPI_Comm_set_errhandler(struct args_MPI_Comm_set_errhandler *a)
{
    int ret = rpl_replay_MPI_Comm_set_errhandler(a);
    if (ret == MPI_SUCCESS)
        rpl_errh_set(a->comm, a->errhandler);
    return ret;
}

/* The logged return code is the handler's doing: run the handler. */
int rpl_MPI_Comm_call_errhandler(struct args_MPI_Comm_call_errhandler *a)
{
    struct rpl_call c;
    rpl_begin_MPI_Comm_call_errhandler(&c, a);
    int ret = c.ret;
    c.ret = a->errorcode;
    rpl_end(&c, a->comm);
    return ret;
}
