/*
 * The libc side stream of the recorder (rec.h, log/log-sys.h): the results
 * of the program's calls outside MPI, appended to rank-R.sys. Before
 * MPI_Init the rank is not known and nothing can be created yet: records
 * wait in memory (at most REC_SYS_EARLY_MAX bytes) and are written first
 * when the log opens. After MPI_Finalize the stream stays open to the
 * process's end: a destructor marks it complete, and calls made later
 * (other libraries' destructors) are still appended.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log-writer.h"
#include "rec.h"
#include "util.h"

int rec_sys_state = REC_SYS_UNSET;
static struct log_writer sysw;

/* One writer at a time: threads' records interleave whole. Uncontended,
 * one atomic exchange. */
static int lock_word;

static void lock(void)
{
    while (__atomic_exchange_n(&lock_word, 1, __ATOMIC_ACQUIRE))
        sched_yield();
}

static void unlock(void)
{
    __atomic_store_n(&lock_word, 0, __ATOMIC_RELEASE);
}

/* Thread numbers, in the order of each thread's first logged call. */
static uint32_t nthreads;
static __thread uint32_t tno __attribute__((tls_model("initial-exec")));

/* ---- before the log opens ------------------------------------------------ */

#define REC_SYS_EARLY_MAX (1u << 20)
struct early {
    uint16_t kind, flags;
    uint32_t thread;
    int32_t err;
    int64_t ret, arg;
    uint32_t len;
};
static uint8_t *early;
static size_t early_len, early_cap;
static int early_lost; /* the buffer was full: a LOST record goes first */

static void early_put(int kind, uint32_t thread, int64_t ret, int err,
                      int64_t arg, const void *data, size_t len)
{
    struct early e = {(uint16_t)kind, 0, thread, err, ret, arg,
                      (uint32_t)len};
    size_t need = early_len + sizeof e + len;
    if (early_lost)
        return;
    if (need > REC_SYS_EARLY_MAX ||
        util_grow(&early, &early_cap, need, 1) < 0) {
        early_lost = 1;
        return;
    }
    memcpy(early + early_len, &e, sizeof e);
    memcpy(early + early_len + sizeof e, data, len);
    early_len = need;
}

/* ---- writing ------------------------------------------------------------- */

static void child_after_fork(void)
{
    /* The child shares the parent's mapping of the file: it must not
     * write into it. Its calls are not the rank's. */
    rec_sys_state = REC_SYS_OFF;
    lock_word = 0;
}

static void decide(void)
{
    const char *dir = getenv("DRDB_RUN_DIR");
    const char *off = getenv(REC_SYS_ENV_OFF);
    rec_sys_state = dir && *dir && !(off && *off) ? REC_SYS_EARLY
                                                  : REC_SYS_OFF;
    pthread_atfork(NULL, NULL, child_after_fork);
}

static void append(int kind, uint32_t thread, int64_t ret, int err,
                   int64_t arg, const void *data, size_t len)
{
    struct log_rec rec;
    unsigned flags = (thread != 1 ? LOG_SYS_THREAD : 0) |
                     (err ? LOG_SYS_ERRNO : 0);
    if (!log_writer_begin(&sysw, &rec, len + 40, kind, flags, 0, 0)) {
        rec_sys_state = REC_SYS_OFF; /* the writer warned once */
        return;
    }
    if (thread != 1)
        log_put_varint(&rec, thread);
    if (err)
        log_put_arg_aint(&rec, err);
    log_put_arg_aint(&rec, ret);
    log_put_arg_aint(&rec, arg);
    log_put_bytes(&rec, data, len);
    log_writer_commit(&sysw, &rec);
}

void rec_sys_put(int kind, int64_t ret, int err, int64_t arg,
                 const void *data, size_t len)
{
    int saved = errno;
    if (rec_sys_state == REC_SYS_UNSET)
        decide();
    if (rec_sys_state == REC_SYS_OFF)
        return;
    if (!tno)
        tno = __atomic_add_fetch(&nthreads, 1, __ATOMIC_RELAXED);
    lock();
    if (rec_sys_state == REC_SYS_ON)
        append(kind, tno, ret, err, arg, data, len);
    else if (rec_sys_state == REC_SYS_EARLY)
        early_put(kind, tno, ret, err, arg, data, len);
    unlock();
    errno = saved;
}

int rec_sys_open(int dfd, int rank, const struct log_file_header *hdr)
{
    char name[64];
    struct log_file_header h;
    if (rec_sys_state == REC_SYS_UNSET)
        decide();
    if (rec_sys_state != REC_SYS_EARLY)
        return 0;
    memcpy(&h, hdr, sizeof h);
    memcpy(h.magic, LOG_SYS_MAGIC, 8);
    h.flags = 0;
    log_sys_name(name, sizeof name, rank);
    lock();
    int rc = log_writer_openat(&sysw, dfd, name, &h);
    if (rc == 0) {
        rec_sys_state = REC_SYS_ON;
        if (early_lost)
            append(LOG_SYS_LOST, 1, 0, 0, REC_SYS_EARLY_MAX, NULL, 0);
        for (size_t off = 0; off < early_len && !early_lost;) {
            struct early e;
            memcpy(&e, early + off, sizeof e);
            append(e.kind, e.thread, e.ret, e.err, e.arg,
                   early + off + sizeof e, e.len);
            off += sizeof e + e.len;
        }
    } else {
        rec_sys_state = REC_SYS_OFF;
    }
    free(early);
    early = NULL;
    early_len = early_cap = 0;
    unlock();
    if (rc < 0) {
        char msg[256];
        int n = snprintf(msg, sizeof msg, "drdb-record: warning: rank %d: "
                         "cannot create '%s': %s; its libc results are not "
                         "recorded\n", rank, name, strerror(-rc));
        if (write(2, msg, (size_t)n) < 0) {
            /* nothing else to do */
        }
    }
    return rc == 0;
}

void rec_sys_drop(void)
{
    lock();
    rec_sys_state = REC_SYS_OFF;
    free(early);
    early = NULL;
    early_len = early_cap = 0;
    unlock();
}

/* At the process's end: the stream is whole. It stays mapped, so calls
 * made later still land (a reader reads to the zeros). */
__attribute__((destructor)) static void rec_sys_end(void)
{
    lock();
    if (rec_sys_state == REC_SYS_ON)
        log_writer_set_flags(&sysw, LOG_HDR_COMPLETE);
    unlock();
}
