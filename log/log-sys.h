/*
 * log-sys.h - the libc side stream (docs/log-format.md, "rank-R.sys"):
 * the results of a rank's calls outside MPI that differ from run to run
 * (time, clocks, pid, random bytes, host name; file reads), so that the
 * replay returns what the recorded run saw.
 *
 * Why a stream of its own, beside rank-R.log: MPI events keep their
 * numbers (the console's event list, `drdb log`, the events/ index and
 * every "event N" a user has seen stay as they were), a libc call costs
 * one small append and no MPI bookkeeping, and calls made before MPI_Init
 * and after MPI_Finalize (the log is not open yet, or closed) have a
 * place.
 *
 * The file: the log's 256-byte header (struct log_file_header, the same
 * fields and checksum) with magic LOG_SYS_MAGIC, then records in the log's
 * framing (written by log_writer: mode 0600, O_EXCL|O_NOFOLLOW, the size
 * stored last, zeros after the last record; a TRUNC record when the disk is
 * full):
 *
 *   u32 size, u32 crc, u16 kind (enum log_sys_kind), u16 flags,
 *   varint 0, varint 0           (the log's dt and dur: unused)
 *   [zigzag varint errno]        when LOG_SYS_ERRNO (the call failed)
 *   zigzag varint ret            the call's return value
 *   zigzag varint arg            an input the replay checks (a clock id, a
 *                                length asked for; 0 when none)
 *   bytes, to the end            what the call wrote (a struct timespec,
 *                                random bytes, a name)
 *
 * One stream per thread, named after the thread's deterministic number
 * (util/thread.h, the same in the recording and the replay whatever order
 * threads start in): the main thread's is rank-R.sys, thread T's
 * rank-R.sys.T with T as log_thread_name() shows it ("rank-0.sys.1",
 * "rank-0.sys.1.2"). Unnumbered threads (made without pthread_create)
 * have no such number: they are numbered u1, u2, ... in the order of their
 * first logged call ("rank-0.sys.u1"). Each thread's calls replay in its
 * own order (the order across threads is not kept: it needs no lock to
 * write).
 *
 * The rank's log header has LOG_HDR_SYS when the stream was written:
 * without it the replay runs these calls live (--no-libc, older runs).
 */
#ifndef DRDB_LOG_SYS_H
#define DRDB_LOG_SYS_H

#include <stddef.h>
#include <stdint.h>

#include "log-format.h"

#define LOG_SYS_MAGIC "DRDBSYS" /* 8 bytes with the NUL */

/* Record flags (bits 0 to 3 keep the log's meanings: LOG_REC_TRUNC with
 * kind 0 is the writer's TRUNC record, its errno as LOG_REC_RET's ret). */
enum {
    LOG_SYS_ERRNO = 1u << 5, /* the call failed: errno follows */
    LOG_SYS_KNOWN = LOG_REC_RET | LOG_REC_TRUNC | LOG_SYS_ERRNO,
};

/*
 * The kinds of record: X(ID, NAME, NUMBER). NUMBER is on disk: never
 * reuse one. 1-31: time, identity and randomness (helper E); 32-63: files
 * (helper F); 64-: free.
 */
#define LOG_SYS_KINDS(X)                                                    \
    X(LOG_SYS_LOST, "(libc results lost)", 1) /* pre-MPI_Init buffer full */ \
    X(LOG_SYS_TIME, "time", 2)                 /* ret: the time */          \
    X(LOG_SYS_GETTIMEOFDAY, "gettimeofday", 3) /* timeval [+ timezone] */   \
    X(LOG_SYS_CLOCK_GETTIME, "clock_gettime", 4) /* arg: clock; timespec */ \
    X(LOG_SYS_GETPID, "getpid", 5)                                          \
    X(LOG_SYS_GETPPID, "getppid", 6)                                        \
    X(LOG_SYS_GETRANDOM, "getrandom", 7)       /* arg: length; bytes */     \
    X(LOG_SYS_GETENTROPY, "getentropy", 8)     /* arg: length; bytes */     \
    X(LOG_SYS_GETHOSTNAME, "gethostname", 9)   /* arg: length; bytes */     \
    X(LOG_SYS_UNAME, "uname", 10)              /* struct utsname */         \
    X(LOG_SYS_TIMESPEC_GET, "timespec_get", 11) /* arg: base; timespec */   \
    X(LOG_SYS_ARC4RANDOM, "arc4random", 12)    /* ret: the number */        \
    X(LOG_SYS_ARC4RANDOM_BUF, "arc4random_buf", 13) /* arg: length; bytes */ \
    X(LOG_SYS_ARC4RANDOM_UNIFORM, "arc4random_uniform", 14) /* arg: bound */ \
    X(LOG_SYS_DEVRANDOM_READ, "read(/dev/urandom)", 32) /* arg: n; bytes */ \
    X(LOG_SYS_DEVRANDOM_FREAD, "fread(/dev/urandom)", 33) /* size*n; bytes */

enum log_sys_kind {
#define LOG_SYS_ENUM(id, name, num) id = num,
    LOG_SYS_KINDS(LOG_SYS_ENUM)
#undef LOG_SYS_ENUM
};

/* The call a kind stands for ("clock_gettime"), or NULL for an unknown
 * kind. */
const char *log_sys_kind_name(int kind);

/*
 * A stream's thread: THREAD, its number (util/thread.h; 0 the main
 * thread), or LOG_SYS_UNNUMBERED and then NTH, its place among the
 * unnumbered threads in the order of their first logged call (from 1).
 */
#define LOG_SYS_UNNUMBERED UINT64_MAX
/* The thread as streams name it: "0", "1", "1.2", "u1". */
void log_sys_thread_name(char *buf, size_t len, uint64_t thread,
                         uint32_t nth);
/* The inverse: 0, or -EINVAL when S names no thread. */
int log_sys_thread_parse(const char *s, uint64_t *thread, uint32_t *nth);
/* The stream of rank R's thread (THREAD, NTH) in run directory DIR
 * ("DIR/rank-R.sys" for the main thread, "DIR/rank-R.sys.T" for the
 * others, T its log_sys_thread_name), its name. */
void log_sys_path(char *buf, size_t len, const char *dir, int rank,
                  uint64_t thread, uint32_t nth);
void log_sys_name(char *buf, size_t len, int rank, uint64_t thread,
                  uint32_t nth);

/*
 * Whether the code at RA (a return address: the caller of an interposed
 * function) belongs to the MPI implementation or to drdb (MPICH and its
 * fabric libraries, UCX, hwloc, the recorder, the replay stub), whose
 * calls are not the program's: MPICH reads the clock in MPI_Init and
 * MPI_Wtime, the stub is not MPICH. The recorder and the stub apply the
 * same rule, so the stream holds the program's calls alone. Decided once
 * per call site (dladdr on the object's file name), then cached: a few
 * ns. Thread-safe.
 */
static inline int log_sys_caller_is_mpi(const void *ra);
/* The cache of call sites and the slow path (sys.c). */
#define LOG_SYS_SITES 1024
extern uint64_t log_sys__sites[LOG_SYS_SITES];
int log_sys__classify(const void *ra, size_t slot);
static inline int log_sys_caller_is_mpi(const void *ra)
{
    uint64_t a = (uint64_t)(uintptr_t)ra;
    size_t h = (size_t)((a ^ (a >> 10)) & (LOG_SYS_SITES - 1));
    uint64_t e = __atomic_load_n(&log_sys__sites[h], __ATOMIC_RELAXED);
    if (__builtin_expect(e >> 1 == a, 1))
        return (int)(e & 1);
    return log_sys__classify(ra, h);
}

/* Whether clock_gettime's clock ID is logged: the wall and monotonic
 * clocks (REALTIME, MONOTONIC, their _COARSE and _RAW variants, BOOTTIME,
 * TAI: ids 0, 1, 4, 5, 6, 7, 11). CPU-time clocks (PROCESS_CPUTIME_ID,
 * THREAD_CPUTIME_ID, another process's) and the rest are not: the replay
 * reads them live. */
static inline int log_sys_clock_logged(int id)
{
    return id == 0 || id == 1 || (id >= 4 && id <= 7) || id == 11;
}

/* ---- reading (sys-reader.c, with the log reader) ----------------------- */

struct log_sys_rec {
    int kind;
    unsigned flags;
    int err;        /* errno when LOG_SYS_ERRNO, else 0 */
    int64_t ret, arg;
    const uint8_t *data; /* into the mapping */
    size_t len;
};

struct log_sys {
    int fd;
    const uint8_t *map;
    size_t size;
    struct log_file_header hdr;
    size_t end_off;   /* the end of the last readable record */
    uint64_t nrecs;   /* readable records */
    /* Why reading stops before the end of the file ("" when it does not):
     * "incomplete: ..." (the process stopped before its end: zeros),
     * "corrupt: ..." (a damaged record), "truncated: ..." (disk full). */
    char stop_reason[160];
};

/* Opens PATH and finds its readable records. 0, or -errno with a message
 * in ERR (-EINVAL: not a libc stream; -EBADMSG: a damaged header). */
int log_sys_open(struct log_sys *s, const char *path, char *err,
                 size_t errlen);
void log_sys_release(struct log_sys *s);
/* The record at *OFF (LOG_HEADER_SIZE for the first), decoded into R, and
 * *OFF moved past it: 1, or 0 after the last readable one. */
int log_sys_next(const struct log_sys *s, size_t *off, struct log_sys_rec *r);

#endif
