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
 * Not wrapped (their MPI calls stay MPI's business, unlogged, and the
 * replay does not run them: the results they fed are in the log): user
 * reduction operators, generalized requests' and data representations'
 * functions. Nor are callbacks registered from Fortran: MPICH calls those
 * through its Fortran proxies, with Fortran's conventions.
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
    int handle; /* the error handler MPI made of it */
} errh[NERRH];
static int nerrh;

static void errh_call(int slot, void *obj, int *code)
{
    /* A file is a pointer in MPICH; the other objects int handles. */
    int64_t o = errh[slot].ctor == LOG_FN_MPI_File_create_errhandler
                    ? (int64_t)(intptr_t) * (MPI_File *)obj
                    : (int64_t) * (uint32_t *)obj;
    CB_ENTER();
    rec_cb_entry(errh[slot].ctor, &(struct log_cb){LOG_CB_ERRHANDLER,
                                                   errh[slot].handle, o,
                                                   *code});
    errh[slot].fn(obj, code);
    CB_LEAVE();
}

#define T(i)                                                                  \
    static void errh_##i(void *obj, int *code, ...) { errh_call(i, obj, code); }
/* Octal: T8(k) makes slots 8k to 8k+7. */
#define T8(i)                                                                 \
    T(0##i##0) T(0##i##1) T(0##i##2) T(0##i##3) T(0##i##4) T(0##i##5)         \
    T(0##i##6) T(0##i##7)
T8(0) T8(1) T8(2) T8(3) T8(4) T8(5) T8(6) T8(7)
#undef T
#define T(i) errh_##i,
static errh_fn *const errh_tramp[NERRH] = {
    T8(0) T8(1) T8(2) T8(3) T8(4) T8(5) T8(6) T8(7)
};
#undef T
#undef T8

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
