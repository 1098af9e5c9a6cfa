/*
 * rec.h - the recorder's runtime, shared by the generated wrappers
 * (rec_wrappers.c) and the hand-written ones (rec-manual.c).
 *
 * Runs inside the recorded process: no allocation on the per-call path, no
 * locks unless the program asked for MPI_THREAD_MULTIPLE.
 */
#ifndef DRDB_REC_H
#define DRDB_REC_H

#include <mpi.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "drdb_mpi_protos.h"
#include "buf.h"
#include "log-codec.h"
#include "log.h"
#include "log-sys.h"
#include "log-writer.h"

extern int rec_on;          /* recording this rank */
extern uint64_t rec_t0;     /* CLOCK_MONOTONIC ns at log open */
extern int rec_send_data;   /* log the data of sends too (--send-data) */

/* libc's clock_gettime, not the recorder's interposed one (rec-libc.c):
 * the recorder's own clock reads, twice per MPI call, skip its checks. */
int rec_real_clock_gettime(clockid_t id, struct timespec *ts);

static inline uint64_t rec_now(void)
{
    struct timespec ts;
    rec_real_clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec - rec_t0;
}

/* Starts a record with ROOM bytes of arguments and fields; 0 when logging
 * has stopped (the caller just returns). */
int rec_begin(struct log_rec *rec, int fn, unsigned flags, int ret,
              uint64_t t0, uint64_t t1, size_t room);
void rec_end(struct log_rec *rec);

static inline void rec_put_field(struct log_rec *rec, unsigned arg,
                                 unsigned kind, uint64_t elem, const void *p,
                                 size_t len)
{
    log_put_field(rec, arg, kind, elem, len);
    log_put_bytes(rec, p, len);
}
static inline void rec_put_raw(struct log_rec *rec, unsigned arg,
                               uint64_t elem, const void *p, size_t len)
{
    rec_put_field(rec, arg, LOG_F_RAW, elem, p, len);
}

/*
 * Polling loops: an unsuccessful MPI_Iprobe or MPI_Test identical to the
 * previous one (same function, arguments and outputs) is not logged on its
 * own: the run is logged as one LOG_REC_REPEAT record when something else
 * happens. IMG holds the record's argument block and fields.
 */
void rec_poll(int fn, const void *img, size_t len, uint64_t t0, uint64_t t1);

/* Peers of a collective on COMM: the remote group of an intercommunicator. */
int rec_peers(MPI_Comm comm);
/* Neighbours of a neighbourhood collective on COMM's topology: sources
 * (in-degree) and destinations (out-degree). Cartesian: 2 * ndims (the
 * MPI_PROC_NULL ones included); graph: MPI_Graph_neighbors_count; distributed
 * graph: MPI_Dist_graph_neighbors_count. 0 without a topology. */
int rec_in_degree(MPI_Comm comm);
int rec_out_degree(MPI_Comm comm);
/* Which processes a rooted collective's buffer is significant at. */
enum rec_side {
    REC_AT_ROOT,    /* Gather(v), Reduce: recvbuf; Scatter(v): sendbuf */
    REC_AT_NONROOT, /* Bcast: buffer (written) */
    REC_AT_ALL,     /* Scatter(v): recvbuf; Gather(v), Reduce: sendbuf */
};
/* Whether this process's buffer on SIDE is significant in a collective
 * rooted at ROOT. Intercommunicators: the root passes MPI_ROOT (only
 * REC_AT_ROOT holds), the rest of its group MPI_PROC_NULL (nothing holds),
 * the other group the root's rank (REC_AT_NONROOT and REC_AT_ALL hold). */
int rec_coll_writes(MPI_Comm comm, int root, enum rec_side side);
/* Packed bytes of N elements of TYPE. */
int64_t rec_data_bytes(int64_t n, MPI_Datatype type);
/* Bytes a receive of at most N x TYPE got, from its status. */
int64_t rec_status_bytes(const MPI_Status *st, int64_t n, MPI_Datatype type);
/* Room to reserve to pack BYTES of TYPE (one element of slack). */
size_t rec_pack_room(int64_t bytes, MPI_Datatype type);
/* Appends a DATA field: the first BYTES packed bytes of N x TYPE at BUF. */
void rec_put_data(struct log_rec *rec, unsigned arg, const void *buf,
                  int64_t n, MPI_Datatype type, int64_t bytes);
/*
 * v-variants: for each of PEERS peers i in order, COUNTS[i] x TYPE at
 * BUF + DISPLS[i] * extent(TYPE), packed, as one DATA field. CSIZE and
 * DSIZE are the arrays' element sizes (4: int; 8: MPI_Count, MPI_Aint).
 */
int64_t rec_vdata_bytes(int peers, const void *counts, size_t csize,
                        MPI_Datatype type);
void rec_put_vdata(struct log_rec *rec, unsigned arg, const void *buf,
                   int peers, const void *counts, size_t csize,
                   const void *displs, size_t dsize, MPI_Datatype type,
                   int64_t bytes);
/* A new communicator's members as MPI_COMM_WORLD ranks. */
size_t rec_members_room(MPI_Comm comm);
void rec_put_members(struct log_rec *rec, MPI_Comm comm);

/* ---- buffers (log/buf.h) ------------------------------------------------ */

/* Packed bytes B describes (LOG_BUF_RECV: what status ST says arrived). */
int64_t rec_buf_bytes(const struct log_buf *b, const MPI_Status *st);
/* Room a DATA field of BYTES of B takes, header included (0 for 0). */
size_t rec_buf_room(const struct log_buf *b, int64_t bytes);
/* Appends B's BYTES as one DATA field (nothing for 0 bytes). */
void rec_put_buf(struct log_rec *rec, unsigned arg, uint64_t elem,
                 const struct log_buf *b, int64_t bytes);

/*
 * The request-to-buffer table (rec-req.c): a nonblocking or persistent
 * call's receive buffer, logged by the Wait/Test call that completes the
 * request. rec_req_add copies B (B->req is the key; an entry under the same
 * handle is replaced). The short forms are what the generated wrappers
 * call.
 */
void rec_req_add(const struct log_buf *b);
void rec_req_recv(MPI_Request req, int fn, void *buf, int64_t n,
                  MPI_Datatype type, int persistent);
void rec_req_coll(MPI_Request req, int fn, void *buf, int64_t n,
                  MPI_Datatype type, int persistent);
void rec_req_vcoll(MPI_Request req, int fn, void *buf, int peers,
                   const void *counts, size_t csize, const void *displs,
                   size_t dsize, MPI_Datatype type, int persistent);
/* The buffer registered under REQ, or NULL. */
struct log_buf *rec_req_find(MPI_Request req);
/* Forgets B (from rec_req_find) unless it is persistent (FORCE: in any
 * case). */
void rec_req_done(struct log_buf *b, int force);

/* ---- hooks ---------------------------------------------------------------- */

/* A call of a function with a recorder hook (the spec's manual and
 * manual(rec) classes): the generated wrapper fills FN and hands it, with
 * the argument struct, to rec_NAME(), which makes the call with
 * rec_pmpi_NAME() (setting RET, T0 and T1) and logs it, starting its
 * record with rec_frame_NAME() (the by-value arguments written). */
struct rec_call {
    int fn;
    int ret;
    uint64_t t0, t1;
};

/* Life cycle (rec.c): the log opens after PMPI_Init and closes at
 * MPI_Finalize. */
void rec_open(void);
void rec_close(void);

/* ---- libc results (rec-sys.c; the format: log/log-sys.h) ---------------- */

/*
 * The results of the program's calls outside MPI (the clock, the pid,
 * random bytes, files: rec-libc.c and others) go to the rank's side
 * stream rank-R.sys. An interposed function calls the real one, then,
 * when rec_sys_wanted(__builtin_return_address(0)), logs what it
 * returned:
 *
 *     int r = real_clock_gettime(id, ts);
 *     if (rec_sys_wanted(__builtin_return_address(0)))
 *         rec_sys_put(LOG_SYS_CLOCK_GETTIME, r, r < 0 ? errno : 0, id,
 *                     ts, r == 0 ? sizeof *ts : 0);
 *
 * Any thread, any time (before MPI_Init, after MPI_Finalize); errno is
 * kept; no lock once a thread's stream is open (one stream per thread).
 * Each record is the call's return value RET, ERR (errno when it failed,
 * else 0), ARG (an input the replay checks: a clock, a length), and the
 * LEN bytes at DATA it wrote. The replay (rpl_sys_next) hands back the
 * same records, thread by thread, in order.
 */
enum {
    REC_SYS_UNSET, /* not decided yet: the first call decides */
    REC_SYS_EARLY, /* recording, before the log opens: kept in memory */
    REC_SYS_ON,    /* appended to rank-R.sys */
    REC_SYS_OFF,   /* not recording: outside drdb record, --no-libc, a
                    * rank not selected, a forked child, a write failed */
};
extern int rec_sys_state;
/* Set by drdb record --no-libc: the stream is not written. */
#define REC_SYS_ENV_OFF "DRDB_NO_LIBC"

/* Whether a call from RA is the program's, not MPI's own (MPICH reads the
 * clock and the pid inside MPI calls). One place to ask, so that it can
 * later use the recorder's inside-an-MPI-call counter as well. */
static inline int rec_sys_from_mpi(const void *ra)
{
    return log_sys_caller_is_mpi(ra);
}
/* Whether to log a call made from RA: cheap when recording is off. */
static inline int rec_sys_wanted(const void *ra)
{
    if (__builtin_expect(rec_sys_state == REC_SYS_OFF, 0))
        return 0;
    return !rec_sys_from_mpi(ra);
}
/* The calling thread's stream, once it is open (rec-sys.c). */
extern __thread struct log_writer *rec_sys_tw
    __attribute__((tls_model("initial-exec")));
void rec_sys_put_slow(int kind, int64_t ret, int err, int64_t arg,
                      const void *data, size_t len);
/* Inline, so that a fixed-size result (a timespec) is copied as such: the
 * hot path is a few dozen instructions. */
static inline void rec_sys_put(int kind, int64_t ret, int err, int64_t arg,
                               const void *data, size_t len)
{
    struct log_writer *w = rec_sys_tw;
    uint8_t *p;
    if (__builtin_expect(w && !err && len <= 64 &&
                             rec_sys_state == REC_SYS_ON &&
                             (p = log_writer_room(w, len + 20)) != NULL, 1)) {
        struct log_rec r = {p, p};
        log_put_arg_aint(&r, ret);
        log_put_arg_aint(&r, arg);
        if (len)
            log_put_bytes(&r, data, len);
        log_writer_done(w, kind, 0, r.p);
        return;
    }
    rec_sys_put_slow(kind, ret, err, arg, data, len);
}
/* From rec_open: creates rank-R.sys in the run directory DIR (HDR: the
 * log's header) and writes what waited in memory: 1 when the streams are
 * on (the log's header then says LOG_HDR_SYS), else 0. */
int rec_sys_open(const char *dir, int rank, const struct log_file_header *hdr);
/* From rec_open for a rank not recorded: nothing is written. */
void rec_sys_drop(void);

#include "drdb_mpi_args.h"
#include "rec_hooks.h"

#endif
