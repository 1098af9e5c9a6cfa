/*
 * The libc side streams of the recorder (rec.h, log/log-sys.h): the
 * results of the program's calls outside MPI, one stream per thread,
 * named after the thread's deterministic number (util/thread.h:
 * rank-R.sys for the main thread, rank-R.sys.T for thread T), so that a
 * call appends with no lock and the replay finds each thread's stream
 * whatever order threads start in: the replay needs each thread's order,
 * not the order across threads.
 *
 * Before MPI_Init the rank is not known and nothing can be created yet:
 * records wait in memory (at most REC_SYS_EARLY_MAX bytes, under a lock)
 * and are written first when the log opens. After MPI_Finalize the
 * streams stay open to the process's end: a thread's stream is sealed and
 * marked complete when the thread ends (a key's destructor) or, for the
 * thread that exits the process, by a destructor; calls made later (other
 * libraries' destructors) are still appended, each sealed.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log-sys-writer.h"
#include "rec.h"
#include "util.h"
#include "thread.h"

int rec_sys_state = REC_SYS_UNSET;

/* Everything but a thread's own appends: the early buffer, opening,
 * the table of streams. */
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

/* A thread's stream (log_sys_name): its number, and for an unnumbered
 * thread its place among them (from 1, by first logged call). */
struct tkey {
    uint64_t num;
    uint32_t nth;
};
static uint32_t nunnumbered;
static __thread struct tkey tkey __attribute__((tls_model("initial-exec")));
static __thread int tkeyed __attribute__((tls_model("initial-exec")));
__thread struct rec_sys_thread rec_sys_t
    __attribute__((tls_model("initial-exec")));
#define tw rec_sys_t.w
/* Each stream's writer (NULL: creation failed), found by key on a
 * thread's first call only. */
static struct stream {
    struct tkey key;
    struct log_sys_writer *w;
} *streams;
static size_t nstreams, streams_cap;
static char run_dir[4096];
static struct log_file_header sys_hdr;

/* ---- before the log opens ------------------------------------------------ */

#define REC_SYS_EARLY_MAX (1u << 20)
struct early {
    uint16_t kind;
    struct tkey thread;
    int32_t err;
    int64_t ret, arg;
    uint32_t len;
};
static uint8_t *early;
static size_t early_len, early_cap;
static int early_lost; /* the buffer was full: a LOST record goes first */

static void early_put(int kind, struct tkey thread, int64_t ret, int err,
                      int64_t arg, const void *data, size_t len)
{
    struct early e = {(uint16_t)kind, thread, err, ret, arg, (uint32_t)len};
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

/* A thread's stream ends when the thread does (its key's destructor):
 * sealed and complete. */
static pthread_key_t end_key;
static int end_key_made;

static void child_after_fork(void)
{
    /* The child shares the parent's mappings of the files: it must not
     * write into them. Its calls are not the rank's. */
    rec_sys_state = REC_SYS_OFF;
    tw = NULL;
    if (end_key_made) /* nor seal them when its thread ends */
        pthread_setspecific(end_key, NULL);
}

static void decide(void)
{
    const char *dir = getenv(DRDB_ENV_RUN_DIR);
    const char *off = getenv(DRDB_ENV_NO_LIBC);
    rec_sys_state = dir && *dir && !(off && *off) ? REC_SYS_EARLY
                                                  : REC_SYS_OFF;
    pthread_atfork(NULL, NULL, child_after_fork);
}

static void thread_end(void *w)
{
    log_sys_writer_end(w);
}

/* Thread T's writer, created if need be (MU held): NULL when it cannot
 * be. */
static struct log_sys_writer *writer_of(struct tkey t)
{
    char name[96];
    for (size_t i = 0; i < nstreams; i++)
        if (streams[i].key.num == t.num && streams[i].key.nth == t.nth)
            return streams[i].w;
    if (util_grow(&streams, &streams_cap, nstreams + 1, sizeof *streams) < 0)
        return NULL;
    struct log_sys_writer *w = calloc(1, sizeof *w);
    int dfd = util_dir_open(AT_FDCWD, run_dir, 1);
    log_sys_name(name, sizeof name, sys_hdr.rank, t.num, t.nth);
    int rc = !w ? -ENOMEM : dfd < 0 ? dfd
                          : log_sys_writer_openat(w, dfd, name, &sys_hdr);
    if (dfd >= 0)
        close(dfd);
    if (rc < 0) {
        free(w);
        rec_warn("cannot create '%s': %s; its libc results are not "
                 "recorded", name, rec_strerror(-rc));
        w = NULL; /* remembered: warned once */
    }
    streams[nstreams++] = (struct stream){t, w};
    return w;
}

static void append(struct log_sys_writer *w, int kind, int64_t ret, int err,
                   int64_t arg, const void *data, size_t len)
{
    if (w) /* else it could not be created (warned) */
        log_sys_append(w, kind, ret, err, arg, data, len);
}

void rec_sys_put_slow(int kind, int64_t ret, int err, int64_t arg,
                      const void *data, size_t len)
{
    int saved = errno;
    if (rec_sys_state == REC_SYS_ON && tw) {
        append(tw, kind, ret, err, arg, data, len);
        errno = saved;
        return;
    }
    /* Before MU: util_thread_self may call getpid (not logged: it is
     * drdb's call). */
    uint64_t num = tkeyed ? tkey.num : util_thread_self();
    pthread_mutex_lock(&mu);
    if (rec_sys_state == REC_SYS_UNSET)
        decide();
    if (rec_sys_state != REC_SYS_OFF && !tkeyed) {
        tkey.num = num;
        tkey.nth = num == UTIL_THREAD_NONE ? ++nunnumbered : 0;
        tkeyed = 1;
    }
    if (rec_sys_state == REC_SYS_EARLY)
        early_put(kind, tkey, ret, err, arg, data, len);
    if (rec_sys_state == REC_SYS_ON) {
        tw = writer_of(tkey);
        if (tw && end_key_made)
            pthread_setspecific(end_key, tw);
        append(tw, kind, ret, err, arg, data, len);
    }
    pthread_mutex_unlock(&mu);
    errno = saved;
}

int rec_sys_open(const char *dir, int rank,
                 const struct log_file_header *hdr)
{
    int on = 0;
    pthread_mutex_lock(&mu);
    if (rec_sys_state == REC_SYS_UNSET)
        decide();
    if (rec_sys_state == REC_SYS_EARLY &&
        strlen(dir) < sizeof run_dir) {
        snprintf(run_dir, sizeof run_dir, "%s", dir);
        memcpy(&sys_hdr, hdr, sizeof sys_hdr);
        memcpy(sys_hdr.magic, LOG_SYS_MAGIC, 8);
        sys_hdr.flags = 0;
        sys_hdr.rank = rank;
        rec_sys_state = REC_SYS_ON;
        end_key_made = pthread_key_create(&end_key, thread_end) == 0;
        /* The main thread's stream says whether the run has libc
         * results: it is made now, even if that thread never calls. */
        struct log_sys_writer *w1 = writer_of((struct tkey){0, 0});
        on = w1 != NULL;
        if (early_lost)
            append(w1, LOG_SYS_LOST, 0, 0, REC_SYS_EARLY_MAX, NULL, 0);
        for (size_t off = 0; off < early_len && !early_lost;) {
            struct early e;
            memcpy(&e, early + off, sizeof e);
            append(writer_of(e.thread), e.kind, e.ret, e.err, e.arg,
                   early + off + sizeof e, e.len);
            off += sizeof e + e.len;
        }
        if (!on)
            rec_sys_state = REC_SYS_OFF;
    } else {
        rec_sys_state = REC_SYS_OFF;
    }
    free(early);
    early = NULL;
    early_len = early_cap = 0;
    pthread_mutex_unlock(&mu);
    return on;
}

void rec_sys_drop(void)
{
    pthread_mutex_lock(&mu);
    rec_sys_state = REC_SYS_OFF;
    free(early);
    early = NULL;
    early_len = early_cap = 0;
    pthread_mutex_unlock(&mu);
}

/* At the process's end: the exiting thread's stream is whole (those of
 * threads that ended are already; those of threads still running are
 * left as a killed process's: readable to their last record, and not
 * complete: another thread cannot seal them without a lock). It stays
 * mapped, so calls made later still land, each sealed. */
__attribute__((destructor)) static void rec_sys_end(void)
{
    if (rec_sys_state == REC_SYS_ON && tw)
        log_sys_writer_end(tw);
}
