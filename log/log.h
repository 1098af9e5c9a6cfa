/*
 * log.h - drdb's log module: the MPI function table. The rest of the module
 * has its own headers: the on-disk format (log-format.h), the writer
 * (log-writer.h), the reader (log-reader.h), the per-family codecs
 * (log-codec.h), MPICH's ABI facts (log-abi.h), compression
 * (log-compress.h); docs/log-format.md says which defines what.
 *
 * The function table is generated at build time from log/mpi-functions.spec
 * (see the comment at its top). Every MPI function MPICH 4.0.2 exports has a
 * permanent numeric id; logs store ids, never names.
 */
#ifndef DRDB_LOG_H
#define DRDB_LOG_H

#include <stddef.h>
#include <stdint.h>

#include "drdb_mpi_funcs.h"
#include "log-format.h" /* enum log_enc */

/* Permanent function ids: LOG_FN_MPI_Send, LOG_FN_MPI_Recv, ... */
enum log_func_id {
    LOG_FN_NONE = 0,
#define LOG__FN_ENUM(id, name, cls, ret, nargs) LOG_FN_##name = id,
    DRDB_MPI_FUNCS(LOG__FN_ENUM)
#undef LOG__FN_ENUM
};

/* Direction of an argument (see the spec's header). */
enum log_dir {
    LOG_DIR_VALUE, /* passed by value: an input */
    LOG_DIR_IN,
    LOG_DIR_OUT,
    LOG_DIR_INOUT,
    LOG_DIR_ASYNC, /* written when the started request completes */
};

enum log_class {
    LOG_CLASS_AUTO,   /* wrappers and stubs generated from the spec */
    LOG_CLASS_MANUAL, /* a hand-written hook on at least one side */
};

/* Which sides have a hand-written hook (the spec's manual classes). */
enum {
    LOG_HOOK_REC = 1u << 0, /* the recorder: rec_NAME */
    LOG_HOOK_RPL = 1u << 1, /* the replay stub: rpl_NAME */
};

/* Where a rooted collective's buffer is significant (the spec's `at`). */
enum log_at {
    LOG_AT_ROOT = 1, /* at the root only */
    LOG_AT_NONROOT,  /* at every process but the root */
    LOG_AT_ALL,      /* at every process (intercommunicator: the other
                      * group) */
};

/* At most this many buffer addresses in a record (LOG_REC_SITE). */
#define LOG_SITE_BUFS 2

struct log_arg_desc {
    const char *name;   /* as in MPICH's prototype */
    const char *ctype;  /* C type, "[]" for arrays */
    enum log_dir dir;
    const char *length; /* the spec's LENGTH annotation, or NULL (one) */
    int size;           /* by-value: its size in MPICH's ABI (4 or 8) */
    int enc;            /* by-value: enum log_enc; 0 for pointers */
    int vpos;           /* by-value: its position in the argument block
                         * (log_event_args order); -1 for pointers */
    int at;             /* enum log_at, 0 when unqualified */
    int logged;         /* an input the recorder logs: 1 `logged` (the
                         * replay checks it), 2 `noted` (not checked) */
};

/*
 * One function: its prototype and its roles. What a call is (send,
 * collective, completion, ...) and which argument plays which part come
 * from the spec, never from the function's name: code that needs to know
 * asks kind, roles and slot.
 */
struct log_func_desc {
    int id;
    const char *name; /* "MPI_Send" */
    enum log_class cls;
    const char *ret;  /* "int", "double", "MPI_Aint", ... */
    int nargs;
    int variadic;
    const struct log_arg_desc *args; /* nargs entries */
    int kind;         /* enum log_kind */
    unsigned roles;   /* LOG_R_* */
    unsigned hooks;   /* LOG_HOOK_* */
    int8_t slot[LOG_S_COUNT_]; /* enum log_slot -> index into args, or -1 */
    const char *unsupported;   /* why the replay cannot reproduce the call,
                                * NULL when it can */
    /* The buffers whose addresses a record with LOG_REC_SITE carries
     * (log-format.h: log_put_bufaddr), in this order: argument indices
     * (log/mpispec.py: site_buffers). See bufs_if_pending. */
    int nbufs;
    int8_t bufs[LOG_SITE_BUFS];
    /* A blocking call: a record carries its buffers only with
     * LOG_REC_BUFS (its rank had a request pending); a
     * call that starts a request (0) carries them with every site. */
    int bufs_if_pending;
    /* The log version from which a record carries them: 8 for a
     * one-sided operation that returns no request (MPI_Put, ...), 5 for
     * the others. */
    int bufs_since;
    /* The function of which this one is MPI 4's large-count twin (of
     * MPI_Send_c: MPI_Send's id), else its own id: two calls are the same
     * operation when their classic is the same. */
    int classic;
    /* A call with the role errhandler: the enum log_enc of the object
     * handle its error handler function is called with (a pointer to it):
     * LOG_ENC_HANDLE (MPI_Comm, MPI_Win, MPI_Session: int handles) or
     * LOG_ENC_PTR (MPI_File, a pointer in MPICH); 0 for other calls. */
    int errh_enc;
};

/* Names of the role kinds, flags and slots, as the spec writes them. */
extern const char *const log_kind_names[LOG_KIND_COUNT];
extern const char *const log_flag_names[LOG_FLAG_COUNT];
extern const char *const log_slot_names[LOG_S_COUNT_];

/* Every function, in increasing id order. */
extern const struct log_func_desc log_funcs[];
extern const int log_funcs_count;

/* The function with this id, or NULL when no function has it. */
const struct log_func_desc *log_func_by_id(int id);

/*
 * The function with this name, or NULL. Accepts the MPI_ or PMPI_ name, and
 * ignores case (Fortran users write MPI_SEND).
 */
const struct log_func_desc *log_func_by_name(const char *name);

/* The name for an id ("MPI_Send"), or "?" for an unknown id. */
const char *log_func_name(int id);

#endif
