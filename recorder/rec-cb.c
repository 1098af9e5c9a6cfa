/*
 * The program's callbacks that MPI calls: attribute copy and delete
 * functions (communicators, datatypes, windows) and error handlers
 * (communicators, windows, files, sessions). Inside an MPI call the
 * recorder logs nothing (rec.h: rec_busy, MPI's own calls); these
 * callbacks are the program's code again, so they are registered with MPI
 * through trampolines that clear rec_busy and raise rec_cb_depth for the
 * callback's duration: each callback MPI runs is logged as an entry
 * (log-codec.h: log_put_cb), and the MPI calls it makes after it, marked
 * LOG_REC_CALLBACK with their depth (docs/log-format.md), all before the
 * record of the call that ran the callback. The replay stub runs the same
 * callbacks where the log says MPI ran them (replayer/rpl.c runs the
 * entries, rpl-attr.c and rpl-errh.c the callbacks).
 *
 * User reduction operators (MPI_Op_create, MPI_Op_create_c) and
 * generalized requests' query, free and cancel functions are wrapped the
 * same way: an operator's entry carries what the replay needs to call it
 * again (len, the datatype, the bytes at invec and inoutvec as MPI passed
 * them, up to a limit); a generalized request's, the request and a
 * cancel's `complete`.
 *
 * Not wrapped (their MPI calls stay MPI's business, unlogged, and the
 * replay does not run them: the results they fed are in the log): data
 * representations' functions (MPI_Register_datarep). Nor are attribute
 * callbacks, error handlers and generalized requests registered from
 * Fortran: MPICH calls those through its Fortran proxies, with Fortran's
 * conventions (a Fortran operator takes what a C one takes: wrapped).
 */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "rec.h"

/* Whether the wrapper was called by MPICH's Fortran bindings. */
static int from_fortran(void *caller)
{
    Dl_info di;
    return caller && dladdr(caller, &di) && di.dli_fname &&
           strstr(di.dli_fname, "libmpichfort");
}

/* The program's code runs: its MPI calls are logged, one level deeper. */
#define CB_ENTER()                                                           \
    int cb_busy = rec_busy;                                                  \
    rec_busy = 0;                                                            \
    rec_cb_depth++
#define CB_LEAVE()                                                           \
    rec_cb_depth--;                                                          \
    rec_busy = cb_busy

/* Whether MPI runs a callback inside a call of the program's (or of a
 * callback's), as it does unless it makes progress on a thread of its own
 * (MPICH's asynchronous progress): a callback run there is no call of the
 * program's to nest in, and runs unrecorded (user operators and
 * generalized requests' functions; docs/replaying.md, Limits). */
static int in_program_call(void)
{
    return rec_busy || rec_cb_depth;
}

/* ---- attribute callbacks -------------------------------------------------- */

/* A keyval's callbacks; MPI is given this as the extra state (which MPI
 * only hands back to the callbacks), never freed: MPI may call the delete
 * function after the keyval is freed. Communicators, datatypes and windows
 * are all int handles in MPICH, so one pair of trampolines serves them. */
struct keyval {
    MPI_Comm_copy_attr_function *copy;
    MPI_Comm_delete_attr_function *del;
    void *extra;
    int fn; /* the constructor */
};

static int copy_tramp(MPI_Comm obj, int keyval, void *extra, void *in,
                      void *out, int *flag)
{
    const struct keyval *k = extra;
    CB_ENTER();
    rec_cb_entry(k->fn, &(struct log_cb){LOG_CB_COPY, keyval,
                                          (int64_t)(uint32_t)obj, 0});
    int ret = k->copy(obj, keyval, k->extra, in, out, flag);
    CB_LEAVE();
    return ret;
}

static int del_tramp(MPI_Comm obj, int keyval, void *val, void *extra)
{
    const struct keyval *k = extra;
    CB_ENTER();
    rec_cb_entry(k->fn, &(struct log_cb){LOG_CB_DELETE, keyval,
                                          (int64_t)(uint32_t)obj, 0});
    int ret = k->del(obj, keyval, val, k->extra);
    CB_LEAVE();
    return ret;
}

/*
 * Replaces *COPY, *DEL and *EXTRA (of call C) by the trampolines and their
 * state when there is a function to wrap: the program's, and
 * MPI_COMM_DUP_FN too (MPIR_Dup_fn), so that the replay makes every copy
 * MPI made where the log says (MPI_COMM_NULL_COPY_FN and
 * MPI_COMM_NULL_DELETE_FN are NULL in MPICH: nothing runs). 0 when
 * nothing is wrapped.
 */
static int keyval_wrap(const struct rec_call *c, void **copy, void **del,
                       void **extra)
{
    MPI_Comm_copy_attr_function *cp = (MPI_Comm_copy_attr_function *)*copy;
    MPI_Comm_delete_attr_function *d = (MPI_Comm_delete_attr_function *)*del;
    if ((!cp && !d) || from_fortran(c->caller))
        return 0;
    struct keyval *k = malloc(sizeof *k);
    if (!k)
        return 0;
    *k = (struct keyval){cp, d, *extra, c->fn};
    if (cp)
        *copy = (void *)copy_tramp;
    if (d)
        *del = (void *)del_tramp;
    *extra = k;
    return 1;
}

/* A keyval constructor: its trampolines given to MPI, the program's
 * arguments logged (the generated wrapper's record: the new keyval, RAW of
 * argument 2). */
#define KEYVAL_HOOK(NAME, COPY, DEL, KEYVAL)                                  \
    void rec_##NAME(struct rec_call *c, struct args_##NAME *a)                \
    {                                                                         \
        struct args_##NAME prog = *a;                                         \
        void *cp = (void *)a->COPY, *dl = (void *)a->DEL;                     \
        void *ex = a->extra_state;                                            \
        if (keyval_wrap(c, &cp, &dl, &ex)) {                                  \
            a->COPY = (__typeof__(a->COPY))cp;                                \
            a->DEL = (__typeof__(a->DEL))dl;                                  \
            a->extra_state = ex;                                              \
        }                                                                     \
        rec_pmpi_##NAME(c, a);                                                \
        *a = prog;                                                            \
        int n = c->ret == MPI_SUCCESS && a->KEYVAL;                           \
        struct log_rec rec;                                                   \
        if (rec_frame_##NAME(c, a, &rec, 0, LOG_FIELD_HEAD + 4)) {            \
            if (n)                                                            \
                rec_put_raw(&rec, 2, 0, a->KEYVAL, sizeof(int));              \
            rec_end(&rec);                                                    \
        }                                                                     \
    }
KEYVAL_HOOK(MPI_Comm_create_keyval, comm_copy_attr_fn, comm_delete_attr_fn,
            comm_keyval)
KEYVAL_HOOK(MPI_Keyval_create, copy_fn, delete_fn, keyval)
KEYVAL_HOOK(MPI_Type_create_keyval, type_copy_attr_fn, type_delete_attr_fn,
            type_keyval)
KEYVAL_HOOK(MPI_Win_create_keyval, win_copy_attr_fn, win_delete_attr_fn,
            win_keyval)

/* ---- error handlers -------------------------------------------------------- */

/*
 * An error handler gets no extra state, so each program handler takes one
 * trampoline of a fixed pool, which finds it by its slot. All kinds have
 * the shape (HANDLE *obj, int *code, ...); MPI calls them with those two
 * arguments. A program with more handlers than slots has the rest
 * registered as they are (the calls they make are then not logged:
 * docs/recording.md).
 */
typedef void errh_fn(void *obj, int *code, ...);
#define NERRH 64
static struct {
    errh_fn *fn;
    int ctor;   /* the constructor: which kind of object */
    int enc;    /* the object's handle: the constructor's errh_enc */
    int handle; /* the error handler MPI made of it */
} errh[NERRH];
static int nerrh;

static void errh_call(int slot, void *obj, int *code)
{
    /* A file is a pointer in MPICH; the other objects int handles. */
    int64_t o = errh[slot].enc == LOG_ENC_PTR
                    ? (int64_t)(intptr_t) * (MPI_File *)obj
                    : (int64_t) * (uint32_t *)obj;
    CB_ENTER();
    rec_cb_entry(errh[slot].ctor, &(struct log_cb){LOG_CB_ERRHANDLER,
                                                   errh[slot].handle, o,
                                                   *code});
    errh[slot].fn(obj, code);
    CB_LEAVE();
}

/* A pool of 64 trampolines: P64(T) expands T(i) for the slots 0 to 63
 * (octal: P8(T, k) makes the slots 8k to 8k+7). */
#define P8(T, i)                                                              \
    T(0##i##0) T(0##i##1) T(0##i##2) T(0##i##3) T(0##i##4) T(0##i##5)         \
    T(0##i##6) T(0##i##7)
#define P64(T)                                                                \
    P8(T, 0) P8(T, 1) P8(T, 2) P8(T, 3) P8(T, 4) P8(T, 5) P8(T, 6) P8(T, 7)

#define ERRH_T(i)                                                             \
    static void errh_##i(void *obj, int *code, ...) { errh_call(i, obj, code); }
#define ERRH_P(i) errh_##i,
P64(ERRH_T)
static errh_fn *const errh_tramp[NERRH] = {P64(ERRH_P)};

/* The slot of FN registered by C's constructor, or -1 (no slot left,
 * Fortran): FN is then registered as it is. */
static int errh_slot(const struct rec_call *c, errh_fn *fn)
{
    if (!fn || from_fortran(c->caller))
        return -1;
    for (int i = 0; i < nerrh; i++)
        if (errh[i].fn == fn && errh[i].ctor == c->fn)
            return i;
    if (nerrh == NERRH)
        return -1;
    errh[nerrh].fn = fn;
    errh[nerrh].ctor = c->fn;
    errh[nerrh].enc = log_func_by_id(c->fn)->errh_enc;
    errh[nerrh].handle = (int)MPI_ERRHANDLER_NULL;
    return nerrh++;
}

/* An error handler constructor: the trampoline given to MPI, the program's
 * arguments logged (the new handler: HANDLE of argument 1). */
#define ERRH_HOOK(NAME, FN)                                                   \
    void rec_##NAME(struct rec_call *c, struct args_##NAME *a)                \
    {                                                                         \
        __typeof__(a->FN) prog = a->FN;                                       \
        int slot = errh_slot(c, (errh_fn *)(void (*)(void))prog);             \
        if (slot >= 0)                                                        \
            a->FN = (__typeof__(a->FN))(void (*)(void))errh_tramp[slot];      \
        rec_pmpi_##NAME(c, a);                                                \
        a->FN = prog;                                                         \
        if (slot >= 0 && c->ret == MPI_SUCCESS && a->errhandler)              \
            errh[slot].handle = (int)*a->errhandler;                          \
        struct log_rec rec;                                                   \
        if (rec_frame_##NAME(c, a, &rec, 0, LOG_HANDLE_ROOM)) {               \
            if (c->ret == MPI_SUCCESS && a->errhandler)                       \
                log_put_handle(&rec, 1, LOG_F_HANDLE, 0,                      \
                               (uint32_t)*a->errhandler);                     \
            rec_end(&rec);                                                    \
        }                                                                     \
    }
ERRH_HOOK(MPI_Comm_create_errhandler, comm_errhandler_fn)
ERRH_HOOK(MPI_Errhandler_create, comm_errhandler_fn)
ERRH_HOOK(MPI_Win_create_errhandler, win_errhandler_fn)
ERRH_HOOK(MPI_File_create_errhandler, file_errhandler_fn)
ERRH_HOOK(MPI_Session_create_errhandler, session_errhandler_fn)

/* ---- user reduction operators -------------------------------------------- */

/*
 * An operator gets no extra state either: each function the program makes
 * an operator of (per commute flag and kind) takes a slot of another pool
 * of 64; operators beyond that are registered as they are (their calls are
 * neither logged nor run by the replay: docs/recording.md). The slot keeps
 * the handle of the last operator made of it, which the entry names: the
 * replay finds the function by it.
 */
#define NOP 64
/* What an operator's entry logs of each vector, at most, unless
 * DRDB_ENV_OP_BYTES says (bytes, 0: none; docs/recording.md). */
#define REC_OP_BYTES_DEFAULT (1 << 20)
static struct {
    void (*fn)(void);
    int large;   /* MPI_Op_create_c: len is an MPI_Count */
    int commute;
    int handle;
} ops[NOP];
static int nops;
/* The bytes logged per vector (DRDB_ENV_OP_BYTES; -1: not read yet). */
static int64_t op_limit = -1;

static int64_t op_bytes_limit(void)
{
    if (op_limit < 0) {
        const char *e = getenv(DRDB_ENV_OP_BYTES);
        char *end;
        long long v = e && *e ? strtoll(e, &end, 10) : -1;
        op_limit = e && *e && !*end && v >= 0 ? v : REC_OP_BYTES_DEFAULT;
    }
    return op_limit;
}

/* The entry of slot SLOT's call with (IN, INOUT, LEN, DT): the operator,
 * len, the datatype, and the bytes LEN elements of DT cover at IN and
 * INOUT (from the true lower bound of the first to the true upper bound of
 * the last), the first op_bytes_limit() of each. */
static void op_entry(int slot, const char *in, const char *inout, int64_t len,
                     MPI_Datatype dt)
{
    MPI_Count tlb = 0, text = 0, lb = 0, ext = 0;
    int64_t lo = 0, span = 0;
    if (!rec_on)
        return;
    if (len > 0 && PMPI_Type_get_true_extent_x(dt, &tlb, &text) ==
                       MPI_SUCCESS &&
        PMPI_Type_get_extent_x(dt, &lb, &ext) == MPI_SUCCESS && text > 0) {
        int64_t last = (len - 1) * (int64_t)ext;
        lo = (int64_t)tlb + (last < 0 ? last : 0);
        span = (int64_t)tlb + (int64_t)text + (last > 0 ? last : 0) - lo;
    }
    int64_t n = span < op_bytes_limit() ? span : op_bytes_limit();
    struct log_rec rec;
    if (!rec_cb_begin(&rec, ops[slot].large ? LOG_FN_MPI_Op_create_c
                                            : LOG_FN_MPI_Op_create,
                      LOG_ARG_ROOM32 + 3 * LOG_FIELD_HEAD +
                          LOG_CB_OP_GEOM_BYTES + 2 * (size_t)n))
        return;
    int64_t geom[2] = {lo, span};
    log_put_arg_int(&rec, ops[slot].commute);
    log_put_cb(&rec, &(struct log_cb){LOG_CB_OP, ops[slot].handle, len,
                                      (int32_t)dt});
    rec_put_raw(&rec, LOG_ARG_NONE, LOG_CB_OP_GEOM, geom, sizeof geom);
    rec_put_raw(&rec, LOG_ARG_NONE, LOG_CB_OP_IN, in + lo, (size_t)n);
    rec_put_raw(&rec, LOG_ARG_NONE, LOG_CB_OP_INOUT, inout + lo, (size_t)n);
    rec_end(&rec);
}

static void op_run(int slot, void *in, void *inout, int *len,
                   MPI_Count *clen, MPI_Datatype *dt)
{
    if (clen)
        ((MPI_User_function_c *)ops[slot].fn)(in, inout, clen, dt);
    else
        ((MPI_User_function *)ops[slot].fn)(in, inout, len, dt);
}

static void op_call(int slot, void *in, void *inout, int *len,
                    MPI_Count *clen, MPI_Datatype *dt)
{
    if (!in_program_call()) {
        op_run(slot, in, inout, len, clen, dt);
        return;
    }
    CB_ENTER();
    op_entry(slot, in, inout, clen ? (int64_t)*clen : (int64_t)*len, *dt);
    op_run(slot, in, inout, len, clen, dt);
    CB_LEAVE();
}

#define OP_T(i)                                                               \
    static void op_##i(void *in, void *inout, int *len, MPI_Datatype *dt)     \
    {                                                                         \
        op_call(i, in, inout, len, NULL, dt);                                 \
    }                                                                         \
    static void opc_##i(void *in, void *inout, MPI_Count *len,                \
                        MPI_Datatype *dt)                                     \
    {                                                                         \
        op_call(i, in, inout, NULL, len, dt);                                 \
    }
#define OP_P(i) op_##i,
#define OPC_P(i) opc_##i,
P64(OP_T)
static MPI_User_function *const op_tramp[NOP] = {P64(OP_P)};
static MPI_User_function_c *const opc_tramp[NOP] = {P64(OPC_P)};

/* The slot of FN (LARGE: an MPI_User_function_c) with COMMUTE, or -1. */
static int op_slot(void (*fn)(void), int large, int commute)
{
    if (!fn)
        return -1;
    for (int i = 0; i < nops; i++)
        if (ops[i].fn == fn && ops[i].large == large &&
            ops[i].commute == commute)
            return i;
    if (nops == NOP)
        return -1;
    ops[nops].fn = fn;
    ops[nops].large = large;
    ops[nops].commute = commute;
    ops[nops].handle = (int)MPI_OP_NULL;
    return nops++;
}

/* Whether user function FN is a large-count one (its len an MPI_Count),
 * and the trampolines of its type. */
#define OP_LARGE(FN) _Generic((FN), MPI_User_function_c *: 1, default: 0)
#define OP_TRAMP(FN)                                                          \
    _Generic((FN), MPI_User_function_c *: opc_tramp, default: op_tramp)

/* MPI_Op_create and its large-count twin MPI_Op_create_c: the trampoline
 * given to MPI, the program's arguments logged (commute; the new operator:
 * HANDLE of argument 2). */
#define OP_HOOK(NAME)                                                         \
    void rec_##NAME(struct rec_call *c, struct args_##NAME *a)                \
    {                                                                         \
        __typeof__(a->user_fn) prog = a->user_fn;                             \
        int slot = op_slot((void (*)(void))prog, OP_LARGE(prog), a->commute); \
        if (slot >= 0)                                                        \
            a->user_fn = OP_TRAMP(prog)[slot];                                \
        rec_pmpi_##NAME(c, a);                                                \
        a->user_fn = prog;                                                    \
        if (slot >= 0 && c->ret == MPI_SUCCESS && a->op)                      \
            ops[slot].handle = (int)*a->op;                                   \
        struct log_rec rec;                                                   \
        if (rec_frame_##NAME(c, a, &rec, 0, LOG_HANDLE_ROOM)) {               \
            if (c->ret == MPI_SUCCESS && a->op)                               \
                log_put_handle(&rec, 2, LOG_F_HANDLE, 0, (uint32_t)*a->op);   \
            rec_end(&rec);                                                    \
        }                                                                     \
    }
REC_TWINS_MPI_Op_create(OP_HOOK)

/* ---- generalized requests ------------------------------------------------ */

/* A generalized request's functions and the program's extra state; MPI is
 * given this as the extra state, freed after the free function ran. */
struct greq {
    MPI_Grequest_query_function *query;
    MPI_Grequest_free_function *free;
    MPI_Grequest_cancel_function *cancel;
    void *extra;
    int request;
};

/* Calls G's function WHAT (a LOG_CB_GREQ_*) for MPI, as an entry when MPI
 * runs it inside a call of the program's. */
static int greq_run(const struct greq *g, int what, int complete,
                    MPI_Status *status)
{
    if (what == LOG_CB_GREQ_QUERY)
        return g->query(g->extra, status);
    if (what == LOG_CB_GREQ_FREE)
        return g->free(g->extra);
    return g->cancel(g->extra, complete);
}

static int greq_call(const struct greq *g, int what, int complete,
                     MPI_Status *status)
{
    if (!in_program_call())
        return greq_run(g, what, complete, status);
    CB_ENTER();
    rec_cb_entry(LOG_FN_MPI_Grequest_start,
                 &(struct log_cb){what, g->request, 0, complete});
    int ret = greq_run(g, what, complete, status);
    CB_LEAVE();
    return ret;
}

static int greq_query(void *extra, MPI_Status *status)
{
    return greq_call(extra, LOG_CB_GREQ_QUERY, 0, status);
}

static int greq_free(void *extra)
{
    int ret = greq_call(extra, LOG_CB_GREQ_FREE, 0, NULL);
    free(extra);
    return ret;
}

static int greq_cancel(void *extra, int complete)
{
    return greq_call(extra, LOG_CB_GREQ_CANCEL, complete, NULL);
}

/* The trampolines given to MPI (MPI requires all three functions), the
 * new request logged (HANDLE of argument 4). */
void rec_MPI_Grequest_start(struct rec_call *c,
                            struct args_MPI_Grequest_start *a)
{
    struct args_MPI_Grequest_start prog = *a;
    struct greq *g = NULL;
    if (!from_fortran(c->caller) && (g = malloc(sizeof *g))) {
        *g = (struct greq){a->query_fn, a->free_fn, a->cancel_fn,
                           a->extra_state, (int)MPI_REQUEST_NULL};
        a->query_fn = greq_query;
        a->free_fn = greq_free;
        a->cancel_fn = greq_cancel;
        a->extra_state = g;
    }
    rec_pmpi_MPI_Grequest_start(c, a);
    *a = prog;
    if (g && c->ret == MPI_SUCCESS)
        g->request = (int)*a->request;
    else
        free(g);
    struct log_rec rec;
    if (rec_frame_MPI_Grequest_start(c, a, &rec, 0, LOG_HANDLE_ROOM)) {
        if (c->ret == MPI_SUCCESS && a->request)
            log_put_handle(&rec, 4, LOG_F_HANDLE, 0, (uint32_t)*a->request);
        rec_end(&rec);
    }
}
