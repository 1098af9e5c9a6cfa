/*
 * rec.h - the recorder's runtime, shared by the generated wrappers
 * (rec_wrappers.c) and the hand-written ones (rec-*.c).
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

#include "drdb-record.h"
#include "drdb_mpi_protos.h"
/* PMPI_NAME(...) calls MPICH's function (rec_real_MPI_NAME), not the
 * recorder's export of the same name (docs/recording.md, "How calls are
 * caught"). */
#include "rec_real.h"
#include "buf.h"
#include "log-abi.h"
#include "log-codec.h"
#include "log.h"
#include "log-sys-writer.h"
#include "log-writer.h"

extern int rec_on;          /* recording this rank */
extern uint64_t rec_t0;     /* CLOCK_MONOTONIC ns at log open */
extern int rec_send_data;   /* log the data of sends too (--send-data) */

/*
 * MPI's own calls (docs/recording.md, "Calls MPI makes itself"). The
 * recorder is an LD_PRELOAD library, so the MPI library's internal calls
 * of public MPI_ functions (ROMIO's MPI_Type_create_resized in
 * MPI_File_set_view, its keyval freed at MPI_Finalize) land in the
 * wrappers too. rec_busy is set while this thread is inside an MPI call
 * the program made: a call made then is MPI's business and goes straight
 * to PMPI_, unlogged. The program's callbacks that MPI calls (attribute
 * copy and delete functions, error handlers: rec-cb.c) clear it for their
 * duration, so their MPI calls are logged as the program's, marked with
 * the callback depth (rec_cb_depth: LOG_REC_CALLBACK). Per thread, and
 * initial-exec so that the test is one fs-relative load.
 */
extern __thread int rec_busy __attribute__((tls_model("initial-exec")));
extern __thread unsigned rec_cb_depth __attribute__((tls_model("initial-exec")));
/* libc's clock_gettime, not the recorder's interposed one (rec-libc.c):
 * the recorder's own clock reads, twice per MPI call, skip its checks. */
int rec_real_clock_gettime(clockid_t id, struct timespec *ts);

static inline uint64_t rec_now(void)
{
    struct timespec ts;
    rec_real_clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec - rec_t0;
}

/*
 * MPI_THREAD_MULTIPLE (rec_mt, set by MPI_Init_thread): records are built
 * and committed under one lock, so the log's order is the order in which
 * calls were committed (docs/recording.md, "Threads"), and each record
 * carries the calling thread's number (LOG_REC_THREAD, util/thread.h).
 * The lock is recursive per thread and never held across a PMPI call:
 * rec_begin takes it, rec_end drops it; a hook's skeleton holds it around
 * the hook, which drops it for its PMPI call (rec_lock_drop and
 * rec_lock_retake in rec_pmpi_NAME). Without MULTIPLE each costs one test
 * of rec_mt.
 */
extern int rec_mt;
void rec__lock(void);
void rec__unlock(void);
int rec__lock_drop(void);
void rec__lock_retake(int held);
static inline void rec_lock(void)
{
    if (__builtin_expect(rec_mt, 0))
        rec__lock();
}
static inline void rec_unlock(void)
{
    if (__builtin_expect(rec_mt, 0))
        rec__unlock();
}
/* Releases the lock entirely for a PMPI call: what rec_lock_retake needs
 * to take it back. */
static inline int rec_lock_drop(void)
{
    return __builtin_expect(rec_mt, 0) ? rec__lock_drop() : 0;
}
static inline void rec_lock_retake(int held)
{
    if (__builtin_expect(held, 0))
        rec__lock_retake(held);
}

/*
 * Handles under MPI_THREAD_MULTIPLE: when thread T's MPI_Wait frees
 * request H inside MPI, MPI may give H to thread U's MPI_Irecv before T
 * has logged its completion (MPICH reuses handles at once); the same for
 * a communicator, datatype, group, ... that T frees. U's record (and its
 * buffer in the request table) must come after T's, or T would log U's
 * buffer and the replay would see H made before it was freed. So a call
 * that frees handles (a completion, MPI_Request_free, MPI_*_free) pins
 * them before its PMPI call (rec_pin_handles) until it is logged
 * (rec_unpin_handles), and a call that returns a new handle H waits,
 * holding the lock, until no other thread has H pinned
 * (rec_wait_unpinned), before it starts its record. The generated
 * wrappers do all three. MPICH's handles are ints of distinct kinds.
 */
void rec_pin_handles(const int *handles, int n);
void rec__unpin_handles(void);
static inline void rec_unpin_handles(void)
{
    if (__builtin_expect(rec_mt, 0))
        rec__unpin_handles();
}
void rec_wait_unpinned(int handle);

/* Starts a record with ROOM bytes of arguments and fields; 0 when logging
 * has stopped (the caller just returns). Besides the record flags, FLAGS
 * may hold REC_SYNC, or REC_CB_ENTRY (the record is the entry of a
 * program callback, rec_cb_entry). rec_end() appends the changes of the shared-memory
 * segments to the record of a call that can synchronize processes (see
 * below) and commits it. */
int rec_begin(struct log_rec *rec, int fn, unsigned flags, int ret,
              uint64_t t0, uint64_t t1, size_t room);
void rec_end(struct log_rec *rec);
/* rec_begin for a call the program made from return address RA (NULL:
 * unknown): the record carries its call site (LOG_REC_SITE). Returns 0
 * (not logging), 1, REC_SITE_PUT when the site was written, or
 * REC_SITE_BUFS when the record also has LOG_REC_BUFS (from FLAGS, or
 * the probe below): the caller then writes the buffer addresses the
 * function table names (log_func_desc.bufs, rec_put_bufaddr) before the
 * by-value arguments, a blocking call's only with REC_SITE_BUFS.
 *
 * REC_PROBE (not a record flag) marks a call with buffers: the first
 * record from each call site of the program (rec_site_probe) carries
 * them (LOG_REC_BUFS), with the calling frame's CFA (LOG_F_FRAME), so
 * that drdb check finds the variables they lie in from the program's
 * DWARF (type.*). */
#define REC_SITE_PUT 2
#define REC_SITE_BUFS 3
#define REC_PROBE (1u << 29)
int rec_begin_at(struct log_rec *rec, int fn, unsigned flags, int ret,
                 uint64_t t0, uint64_t t1, size_t room, const void *ra);

/*
 * Call sites (rec-site.c). rec_site: where the program made the call that
 * returns to RA (a Fortran program's: the first frame outside MPI's
 * libraries), as the bytes log_put_site writes, or NULL when no loaded
 * object holds it. The record needs ROOM bytes more for them, its buffer
 * addresses (LOG_SITE_BUFS) and, for an object's first site, the object's
 * LOG_F_OBJECT field, which rec_end then appends (rec_site_announce,
 * rec_site_put_object).
 *
 * The common case is inline: a return address seen before hashes to an
 * entry of rec_site_enc that holds its bytes (a Fortran binding's, once
 * two stack slots are checked), so the site costs a hash, a compare
 * and one 16-byte copy (rec_site_put) where computing it took a range
 * test, a shift and a varint loop (about 30 instructions more a call,
 * callgrind, bench-sites.sh). Runs under the recorder's lock
 * (rec_begin).
 */
struct rec_obj;
struct rec_site_enc {
    uintptr_t ra;      /* the return address; 0: an empty entry */
    uint8_t bytes[16]; /* log_put_site's bytes (at most LOG_SITE_ROOM),
                        * zeros after them */
    uint32_t len;      /* how many */
    uint32_t room;     /* the record's room for the site, its buffers' and
                        * the object's field */
    /* RA a Fortran binding's (ok not 0): the site is the program's
     * return address OK, valid while the stack at CFA + WRAP still holds
     * RA and at CFA + AT holds OK, CFA rec_begin_at's frame's (rec-site.c:
     * the binding's cache). */
    uintptr_t ok;
    ptrdiff_t wrap, at;
    uintptr_t pad;
};
_Static_assert(LOG_SITE_ROOM < 16, "a site's bytes fit one entry");
_Static_assert(sizeof(struct rec_site_enc) == 64, "an entry is 64 bytes");
#define REC_SITE_ENC 128 /* entries, a power of 2 */
/* The executable's GNU build id, as hex into HEX (from its notes in
 * memory: no file read): 0, or -1 (none, or LEN too small). */
int rec_exe_build_id(char *hex, size_t len);
extern struct rec_site_enc rec_site_enc[REC_SITE_ENC]
    __attribute__((visibility("hidden")));
extern struct rec_obj *rec_site_announce
    __attribute__((visibility("hidden")));
static inline struct rec_site_enc *rec_site_slot(uintptr_t ra)
{
    return &rec_site_enc[(ra ^ ra >> 7) & (REC_SITE_ENC - 1)];
}
const struct rec_site_enc *rec__site(const void *ra, uintptr_t cfa);
static inline const struct rec_site_enc *rec_site(const void *ra,
                                                  uintptr_t cfa)
{
    const struct rec_site_enc *e = rec_site_slot((uintptr_t)ra);
    if (__builtin_expect(e->ra == (uintptr_t)ra, 1) &&
        (__builtin_expect(!e->ok, 1) ||
         (*(const uintptr_t *)(cfa + (uintptr_t)e->wrap) == e->ra &&
          *(const uintptr_t *)(cfa + (uintptr_t)e->at) == e->ok)))
        return e;
    return rec__site(ra, cfa);
}
/* Writes site E's bytes: the 16 bytes, of which the ones after E->len are
 * zeros that the rest of the record overwrites or that stay past its end,
 * as the mapping's zeros there do (log_put_bufaddr's stores do the same);
 * the record has room for them (LOG_SITE_ROOM and the buffers' room). */
static inline void rec_site_put(struct log_rec *rec,
                                const struct rec_site_enc *e)
{
    __builtin_memcpy(rec->p, e->bytes, sizeof e->bytes);
    rec->p += e->len;
}
size_t rec_site_room(const struct rec_obj *o);
void rec_site_put_object(struct log_rec *rec, struct rec_obj *o);
/* The program's return address of a site met for the first time (its
 * record is the site's probe, REC_PROBE), set by rec__site; 0 otherwise.
 * rec_site_frame: the CFA of the program's frame that returns to RA
 * (unwinding, once per site), 0 when not found. */
extern uintptr_t rec_site_probe __attribute__((visibility("hidden")));
uintptr_t rec_site_frame(uintptr_t ra);
/* Appends the address of a buffer of N x TYPE at BUF (N < 0: its extent
 * is not known; log_put_bufaddr). A builtin type's extent is in its
 * handle; another's costs two PMPI calls. */
void rec__put_bufaddr(struct log_rec *rec, const void *buf, int64_t n,
                      MPI_Datatype type);
static inline __attribute__((always_inline)) void
rec_put_bufaddr(struct log_rec *rec, const void *buf, int64_t n,
                MPI_Datatype type)
{
    int64_t size = log_mpi_type_size((uint32_t)type);
    if (__builtin_expect(size == 0 || n < 0, 0)) {
        rec__put_bufaddr(rec, buf, n, type);
        return;
    }
    uint64_t addr = (uintptr_t)buf, span1 = (uint64_t)(n * size) + 1;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* The common case, log_put_bufaddr's 8 bytes in one store: the
     * address's 6, the lower bound 0 (its zigzag varint: a zero byte, the
     * address's 7th), 1 + the span under 128 (a one-byte varint). */
    if (__builtin_expect(addr < LOG_BUFADDR_ESC && span1 < 0x80, 1)) {
        uint64_t w = addr | span1 << 56;
        __builtin_memcpy(rec->p, &w, 8);
        rec->p += 8;
        return;
    }
#endif
    log_put_bufaddr(rec, addr, 0, 1, span1 - 1);
}
/*
 * Pending requests (rec-pending.c): a call that returns a new request
 * counts it (rec_pending_add, the generated code); a completion that frees
 * it (rec_pending_done with the handle before and after the call, the
 * Wait and Test families) or MPI_Request_free (rec_pending_free, before
 * the PMPI call) ends it. rec_pending_any: whether one may be pending,
 * so that a blocking call logs its buffers (LOG_REC_BUFS); never 0 while
 * one is. Under the recorder's lock but rec_pending_any.
 */
extern int rec_pending_n;
static inline int rec_pending_any(void)
{
    return __atomic_load_n(&rec_pending_n, __ATOMIC_RELAXED) != 0;
}
static inline void rec_pending_add(MPI_Request req)
{
    if (req != MPI_REQUEST_NULL)
        __atomic_store_n(&rec_pending_n, rec_pending_n + 1,
                         __ATOMIC_RELAXED);
}
void rec__pending_end(void);
static inline void rec_pending_done(MPI_Request before, MPI_Request after)
{
    if (before != MPI_REQUEST_NULL && after == MPI_REQUEST_NULL)
        rec__pending_end();
}
void rec_pending_free(MPI_Request req);
/* A one-sided operation on WIN succeeded / a synchronization ended WIN's
 * epochs (rec-pending.c): WIN counts as a pending request between. */
void rec_rma_opened(MPI_Win win);
void rec_rma_closed(MPI_Win win);
#define REC_CB_ENTRY (1u << 30)
/* The entry of a program callback MPI runs (rec-cb.c), at rec_cb_depth:
 * FN is the constructor that registered it (log-codec.h, log_put_cb).
 * rec_cb_begin starts one with ROOM more bytes, for FN's by-value
 * arguments, the log_put_cb field and fields of its own (0: not logging);
 * the caller ends it with rec_end. */
void rec_cb_entry(int fn, const struct log_cb *cb);
int rec_cb_begin(struct log_rec *rec, int fn, size_t room);
/* Bit D: the call this thread is making at callback depth D ran program
 * callbacks (their entries are logged) and is not logged yet. Such a call
 * is never held back as a poll (rec-poll.c): the replay runs the
 * callbacks at the end of its own call, which a repeat record would hide. */
extern __thread uint64_t rec_cb_ran_mask
    __attribute__((tls_model("initial-exec")));
static inline int rec_cb_ran(void)
{
    return (int)(rec_cb_ran_mask >> (rec_cb_depth & 63) & 1);
}

/*
 * Shared-memory windows (rec-shm.c). REC_SYNC (not a record flag: rec_begin
 * takes it off) marks a call that synchronizes although its kind does not
 * say so: the RMA synchronization calls, window creation and freeing.
 * rec_shm_n counts the segments (0: nothing to compare, the per-call
 * cost is this test); rec_shm_syncs says whether a call of FN's kind
 * communicates; rec_shm_room and rec_shm_put size and append one WINDIFF
 * per changed segment (the shadow becomes the logged bytes);
 * rec_shm_changed tells whether any segment differs from its shadow;
 * rec_shm_drop forgets the segment of a freed window (its memory is gone):
 * 1 with the segment's span in *BASE and *SIZE, 0 when WIN had none.
 */
#define REC_SYNC (1u << 31)
extern size_t rec_shm_n;
int rec_shm_syncs(int fn);
size_t rec_shm_room(void);
void rec_shm_put(struct log_rec *rec);
int rec_shm_changed(void);
int rec_shm_drop(MPI_Win win, char **base, size_t *size);
/* The number of the next RMA window region (rec-rma.c): a shared segment is
 * one. */
uint64_t rec_rma_region_id(void);
/* MPI_Free_mem of BASE: 1 when MPI_Alloc_mem gave it from the recorder's
 * arena (rec-mem.c; now freed), else 0. */
int rec_arena_free(void *base);

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

/* The counts or datatypes array V of N elements of argument ARGNO (a v-
 * or w-collective's: log/mpispec.py count_arrays) as an ARRAY field, each
 * element as a by-value argument of encoding ENC (LOG_ENC_INT: int,
 * LOG_ENC_AINT: MPI_Count, LOG_ENC_HANDLE: MPI_Datatype, LOG_ENC_PTR: a
 * uint64_t, MPI_File_close's file handle). Room: at most
 * rec_array_room(N, ENC) bytes. */
static inline size_t rec_array_room(int64_t n, int enc)
{
    return n > 0 ? LOG_FIELD_HEAD + (size_t)n * (enc == LOG_ENC_AINT ||
                   enc == LOG_ENC_PTR ? LOG_ARG_ROOM64 : LOG_ARG_ROOM32) : 0;
}
static inline int64_t rec__array_elem(const void *v, int64_t i, int enc)
{
    if (enc == LOG_ENC_AINT || enc == LOG_ENC_PTR)
        return ((const int64_t *)v)[i];
    if (enc == LOG_ENC_HANDLE)
        return (int64_t)((const uint32_t *)v)[i];
    return ((const int *)v)[i];
}
static inline void rec_put_array(struct log_rec *rec, unsigned argno,
                                 const void *v, int64_t n, int enc)
{
    if (n <= 0 || !v)
        return;
    /* Written after a header of the largest length, then moved back:
     * one pass over the array. */
    uint8_t *head = rec->p;
    rec->p += LOG_FIELD_HEAD;
    uint8_t *body = rec->p;
    for (int64_t i = 0; i < n; i++)
        log_put_arg(rec, enc, rec__array_elem(v, i, enc));
    size_t len = (size_t)(rec->p - body);
    struct log_rec h = {head, head};
    log_put_field(&h, LOG_ARG_NONE, LOG_F_ARRAY, argno, len);
    __builtin_memmove(h.p, body, len);
    rec->p = h.p + len;
}

/*
 * Polling loops (rec-poll.c): an unsuccessful poll (MPI_Test, Testany,
 * Testsome, Testall, Iprobe, Improbe, Request_get_status, Win_test: one
 * that returned MPI_SUCCESS and found nothing) and a timer call
 * (MPI_Wtime, MPI_Wtick) are held back, and a run of them repeating a
 * cycle of up to LOG_CYCLE_MAX calls is logged as one record with its
 * repeat count (LOG_REC_REPEAT, LOG_REC_CYCLE). IMG holds the record's
 * argument block and fields, as the call's own record would; a timer's
 * value is V. rec_begin() logs what is held back first. Under
 * MPI_THREAD_MULTIPLE what is held back is one thread's, and another
 * thread's poll logs it first too (rec-poll.c).
 */
void rec_poll(int fn, const void *img, size_t len, uint64_t t0, uint64_t t1);
void rec_poll_value(int fn, double v, uint64_t t0, uint64_t t1);
extern int rec_poll_pending; /* calls are held back */
void rec_poll_flush(void);
/*
 * The call in progress (rec-call.c; log-format.h: LOG_CALL_FILE): on
 * entering a call that can block, the generated wrapper says what it waits
 * for (rec_call_enter; the Wait family its requests: rec_call_requests),
 * and clears it as soon as the call returns (rec_call_leave), before the
 * call is logged: a rank killed while blocked leaves the call in its slot.
 * A few stores into a page of the run directory, no system call. Under
 * MPI_THREAD_MULTIPLE, several threads may block at once: the slot then
 * says "not kept" (LOG_CALL_THREADS).
 */
extern struct log_call_slot *rec_call_slot /* NULL: no slot */
    __attribute__((visibility("hidden")));
/* From open_log: creates the slot of RANK in run directory DFD, and
 * catches the crash signals (not ignored) to note which one ended the
 * rank, then hands each to the action it replaced (log-format.h:
 * log_call_slot.signal). */
void rec_call_open(int dfd, int rank);
static inline void rec_call_enter(uint32_t fn, int32_t peer, int32_t tag,
                                  int32_t peer2, int32_t tag2, MPI_Comm comm)
{
    struct log_call_slot *s = rec_call_slot;
    if (!s)
        return;
    if (__builtin_expect(rec_mt, 0)) {
        s->fn = LOG_CALL_THREADS;
        return;
    }
    s->peer = peer;
    s->tag = tag;
    s->peer2 = peer2;
    s->tag2 = tag2;
    s->comm = (uint32_t)comm;
    s->nreq = 0;
    __atomic_store_n(&s->fn, fn, __ATOMIC_RELEASE);
}
void rec_call_requests(uint32_t fn, int n, const MPI_Request *reqs);
static inline void rec_call_leave(void)
{
    struct log_call_slot *s = rec_call_slot;
    if (s && !__builtin_expect(rec_mt, 0))
        __atomic_store_n(&s->fn, 0, __ATOMIC_RELEASE);
}

/*
 * The call in flight (rec-call.c): each wrapper keeps, in this thread's
 * rec_fly, the function it is in, where the program called it from, when,
 * and its by-value arguments and buffer addresses (each at its argument's
 * position), a few stores on entry, and clears fn as the call returns. A
 * rank MPI ends inside a call (an error MPI_ERRORS_ARE_FATAL makes fatal:
 * MPICH's PMI_Abort asks the launcher to kill the job) then logs that call
 * as its last record (LOG_REC_DIED), which `drdb check` validates. Not kept
 * for MPI_Abort (ending the job is what it is for).
 */
#define REC_FLY_ARGS 16
struct rec_fly {
    uint32_t fn;      /* 0: no call in flight */
    const void *ra;   /* the wrapper's return address */
    uint64_t t0;
    uint64_t a[REC_FLY_ARGS];
};
extern __thread struct rec_fly rec_fly
    __attribute__((tls_model("initial-exec")));
/* Logs the call in flight as the rank's last record (generated:
 * gen-recorder.py): CODE is the error MPI aborted with (0 not known). */
void rec_fly_died(const struct rec_fly *f, int code);
/* The call in flight, if any, logged as above (once). */
void rec_fly_end(int code);

/* A record with no return code (rec-poll.c's): starts it with ROOM bytes
 * after the header, or 0 when logging has stopped. Nothing is flushed. */
int rec_begin_raw(struct log_rec *rec, int fn, unsigned flags, uint64_t t0,
                  uint64_t dur, size_t room);
void rec_end_raw(struct log_rec *rec);
/* N bytes from SRC into the record (log_writer_put_big). */
void rec_put_big(struct log_rec *rec, const void *src, size_t n);

/* Peers of a collective on COMM: the remote group of an intercommunicator.
 * rec_comm_size: COMM's own (local) group. */
int rec_peers(MPI_Comm comm);
int rec_comm_size(MPI_Comm comm);
/*
 * A neighbourhood collective's topology at this process, logged in its
 * record (LOG_F_NEIGHBORS) for drdb check and sizing its buffers: KIND
 * (enum log_topo; 0: none, or not logged), the degrees (sources IN and
 * destinations OUT: Cartesian 2 * ndims, the MPI_PROC_NULL ones included;
 * graph MPI_Graph_neighbors_count; distributed graph
 * MPI_Dist_graph_neighbors_count; 0 without a topology), a Cartesian
 * topology's dimensions.
 * rec_topo_get asks MPI for them when OK (the call succeeded: COMM is
 * valid); rec_topo_room is the room rec_put_topo needs, which writes the
 * field, asking MPI for the neighbours into that room (no allocation).
 */
struct rec_topo {
    int kind, in, out, ndims;
};
void rec_topo_get(struct rec_topo *t, MPI_Comm comm, int ok);
size_t rec_topo_room(const struct rec_topo *t);
void rec_put_topo(struct log_rec *rec, MPI_Comm comm,
                  const struct rec_topo *t);
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
/* A session S starts (UP) or ends: in the Sessions model, members are
 * numbered in its process set "mpi://WORLD" (rec-data.c). */
void rec_session_world(MPI_Session s, int up);
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
 * handle is replaced; B->where the program's request variable). The short
 * forms are what the generated wrappers call, with that variable.
 */
void rec_req_add(const struct log_buf *b);
void rec_req_recv(MPI_Request *request, int fn, void *buf, int64_t n,
                  MPI_Datatype type, int persistent);
void rec_req_coll(MPI_Request *request, int fn, void *buf, int64_t n,
                  MPI_Datatype type, int persistent);
void rec_req_vcoll(MPI_Request *request, int fn, void *buf, int peers,
                   const void *counts, size_t csize, const void *displs,
                   size_t dsize, MPI_Datatype type, int persistent);
/* A partitioned receive's (MPI_Precv_init): PARTITIONS of COUNT elements,
 * persistent; MPI_Parrived logs each partition when it arrived. */
void rec_req_parts(MPI_Request *request, int fn, void *buf, int partitions,
                   MPI_Count count, MPI_Datatype type);
/* The buffer registered under REQ, completed through the program's
 * variable at WHERE (NULL: not known), or NULL; SKIP[0..NSKIP): entries'
 * keys already picked by the call (log/buf.h: MPICH's builtin requests). */
struct log_buf *rec_req_pick(MPI_Request req, const MPI_Request *where,
                             const uint32_t *skip, unsigned nskip);
static inline struct log_buf *rec_req_find(MPI_Request req,
                                           const MPI_Request *where)
{
    return rec_req_pick(req, where, NULL, 0);
}
/* Forgets B (from rec_req_find) unless it is persistent (FORCE: in any
 * case). */
void rec_req_done(struct log_buf *b, int force);

/* Split collectives: MPI_File_read_*_begin keeps its buffer with the file
 * handle, the _end call takes it back (NULL: none) and logs what its
 * status says arrived. */
void rec_split_begin(MPI_File fh, void *buf, int64_t n, MPI_Datatype type);
struct log_buf *rec_split_end(MPI_File fh);

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
    void *caller; /* the wrapper's return address: who called MPI */
};

/* The program's input files (rec-files.c): rec_files_rank() says which
 * rank this process is (RECORDED: whether its log is written): the index
 * of its captured inputs opens. */
void rec_files_rank(int rank, int recorded);
/* Reads of /dev/urandom and /dev/random (rec-devrandom.c): whether PATH
 * names one; a descriptor the program opened (PATH) is marked when it
 * does, so its reads are logged in the libc stream. */
int rec_devrandom_is(const char *path);
void rec_devrandom_opened(const char *path, int fd);

/* ---- failures (rec.c) --------------------------------------------------- */

/*
 * The recorder's one way to say what went wrong, as the stub's rpl_fail:
 * one line on standard error, "drdb-record: " then "warning: " (rec_warn),
 * the rank once it is known ("rank 1: "), the MPI call FN and its event
 * when given (rec_fail: "event 12 (MPI_Win_create): ", the number its
 * record would take, calls held back as polls aside), then the message:
 * what happened and what to do. One write(2): no stdio, no allocation,
 * no lock, so any thread may report at any time, with the heap
 * exhausted or the program's streams in any state. FMT takes %s %d %u
 * %zu %llu alone.
 * rec_warn: what the recording goes on after (the message says what is
 * lost: a rank's log, a captured file). rec_fail: what it cannot go on
 * after (an allocation the logging needs); the process aborts
 * (drdb-record.h: how a recorded process ends).
 */
void rec_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
_Noreturn void rec_fail(int fn, const char *fmt, ...)
    __attribute__((format(printf, 2, 3), cold));
/* How rec_fail's messages about memory end: what to do. */
#define REC_NO_MEMORY "; give the processes more memory"
/* ERR's description (strerror's in the C locale; async-signal-safe). */
const char *rec_strerror(int err);

/*
 * Life cycle (rec.c). The log opens at the rank's first MPI call, before
 * MPI_Init or without it (calls MPI permits before MPI_Init, the Sessions
 * model), when the process manager's environment names the rank
 * (rec_start: the header says LOG_HDR_EARLY); else right after PMPI_Init
 * (rec_open). It closes at exit, after MPI_Finalize (rec_finalized: the
 * log is complete from there, and logs the calls MPI-4 permits after it:
 * LOG_HDR_POST) or when the program initialized MPI only through sessions
 * and finalized them all (rec_world: between MPI_Init and MPI_Finalize;
 * rec_sessions: +1 at a session's start, -1 at its end).
 */
extern int rec_tried; /* rec_start ran */
int rec_start(void);
/* Whether this call is logged: the hot path reads rec_on alone. */
static inline int rec_live(void)
{
    return rec_on || (!rec_tried && rec_start());
}
void rec_open(void);
void rec_close(void);
void rec_world(int up);
void rec_finalized(void);
void rec_sessions(int delta);

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

/* Whether a call from RA is MPI's own, not the program's: made while the
 * thread is inside an MPI call (rec_busy: MPICH reads the clock and the
 * pid there; the program's callbacks that MPI runs clear it: rec-cb.c),
 * or from a library of MPI's (before MPI_Init, in its
 * constructors and threads). */
static inline int rec_sys_from_mpi(const void *ra)
{
    return rec_busy || log_sys_caller_is_mpi(ra);
}
/* The calling thread's stream, once it is open (NULL: not open, or not
 * recording), and its last call site found to be the program's: one
 * thread-local block (rec-sys.c). */
struct rec_sys_thread {
    struct log_sys_writer *w;
    const void *last_ra;
};
extern __thread struct rec_sys_thread rec_sys_t
    __attribute__((tls_model("initial-exec")));
/* Whether to log a call made from RA: cheap when recording is off, and
 * for a call site the thread called from last time. */
static inline int rec_sys_wanted(const void *ra)
{
    if (__builtin_expect(rec_sys_state == REC_SYS_OFF, 0) || rec_busy)
        return 0;
    if (__builtin_expect(ra == rec_sys_t.last_ra, 1))
        return 1;
    if (log_sys_caller_is_mpi(ra))
        return 0;
    rec_sys_t.last_ra = ra;
    return 1;
}
void rec_sys_put_slow(int kind, int64_t ret, int err, int64_t arg,
                      const void *data, size_t len);
/* Inline, so that a fixed-size result (a timespec) is copied as such: the
 * hot path is a few stores (log-sys-writer.h), no lock, no checksum. A
 * thread's stream is set only while recording is on. */
static inline void rec_sys_put(int kind, int64_t ret, int err, int64_t arg,
                               const void *data, size_t len)
{
    struct log_sys_writer *w = rec_sys_t.w;
    if (__builtin_expect(w && !err && len <= 64 && log_sys_fits(w, 22 + len),
                         1)) {
        uint8_t *p = log_sys_here(w);
        log_sys_done(w, p, log_sys_body(p + 1, kind, ret, arg, data, len));
        return;
    }
    rec_sys_put_slow(kind, ret, err, arg, data, len);
}
/* rec_sys_put for a successful clock_gettime of clock ID
 * (log_sys_clock_logged) that gave TS. */
static inline void rec_sys_put_clock(int id, const struct timespec *ts)
{
    struct log_sys_writer *w = rec_sys_t.w;
    if (__builtin_expect(w && log_sys_fits(w, 25), 1)) {
        uint8_t *p = log_sys_here(w);
        int64_t sec = ts->tv_sec, nsec = ts->tv_nsec;
        /* Two 8-byte loads, as the vDSO just stored them: a 16-byte load
         * (what the compiler would do) waits for both stores to retire. */
        __asm__("" : "+r"(sec), "+r"(nsec));
        log_sys_done(w, p, log_sys_clock_body(w, p + 1, id, sec, nsec));
        return;
    }
    rec_sys_put_slow(LOG_SYS_CLOCK_GETTIME, 0, 0, id, ts, sizeof *ts);
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
