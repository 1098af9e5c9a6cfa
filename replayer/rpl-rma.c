/*
 * One-sided communication (RMA), the calls: windows created, attached,
 * detached and freed, operations whose results a later synchronization
 * writes (rpl-win.c keeps the state and applies the log to it). The mirror
 * of recorder/rec-rma.c.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "rpl.h"

/* ---- windows ------------------------------------------------------------- */

#define WIN_CREATE(NAME)                                                     \
    int rpl_##NAME(struct args_##NAME *a)                                    \
    {                                                                        \
        int ret = rpl_replay_##NAME(a);                                      \
        if (ret == MPI_SUCCESS)                                              \
            rpl_win_region_add(*a->win, a->base, a->size, MPI_WIN_FLAVOR_CREATE, 0); \
        return ret;                                                          \
    }
RPL_TWINS_MPI_Win_create(WIN_CREATE)

/* The memory is allocated here, zeroed: the record's WINDIFF holds how the
 * recorded process's differed. An address of NULL stays NULL. */
static void win_allocate(struct rpl_call *c, MPI_Aint size, void *baseptr,
                         MPI_Win *win)
{
    struct log_field f;
    struct rpl_region *g = NULL;
    while (rpl_field(c, &f)) {
        if (f.arg == 4 && f.kind == LOG_F_RAW && f.len == 8) {
            void *logged, *mem = NULL;
            memcpy(&logged, f.data, 8);
            if (logged)
                mem = rpl_mem_alloc(c, (uint64_t)(uintptr_t)logged,
                                    size > 0 ? (size_t)size : 1);
            g = rpl_win_region_add(MPI_WIN_NULL, mem, size, MPI_WIN_FLAVOR_ALLOCATE,
                           1);
            memcpy(baseptr, &mem, sizeof mem);
        } else if (f.arg == 5) {
            rpl_out_handle(c, &f, win);
        } else {
            rpl_out_other(c, &f);
        }
    }
    if (g)
        g->win = *win;
}

#define WIN_ALLOCATE(NAME)                                                   \
    int rpl_##NAME(struct args_##NAME *a)                                    \
    {                                                                        \
        struct rpl_call c;                                                   \
        rpl_begin_##NAME(&c, a);                                             \
        win_allocate(&c, a->size, a->baseptr, a->win);                       \
        return rpl_end(&c, a->comm);                                         \
    }
RPL_TWINS_MPI_Win_allocate(WIN_ALLOCATE)

int rpl_MPI_Win_attach(struct args_MPI_Win_attach *a)
{
    int ret = rpl_replay_MPI_Win_attach(a);
    if (ret == MPI_SUCCESS)
        rpl_win_region_add(a->win, a->base, a->size, MPI_WIN_FLAVOR_DYNAMIC, 0);
    return ret;
}

/* The record carries the region's last changes: applied before it goes. */
int rpl_MPI_Win_detach(struct args_MPI_Win_detach *a)
{
    int ret = rpl_replay_MPI_Win_detach(a);
    if (ret == MPI_SUCCESS)
        rpl_win_detach(a->win, a->base);
    return ret;
}

/* MPI_Win_free runs the delete callbacks of the program's attributes on
 * the window, as MPI did. */
int rpl_MPI_Win_free(struct args_MPI_Win_free *a)
{
    MPI_Win old = *a->win;
    int ret = rpl_replay_MPI_Win_free(a);
    if (ret != MPI_SUCCESS)
        return ret;
    rpl_attrs_drop((int)old);
    rpl_win_drop(old);
    return ret;
}

/* Window attributes: MPI_WIN_BASE is the window's memory in this process
 * (a dynamic window's is the logged MPI_BOTTOM), the other predefined ones
 * are logged values. */
int rpl_MPI_Win_get_attr(struct args_MPI_Win_get_attr *a)
{
    return rpl_attr_get(LOG_FN_MPI_Win_get_attr, a->win, a->win_keyval,
                        a->attribute_val, a->flag, rpl_win_base(a->win));
}

/* ---- operations ---------------------------------------------------------- */

/* An operation that leaves RESULT (N x TYPE at BUF, from TARGET) for a
 * later synchronization to write. */
#define RESULT_OP(NAME, BUF, N, TYPE)                                        \
    int rpl_##NAME(struct args_##NAME *a)                                    \
    {                                                                        \
        int ret = rpl_replay_##NAME(a);                                      \
        if (ret == MPI_SUCCESS)                                              \
            rpl_win_result_add(a->win, a->target_rank, a->BUF, N, a->TYPE);          \
        return ret;                                                          \
    }
RPL_TWINS_MPI_Get(RESULT_OP, origin_addr, a->origin_count, origin_datatype)
RPL_TWINS_MPI_Get_accumulate(RESULT_OP, result_addr, a->result_count,
                             result_datatype)
RESULT_OP(MPI_Fetch_and_op, result_addr, 1, datatype)
RESULT_OP(MPI_Compare_and_swap, result_addr, 1, datatype)

/* Request-based: the Wait/Test call completing the request writes the
 * buffer, whole. */
#define REQUEST_OP(NAME, BUF, N, TYPE)                                       \
    int rpl_##NAME(struct args_##NAME *a)                                    \
    {                                                                        \
        int ret = rpl_replay_##NAME(a);                                      \
        if (ret == MPI_SUCCESS)                                              \
            rpl_req_register(a->request, LOG_FN_##NAME, a->BUF, a->N,        \
                             a->TYPE, 0);                                    \
        return ret;                                                          \
    }
RPL_TWINS_MPI_Rget(REQUEST_OP, origin_addr, origin_count, origin_datatype)
RPL_TWINS_MPI_Rget_accumulate(REQUEST_OP, result_addr, result_count,
                              result_datatype)
