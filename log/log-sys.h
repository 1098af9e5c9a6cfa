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
 * fields and checksum) with magic LOG_SYS_MAGIC and version
 * LOG_SYS_VERSION (the stream's own: version 4 was drdb's first layout,
 * a log record per call; a reader refuses it, and newer ones, by name),
 * written by log_sys_writer (log-sys-writer.h: mode 0600,
 * O_EXCL|O_NOFOLLOW, a shared mapping, zeros after the last record),
 * then records:
 *
 *   u8 n                  the bytes that follow (1 to 254; LOG_SYS_LARGE:
 *                         a u32 count of them follows); stored last, so
 *                         0 is the end (the zeros the writer reached)
 *   [u32 len]             when n is LOG_SYS_LARGE
 *   [zigzag varint errno] when the kind has LOG_SYS_FAILED (the call
 *                         failed)
 *   zigzag varint ret     the call's return value
 *   zigzag varint arg     an input the replay checks (a clock id, a
 *                         length asked for; 0 when none)
 *   bytes                 what the call wrote (random bytes, a name, a
 *                         struct timeval; clock_gettime's timespec: two
 *                         zigzag varints, the seconds and nanoseconds
 *                         minus those of the previous record of the same
 *                         clock in the stream, 0 and 0 before the first)
 *   u8 kind               last (never 0): enum log_sys_kind, with
 *                         LOG_SYS_FAILED
 *
 * and two framing records: LOG_SYS_SEAL (n 5: a u32, the CRC-32C of the
 * records since the previous SEAL or the header, then the kind), written
 * after every LOG_SYS_BLOCK bytes of records, after a large record and at
 * the stream's end; LOG_SYS_TRUNC (n, zigzag varint errno, kind: the disk
 * was full, recording stopped). A complete stream ends in a SEAL. Records
 * after the last SEAL (a process killed mid-run) are read unverified but
 * whole: a record's length is stored after its bytes.
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

#define LOG_SYS_VERSION 5 /* 4: a log record per call (before 2026-11) */

enum {
    LOG_SYS_LARGE = 255,  /* n: a u32 length follows */
    LOG_SYS_FAILED = 0x80, /* in the kind byte: errno comes first */
    LOG_SYS_SEAL = 126,   /* kind: the CRC of the block before */
    LOG_SYS_TRUNC = 127,  /* kind: recording stopped (errno) */
    LOG_SYS_BLOCK = 1024, /* bytes of records between two SEALs, about */
};
/* log_sys_rec's flags: the call failed, err holds its errno. */
#define LOG_SYS_ERRNO 1u

/*
 * The kinds of record: X(ID, NAME, NUMBER). NUMBER is on disk: never
 * reuse one. 1-31: time, identity and randomness (helper E); 32-63: files
 * (helper F); 64-125: free (126 and 127 frame the stream).
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
static inline int log_sys_clock_logged(int64_t id)
{
    return id == 0 || id == 1 || (id >= 4 && id <= 7) || id == 11;
}
#define LOG_SYS_CLOCKS 12 /* the logged clocks' ids are below */

/* ---- reading (sys-reader.c, with the log reader) ----------------------- */

struct log_sys_rec {
    int kind;
    unsigned flags;
    int err;        /* errno when LOG_SYS_ERRNO, else 0 */
    int64_t ret, arg;
    const uint8_t *data; /* into the mapping, or TIME */
    size_t len;
    int64_t time[2]; /* clock_gettime's struct timespec (data) */
};

/* Where a reader is in a stream: the next record, and what the records
 * before it set (each clock's last time). */
struct log_sys_cursor {
    size_t off;
    int64_t clk[LOG_SYS_CLOCKS][2];
};

struct log_sys {
    int fd;
    const uint8_t *map;
    size_t size;
    struct log_file_header hdr;
    size_t end_off;   /* the end of the last readable record */
    uint64_t nrecs;   /* readable records (the calls') */
    uint64_t unsealed; /* of them, after the last SEAL: not verified */
    /* Why reading stops before the end of the file ("" when it does not):
     * "incomplete: ..." (the process stopped before its end: zeros),
     * "corrupt: ..." (a damaged record), "truncated: ..." (disk full). */
    char stop_reason[160];
};

/* Opens PATH and finds its readable records: those of the blocks whose
 * SEAL matches, then those after the last SEAL up to a clean end (zeros,
 * the end of the file) or up to a record cut by the file's end. A block
 * that does not match its SEAL, a malformed record, or a complete stream
 * not ending in a SEAL stop the reading at the block's start ("corrupt").
 * 0, or -errno with a message in ERR (-EINVAL: not a libc stream;
 * -EBADMSG: a damaged header; -EPROTO: a layout of another drdb). */
int log_sys_open(struct log_sys *s, const char *path, char *err,
                 size_t errlen);
void log_sys_release(struct log_sys *s);
/* A cursor at the stream's first record. */
void log_sys_start(struct log_sys_cursor *c);
/* The record at C, decoded into R (valid until the next call), and C
 * moved past it: 1, or 0 after the last readable one. */
int log_sys_next(const struct log_sys *s, struct log_sys_cursor *c,
                 struct log_sys_rec *r);

#endif
