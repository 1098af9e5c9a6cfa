/*
 * rpl.h - the replay stub's runtime, shared by the generated entry points
 * (rpl_stubs.c, from gen-replayer.py) and the hand-written ones
 * (rpl-manual.c).
 *
 * One call of an MPI function replays as:
 *
 *     rpl_begin(&c, id, values, n, skip);  next event; checks it
 *     while (rpl_field(&c, &f)) ...        writes each logged output back
 *     return rpl_end(&c, comm);            the logged return code
 *
 * rpl_begin() never returns on a divergence: it reports the expected and
 * the actual call, calls drdb_divergence_hook() (see drdb-hooks.h) and exits
 * with RPL_EXIT_DIVERGED.
 *
 * Runs inside the replayed process: no allocation on the per-call path.
 * MPI calls are serialized (MPI_THREAD_SERIALIZED at most was recorded).
 */
#ifndef DRDB_RPL_H
#define DRDB_RPL_H

#include <mpi.h>
#include <stdint.h>
#include <string.h>

#include "drdb-hooks.h"
#include "drdb_mpi_protos.h"
#include "log-reader.h"
#include "log.h"
#include "rpl-type.h"
#include "rpl_auto.h"

/* Exit statuses of a replay the stub stops. */
enum {
    RPL_EXIT_DIVERGED = 97, /* the program's call differs from the log */
    RPL_EXIT_LOG_END = 98,  /* the log ends (the recorded rank stopped) */
    RPL_EXIT_SETUP = 99,    /* no log, unreadable log, unsupported call */
};

/* The call being replayed. */
struct rpl_call {
    struct log_event ev;
    size_t cursor;   /* rpl_field()'s position in ev's fields */
    int fn;          /* the function called */
    int ret;         /* the logged return code */
    double dret;     /* MPI_Wtime / MPI_Wtick */
    int nargs;       /* by-value arguments given to rpl_begin */
    const int64_t *vals;
};

struct rpl_field {
    unsigned arg, kind;
    uint64_t elem;
    const uint8_t *data;
    uint64_t len;
};

/* Lifecycle state of the replayed MPI. */
enum rpl_state { RPL_PRE_INIT, RPL_RUNNING, RPL_FINALIZED };
extern enum rpl_state rpl_state;

/* Checkpoints (rpl-ckpt.c): started at load time from DRDB_CKPT_*; a
 * checkpoint is due at event NO; taking it. */
extern int rpl_ckpt_on;
int rpl_ckpt_due(uint64_t no);
void rpl_ckpt_take(uint64_t no);

/*
 * Takes the next event, which must be a call of FN with by-value arguments
 * VALS[0..N) (bit k of SKIP: argument k is not compared: function
 * pointers). Stops at drdb_stop_event first if asked.
 */
void rpl_begin(struct rpl_call *c, int fn, const int64_t *vals, int n,
               unsigned skip);
/* The event's next field: 1, or 0 at the end. */
int rpl_field(struct rpl_call *c, struct rpl_field *f);
/* Runs the error handler of COMM if the call failed; returns c->ret. */
int rpl_end(struct rpl_call *c, MPI_Comm comm);

/* Stops the replay: prints "drdb-replay: rank R: event N: MSG" (and where
 * the program called from), calls the divergence hook, exits with CODE. */
__attribute__((noreturn, format(printf, 3, 4)))
void rpl_fail(const struct rpl_call *c, int code, const char *fmt, ...);

/* Writers of logged outputs (the field F belongs to the argument at P). */
void rpl_out_raw(struct rpl_call *c, const struct rpl_field *f, void *p,
                 int64_t max);
/* A HANDLE field: one 32-bit handle into *P. */
void rpl_out_handle(struct rpl_call *c, const struct rpl_field *f, void *p);
/* The handle a REQUEST or HANDLE field holds. */
uint32_t rpl_field_handle(struct rpl_call *c, const struct rpl_field *f);
void rpl_out_string(struct rpl_call *c, const struct rpl_field *f, char *p,
                    int64_t cap);
void rpl_out_status(struct rpl_call *c, const struct rpl_field *f,
                    MPI_Status *st);
void rpl_out_data(struct rpl_call *c, const struct rpl_field *f, void *buf,
                  int64_t count, MPI_Datatype type);
void rpl_out_vdata(struct rpl_call *c, const struct rpl_field *f, void *buf,
                   const void *counts, size_t csize, const void *displs,
                   size_t dsize, MPI_Datatype type, int64_t peers);
/* Logged send data (recorded with --send-data): the program's COUNT x
 * TYPE at BUF must pack to the same bytes, else the replay diverged.
 * rpl_out_sent() accepts such a field unchecked (irregular layouts). */
void rpl_check_sent(struct rpl_call *c, const struct rpl_field *f,
                    const void *buf, int64_t count, MPI_Datatype type);
void rpl_out_sent(struct rpl_call *c, const struct rpl_field *f);
/* A logged input array (a struct's layout): the program's LEN bytes at P
 * must be the same, else the replay diverged. */
void rpl_check_raw(struct rpl_call *c, const struct rpl_field *f,
                   const void *p, int64_t len);
/* A field the generated code has no place for: MEMBERS are kept for
 * rpl_comm_new(), RMA fields (WINDIFF, DATA of no argument) go to
 * rpl_rma_field(), anything else stops the replay as malformed. */
void rpl_out_other(struct rpl_call *c, const struct rpl_field *f);

/* One-sided communication (rpl-rma.c): applies a WINDIFF field to the
 * window region it names, or a DATA field with arg LOG_ARG_NONE to the
 * pending operation result it names (elem), which is then forgotten. */
void rpl_rma_field(struct rpl_call *c, const struct rpl_field *f);
/* The base address here of WIN's memory (MPI_Win_create's buffer,
 * MPI_Win_allocate's allocation): 1, or 0 for an unknown or dynamic
 * window. */
int rpl_win_base(MPI_Win win, void **base);
/* Runs the delete callbacks of the program's attributes on WIN, which
 * MPI_Win_free has freed (rpl-manual.c). */
void rpl_win_attrs_drop(MPI_Win win);

/* An element count or a number of peers the stub cannot know (this rank's
 * share of a Reduce_scatter, the degree of a topology): the logged data's
 * length is then the only bound. */
#define RPL_MANY ((int64_t)1 << 40)
#define RPL_MANY_PEERS (1 << 20)

/* Per-peer types (Alltoallw): COUNTS[i] x TYPES[i] at BUF + DISPLS[i]
 * bytes, peer after peer. */
void rpl_out_wdata(struct rpl_call *c, const struct rpl_field *f, void *buf,
                   const void *counts, size_t csize, const void *displs,
                   size_t dsize, const MPI_Datatype *types, int64_t peers);

/* Communicators: sizes from the MEMBERS the recorder logged. */
void rpl_comm_new(struct rpl_call *c, MPI_Comm comm);
int rpl_comm_peers(MPI_Comm comm);
int rpl_comm_size(MPI_Comm comm);

/* The request-to-buffer table (the mirror of the recorder's): a
 * nonblocking or persistent receive's buffer, written when the request
 * completes. */
void rpl_req_register(MPI_Request req, int fn, void *buf, int64_t n,
                      MPI_Datatype type, MPI_Comm comm, int persistent);
void rpl_req_register_v(MPI_Request req, int fn, void *buf,
                        const void *counts, size_t csize, const void *displs,
                        size_t dsize, MPI_Datatype type, MPI_Comm comm,
                        int persistent);
void rpl_req_register_w(MPI_Request req, int fn, void *buf,
                        const void *counts, size_t csize, const void *displs,
                        size_t dsize, const MPI_Datatype *types,
                        int64_t peers, int persistent);
/* Writes a completion's DATA field into REQ's buffer. */
void rpl_req_data(struct rpl_call *c, MPI_Request req,
                  const struct rpl_field *f);
/* Forgets REQ unless it is persistent (FORCE: in any case). */
void rpl_req_done(MPI_Request req, int force);

/* Error handlers: the program's own function, called where MPI called it. */
void rpl_errh_create(MPI_Errhandler eh, void (*fn)(void));
void rpl_errh_set(MPI_Comm comm, MPI_Errhandler eh);

/* A little-endian int32 out of a field. */
static inline int64_t rpl_get_i32(const uint8_t *p)
{
    int32_t v;
    memcpy(&v, p, 4);
    return v;
}

#endif
