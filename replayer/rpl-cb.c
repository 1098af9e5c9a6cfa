/*
 * The program's callbacks that MPI runs besides attribute callbacks
 * (rpl-attr.c) and error handlers (rpl-errh.c): user reduction operators
 * and generalized requests' query, free and cancel functions. The
 * functions are the program's own, kept with the handles the replayed
 * constructors return; the stub calls them where the log's entries say
 * MPI did (rpl.c runs the entries, from the end of the call that ran
 * them), and the calls they make replay the events logged after each
 * entry. What they compute is discarded: the call's logged outputs (a
 * reduction's result, a request's status) are what the program gets, as
 * in the recorded run. The mirror of recorder/rec-cb.c.
 *
 * Data representations' functions (MPI_Register_datarep) are not run:
 * the stub says so when the program registers one.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "rpl.h"
#include "util.h"

/* ---- user reduction operators -------------------------------------------- */

struct op {
    int op; /* the handle (MPI_OP_NULL: a free slot) */
    int large; /* MPI_Op_create_c: len is an MPI_Count */
    void (*fn)(void);
};
static struct util_htab ops = UTIL_HTAB_INIT(struct op, op, MPI_OP_NULL);

/* The replayed constructor's new operator is the program's function. */
static void op_create(MPI_Op op, void (*fn)(void), int large)
{
    struct op o = {(int)op, large, fn};
    if (util_htab_put(&ops, &o) < 0)
        rpl_fail(NULL, RPL_EXIT_SETUP, "out of memory for operators");
}

/* MPI_Op_create and its large-count twin, whose function takes an
 * MPI_Count len (its type says which). */
#define OP_CREATE(NAME)                                                      \
    int rpl_##NAME(struct args_##NAME *a)                                    \
    {                                                                        \
        int ret = rpl_replay_##NAME(a);                                      \
        if (ret == MPI_SUCCESS)                                              \
            op_create(*a->op, (void (*)(void))a->user_fn,                    \
                      _Generic(a->user_fn, MPI_User_function_c *: 1,        \
                               default: 0));                                 \
        return ret;                                                          \
    }
RPL_TWINS_MPI_Op_create(OP_CREATE)

/* A copy of the logged bytes of one vector, in a buffer of the whole span
 * (zeros past what the recorder's limit kept). */
static char *op_vector(struct rpl_call *c, const uint8_t *bytes, size_t len,
                       int64_t span)
{
    char *p = calloc(1, span > 0 ? (size_t)span : 1);
    if (!p)
        rpl_fail(c, RPL_EXIT_SETUP, "out of memory for a reduction "
                 "operator's vectors (%" PRId64 " bytes)", span);
    if (len)
        memcpy(p, bytes, len);
    return p;
}

void rpl_op_callback(struct rpl_call *c, const struct log_event *ev,
                     const struct log_cb *cb)
{
    const struct op *o = util_htab_find(&ops, cb->handle);
    struct log_cb_op v;
    if (!o || !o->fn)
        rpl_fail(c, RPL_EXIT_DIVERGED, "replay diverged: MPI called the "
                 "program's reduction operator %#x, which the replay does "
                 "not know", (unsigned)cb->handle);
    if (log_event_cb_op(ev, &v) < 0)
        rpl_fail(c, RPL_EXIT_SETUP, "malformed log: event %" PRIu64 " (a "
                 "reduction operator's call) has no valid vectors",
                 ev->index);
    char *in = op_vector(c, v.in, v.in_len, v.span);
    char *inout = op_vector(c, v.inout, v.inout_len, v.span);
    MPI_Datatype dt = (MPI_Datatype)cb->code;
    rpl_cb_enter();
    if (o->large) {
        MPI_Count len = cb->obj;
        ((MPI_User_function_c *)(void *)o->fn)(in - v.lo, inout - v.lo,
                                               &len, &dt);
    } else {
        int len = (int)cb->obj;
        ((MPI_User_function *)(void *)o->fn)(in - v.lo, inout - v.lo, &len,
                                             &dt);
    }
    rpl_cb_leave();
    free(in);
    free(inout);
}

/* ---- generalized requests ------------------------------------------------ */

struct greq {
    int request; /* the handle (MPI_REQUEST_NULL: a free slot) */
    MPI_Grequest_query_function *query;
    MPI_Grequest_free_function *free;
    MPI_Grequest_cancel_function *cancel;
    void *extra;
};
static struct util_htab greqs =
    UTIL_HTAB_INIT(struct greq, request, MPI_REQUEST_NULL);

int rpl_MPI_Grequest_start(struct args_MPI_Grequest_start *a)
{
    int ret = rpl_replay_MPI_Grequest_start(a);
    struct greq g = {(int)*a->request, a->query_fn, a->free_fn, a->cancel_fn,
                     a->extra_state};
    if (ret == MPI_SUCCESS && util_htab_put(&greqs, &g) < 0)
        rpl_fail(NULL, RPL_EXIT_SETUP, "out of memory for requests");
    return ret;
}

void rpl_greq_callback(struct rpl_call *c, const struct log_cb *cb)
{
    struct greq *gp = util_htab_find(&greqs, cb->handle);
    static const char *const what[] = {"query", "free", "cancel"};
    if (!gp)
        rpl_fail(c, RPL_EXIT_DIVERGED, "replay diverged: MPI called the %s "
                 "function of generalized request %#x, which the replay "
                 "does not know", what[cb->what - LOG_CB_GREQ_QUERY],
                 (unsigned)cb->handle);
    struct greq g = *gp;
    /* A status MPI would give to the completing call: that call's logged
     * status is what the program gets. */
    MPI_Status st;
    memset(&st, 0, sizeof st);
    rpl_cb_enter();
    if (cb->what == LOG_CB_GREQ_QUERY && g.query)
        g.query(g.extra, &st);
    else if (cb->what == LOG_CB_GREQ_CANCEL && g.cancel)
        g.cancel(g.extra, cb->code);
    else if (cb->what == LOG_CB_GREQ_FREE && g.free)
        g.free(g.extra);
    rpl_cb_leave();
    /* Freed: MPI may give the handle to another request. */
    if (cb->what == LOG_CB_GREQ_FREE &&
        (gp = util_htab_find(&greqs, cb->handle)))
        util_htab_remove(&greqs, gp);
}

/* ---- data representations ------------------------------------------------ */

/* Named, not run: the data their functions converted is in the log. */
static int datarep(int ret, const char *name)
{
    fprintf(stderr, "drdb-replay: rank %d: event %" PRIu64
            ": MPI_Register_datarep('%s'): the replay does not run data "
            "representation functions; files read with it get the "
            "recorded data, but what the functions did besides converting "
            "(output, MPI calls) is not replayed\n", drdb_rank,
            drdb_event ? drdb_event - 1 : 0, name ? name : "");
    return ret;
}

#define REGISTER_DATAREP(NAME)                                               \
    int rpl_##NAME(struct args_##NAME *a)                                    \
    {                                                                        \
        return datarep(rpl_replay_##NAME(a), a->datarep);                    \
    }
RPL_TWINS_MPI_Register_datarep(REGISTER_DATAREP)
