/*
 * rpl.h - the replay stub's runtime, shared by the generated entry points
 * (rpl_stubs.c, from gen-replayer.py) and the hand-written hooks
 * (rpl-*.c) of the spec's manual functions.
 *
 * One call of an MPI function replays as:
 *
 *     rpl_begin(&c, id, values, n, skip);  next event; checks it
 *     while (rpl_field(&c, &f)) ...        writes each logged output back
 *     return rpl_end(&c, comm);            the logged return code
 *
 * For a function with a hook, the generated rpl_begin_NAME, rpl_fields_NAME
 * and rpl_replay_NAME (rpl_hooks.h) do these steps with its argument
 * struct.
 *
 * rpl_begin() never returns on a divergence: it reports the expected and
 * the actual call, calls drdb_divergence_hook() (see drdb-hooks.h) and exits
 * with RPL_EXIT_DIVERGED.
 *
 * Runs inside the replayed process: no allocation on the per-call path.
 * MPI calls are serialized: by the program up to MPI_THREAD_SERIALIZED, by
 * the stub under MPI_THREAD_MULTIPLE (rpl-thread.c), in the recorded order.
 */
#ifndef DRDB_RPL_H
#define DRDB_RPL_H

#include <mpi.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>

#include "buf.h"
#include "log-codec.h"
#include "drdb-hooks.h"
#include "drdb-stub.h"
#include "drdb_mpi_protos.h"
#include "log-reader.h"
#include "log-sys.h"
#include "log.h"
#include "rpl-type.h"

/*
 * Threads (rpl-thread.c): a log whose records name their thread
 * (MPI_THREAD_MULTIPLE) turns rpl_mt on (rpl_thread_start). Then every
 * entry point runs its call between rpl_thread_enter and
 * rpl_thread_leave (RPL_SERIAL), and rpl_begin waits in rpl_thread_turn
 * until the next event is the calling thread's.
 */
extern int rpl_mt;
/* MPI_THREAD_SERIALIZED with calls from several threads (rpl.c): each
 * thread takes its own recorded calls, in no order among threads, and
 * rpl_thread_turn does not wait. */
extern int rpl_ser;
void rpl_thread_start(void);
void rpl_thread_enter(void);
void rpl_thread_leave(void);
void rpl_thread_turn(int fn);
/* The next event's thread and function: 0, or 1 when any thread may make
 * it (its record names no thread, or the log has no more events). The
 * caller holds the stub (or the turn lock while no thread does). */
int rpl_next_turn(uint64_t *thread, int *fn);
/* Whether a collapsed run of polls (a REPEAT or CYCLE event) is partly
 * replayed: its next call is, again, the thread that made the last one.
 * The caller holds the stub. */
int rpl_mid_run(void);
/* An entry point's body: CALL, of type TYPE, serialized as above. CALL
 * is never a tail call: the entry point keeps its frame, which the
 * console shows as the MPI call a rank stopped in (the generic replay
 * rpl__NAME is inlined into it). */
#define RPL_SERIAL(TYPE, CALL)                                              \
    do {                                                                    \
        int rpl__mt = rpl_mt;                                               \
        if (__builtin_expect(rpl__mt, 0))                                   \
            rpl_thread_enter();                                             \
        TYPE rpl__ret = CALL;                                               \
        if (__builtin_expect(rpl__mt, 0))                                   \
            rpl_thread_leave();                                             \
        return rpl__ret;                                                    \
    } while (0)

/* Exit statuses of a replay the stub stops (drdb-stub.h). */
enum {
    RPL_EXIT_DIVERGED = DRDB_EXIT_DIVERGED,
    RPL_EXIT_LOG_END = DRDB_EXIT_LOG_END,
    RPL_EXIT_SETUP = DRDB_EXIT_SETUP,
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

/* Lifecycle state of the replayed MPI. */
enum rpl_state { RPL_PRE_INIT, RPL_RUNNING, RPL_FINALIZED };
extern enum rpl_state rpl_state;
/* Calls MPI permits before MPI_Init and after MPI_Finalize are logged
 * when the header says so (LOG_HDR_EARLY, LOG_HDR_POST), else the stub
 * answers them itself then. */
int rpl_open_early(void);
int rpl_logs_post(void);
static inline int rpl_logging(void)
{
    return rpl_state == RPL_RUNNING ||
           (rpl_state == RPL_PRE_INIT && rpl_open_early()) ||
           (rpl_state == RPL_FINALIZED && rpl_logs_post());
}
/* The replay runs from here: the state is RUNNING and the end-of-run
 * check is armed (rpl-init.c; once). A log with LOG_HDR_EARLY starts at
 * the program's first MPI call (rpl.c opens it then), any other at
 * MPI_Init. */
void rpl_run_started(void);
/* The recorded run's MPI_COMM_WORLD size (from the log's header). */
extern int rpl_world_size;

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
int rpl_field(struct rpl_call *c, struct log_field *f);
/* Ends the call: runs the program callbacks MPI ran in it (the log's
 * entries: an error handler of COMM, attribute functions); c->ret. */
int rpl_end(struct rpl_call *c, MPI_Comm comm);

/* Stops the replay: prints "drdb-replay: rank R: event N: MSG" (and where
 * the program called from), calls the divergence hook, exits with CODE. */
__attribute__((noreturn, format(printf, 3, 4)))
void rpl_fail(const struct rpl_call *c, int code, const char *fmt, ...);
/* The report file $DRDB_REPLAY_REPORT names, created new (0600): its
 * descriptor, or -1 (not set, or not creatable). Async-signal-safe. */
int rpl_report_create(void);
/* The start of the small file PATH (a /proc file) as a string in BUF (LEN
 * bytes): its length, or -1. No stdio, no malloc. */
ssize_t rpl_read_small(const char *path, char *buf, size_t len);
/* The MPI function last entered (0: none yet), for a rank that dies
 * between calls (rpl-death.c). */
extern volatile int rpl_last_fn;
/* The end of a log the recorder cut (disk full): "the log ends here:
 * recording stopped at event N (No space left on device)", status 98. */
__attribute__((noreturn)) void rpl_log_end(const struct rpl_call *c);
/* Whether the log was cut at or before EVENT (the recorder stopped). */
int rpl_log_cut_at(uint64_t event);

/* Writers of logged outputs (the field F belongs to the argument at P). */
void rpl_out_raw(struct rpl_call *c, const struct log_field *f, void *p,
                 int64_t max);
/* A HANDLE field: one 32-bit handle into *P. */
void rpl_out_handle(struct rpl_call *c, const struct log_field *f, void *p);
/* The handle a REQUEST or HANDLE field holds. */
uint32_t rpl_field_handle(struct rpl_call *c, const struct log_field *f);
void rpl_out_string(struct rpl_call *c, const struct log_field *f, char *p,
                    int64_t cap);
void rpl_out_status(struct rpl_call *c, const struct log_field *f,
                    MPI_Status *st);
void rpl_out_data(struct rpl_call *c, const struct log_field *f, void *buf,
                  int64_t count, MPI_Datatype type);
void rpl_out_vdata(struct rpl_call *c, const struct log_field *f, void *buf,
                   const void *counts, size_t csize, const void *displs,
                   size_t dsize, MPI_Datatype type, int64_t peers);
/* Logged send data (recorded with --send-data): the program's COUNT x
 * TYPE at BUF must pack to the same bytes, else the replay diverged.
 * rpl_out_sent() accepts such a field unchecked (irregular layouts). */
void rpl_check_sent(struct rpl_call *c, const struct log_field *f,
                    const void *buf, int64_t count, MPI_Datatype type);
void rpl_out_sent(struct rpl_call *c, const struct log_field *f);
/* A RAW input logged for drdb check only (the spec's `noted`): skipped. */
void rpl_out_noted(struct rpl_call *c, const struct log_field *f);
/* A logged input array (a struct's layout): the program's LEN bytes at P
 * must be the same, else the replay diverged. */
void rpl_check_raw(struct rpl_call *c, const struct log_field *f,
                   const void *p, int64_t len);
/* A field no argument owns (rpl-win.c): MEMBERS are kept for
 * rpl_comm_new(), RMA fields (WINDIFF, DATA of no argument: any call may
 * complete one-sided operations or bring other ranks' writes) are applied
 * to the windows, anything else stops the replay as malformed. */
void rpl_out_other(struct rpl_call *c, const struct log_field *f);

/* One-sided communication's state (rpl-win.c): the memory of the
 * program's windows, each region numbered as the recorder numbers it
 * (WINDIFF's elem), and the results pending operations will write. */
struct rpl_region {
    uint64_t id; /* the recorder's number for it: WINDIFF's elem */
    MPI_Win win;
    char *base;
    int64_t size;
    int flavor;  /* MPI_WIN_FLAVOR_CREATE, _ALLOCATE, _DYNAMIC or _SHARED */
    int owned;   /* allocated here: freed with the window */
    /* A shared-memory segment (rpl-shm.c): this rank's part (MPI_WIN_BASE),
     * and the segment's address in the recorded process. */
    char *mine;
    uint64_t logged;
};

/* Memory MPI gives the program (rpl-mem.c): SIZE zeroed bytes at
 * RECORDED, the address the recorded process got, when its pages are free
 * here, else elsewhere (said on stderr); rpl_mem_free() gives back what
 * rpl_mem_alloc() gave (-1: not its). */
void *rpl_mem_alloc(struct rpl_call *c, uint64_t recorded, size_t size);
int rpl_mem_free(void *p);
struct rpl_region *rpl_win_region_add(MPI_Win win, void *base, int64_t size,
                                      int flavor, int owned);
void rpl_win_detach(MPI_Win win, const void *base);
void rpl_win_drop(MPI_Win win);
void *const *rpl_win_base(MPI_Win win);
/* The shared-memory segment of WIN, or NULL. */
const struct rpl_region *rpl_win_shared(MPI_Win win);
/* A pending result: N x TYPE at BUF, written when the operation on WIN at
 * TARGET completes (a copy of TYPE is kept: the program may free it). */
void rpl_win_result_add(MPI_Win win, int target, void *buf, int64_t n,
                        MPI_Datatype type);

/* Attributes (rpl-attr.c): replays a getter's event (FN: MPI_Comm_get_attr,
 * MPI_Attr_get, MPI_Type_get_attr or MPI_Win_get_attr, on OBJ): the flag
 * and, for a predefined attribute, the logged value; a program's own
 * attribute comes from the stub's table. A predefined attribute whose
 * value is an address (MPI_WIN_BASE) is *BASE when BASE is not NULL.
 * rpl_attrs_drop forgets OBJ's attributes when it is freed (their delete
 * callbacks run as the log's entries say). */
int rpl_attr_get(int fn, int obj, int keyval, void *out, int *flag,
                 void *const *base);
void rpl_attrs_drop(int obj);

/* An element count or a number of peers the stub cannot know (this rank's
 * share of a Reduce_scatter, the degree of a topology): the logged data's
 * length is then the only bound. */
#define RPL_MANY ((int64_t)1 << 40)
#define RPL_MANY_PEERS (1 << 20)

/* Per-peer types (Alltoallw): COUNTS[i] x TYPES[i] at BUF + DISPLS[i]
 * bytes, peer after peer. */
void rpl_out_wdata(struct rpl_call *c, const struct log_field *f, void *buf,
                   const void *counts, size_t csize, const void *displs,
                   size_t dsize, const MPI_Datatype *types, int64_t peers);

/* Communicators: sizes from the MEMBERS the recorder logged. */
void rpl_comm_new(struct rpl_call *c, MPI_Comm comm);
int rpl_comm_peers(MPI_Comm comm);
int rpl_comm_size(MPI_Comm comm);

/* The request-to-buffer table (rpl-req.c, the mirror of the recorder's;
 * log/buf.h): a nonblocking or persistent receive's buffer, written when
 * the request completes; registered with the program's request variable
 * (REQUEST, holding the handle) the call wrote. */
void rpl_req_register(MPI_Request *request, int fn, void *buf, int64_t n,
                      MPI_Datatype type, int persistent);
/* A partitioned receive's (MPI_Precv_init): PARTITIONS of COUNT elements;
 * MPI_Parrived writes each partition when it arrived. */
void rpl_req_register_parts(MPI_Request *request, int fn, void *buf,
                            int partitions, MPI_Count count,
                            MPI_Datatype type);
void rpl_req_register_v(MPI_Request *request, int fn, void *buf,
                        const void *counts, size_t csize, const void *displs,
                        size_t dsize, MPI_Datatype type, int64_t peers,
                        int persistent);
void rpl_req_register_w(MPI_Request *request, int fn, void *buf,
                        const void *counts, size_t csize, const void *displs,
                        size_t dsize, const MPI_Datatype *types,
                        int64_t peers, int persistent);
/* Split collectives (log/buf.h): a _begin call's buffer, kept with the
 * file handle; the _end call's DATA field written into it; forgotten at
 * the end. */
void rpl_split_begin(MPI_File fh, void *buf, int64_t n, MPI_Datatype type);
void rpl_split_data(struct rpl_call *c, const struct log_field *f,
                    MPI_File fh);
void rpl_split_end(MPI_File fh);
/* Writes a completion's DATA field into REQ's buffer; REQ completed
 * through the program's variable at WHERE (NULL: not known; log/buf.h). */
void rpl_req_data(struct rpl_call *c, MPI_Request req,
                  const MPI_Request *where, const struct log_field *f);
/* Forgets REQ unless it is persistent (FORCE: in any case). */
void rpl_req_done(MPI_Request req, const MPI_Request *where, int force);
/* Before MPI_Type_free of TYPE: the pending requests using it keep a copy
 * of their own, as the recorder's do. */
void rpl_req_keep_type(MPI_Datatype type);
/* Stops the replay unless LOGGED, the request a record names, is PROG, the
 * program's. */
void rpl_same_request(struct rpl_call *c, MPI_Request logged,
                      MPI_Request prog);

/*
 * The program's callbacks MPI ran (attribute copy and delete functions,
 * error handlers, user reduction operators, generalized requests'
 * functions): the recorder logged an entry for each (log-codec.h),
 * then the calls it made (LOG_REC_CALLBACK), before the record of the
 * call that ran it. rpl_begin() replays that record; the call's rpl_end()
 * (or the program's next call, for a hook without one) runs the callbacks
 * as the entries say, each between rpl_cb_enter() and rpl_cb_leave(), its
 * calls replaying the events after its entry.
 */
void rpl_cb_enter(void);
void rpl_cb_leave(void);
/* Runs the entry's callback: an attribute's (rpl-attr.c; a copy goes to
 * NEWOBJ, the call's new object) or an error handler (rpl-errh.c; PTR:
 * its object's handle is a pointer, an MPI_File: its constructor's
 * errh_enc). */
void rpl_attr_callback(struct rpl_call *c, const struct log_cb *cb,
                       int64_t newobj);
void rpl_errh_callback(struct rpl_call *c, const struct log_cb *cb,
                       int ptr);
/* A user reduction operator, on a copy of the vectors the entry EV logged
 * (its result discarded), or a generalized request's query (on a status
 * of its own), free or cancel function (rpl-cb.c). */
void rpl_op_callback(struct rpl_call *c, const struct log_event *ev,
                     const struct log_cb *cb);
void rpl_greq_callback(struct rpl_call *c, const struct log_cb *cb);

/* ---- libc results (rpl-sys.c; the format: log/log-sys.h) --------------- */

/*
 * The recorded results of the program's calls outside MPI (rpl-libc.c and
 * others): an interposed function asks for the calling thread's next
 * record, and returns what it holds instead of calling libc:
 *
 *     struct log_sys_rec r;
 *     if (!rpl_sys_wanted(__builtin_return_address(0)) ||
 *         !rpl_sys_next(LOG_SYS_GETPID, 0, &r, "getpid"))
 *         return real_getpid();           (not recorded: live)
 *     return (pid_t)r.ret;
 *
 * rpl_sys_next: 1 with the record in R; 0 when the run has no libc
 * stream (recorded with --no-libc, or before drdb recorded one). A record
 * of another kind or another ARG stops the replay (a divergence naming
 * CALL and the recorded call, status RPL_EXIT_DIVERGED), and so does a
 * call after the thread's last record (RPL_EXIT_LOG_END when the recorded
 * process stopped there). Any thread, any time.
 */
int rpl_sys_next(int kind, int64_t arg, struct log_sys_rec *r,
                 const char *call);
/* Whether a call from RA is the program's (the stub's own are not: the
 * recorder's rule, log_sys_caller_is_mpi). */
static inline int rpl_sys_wanted(const void *ra)
{
    return !log_sys_caller_is_mpi(ra);
}

/* Reads of /dev/urandom and /dev/random (rpl-devrandom.c): a descriptor
 * the program opened (PATH) is marked when PATH names one, so its reads
 * return the recorded bytes. */
void rpl_devrandom_opened(const char *path, int fd);

/* A little-endian int32 out of a field. */
static inline int64_t rpl_get_i32(const uint8_t *p)
{
    int32_t v;
    memcpy(&v, p, 4);
    return v;
}

#include "drdb_mpi_args.h"
#include "rpl_hooks.h"

#endif
