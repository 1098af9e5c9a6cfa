/*
 * The replay's libc side streams (rpl.h, log/log-sys.h): the recorded
 * results of the program's calls outside MPI, handed back thread by
 * thread (one stream each, found by the thread's deterministic number:
 * util/thread.h) in the order each thread made them. Opened at a thread's
 * first such call (before MPI_Init, often). The mirror of
 * recorder/rec-sys.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rpl.h"
#include "thread.h"

enum { SYS_UNSET, SYS_REPLAY, SYS_LIVE };
static int state = SYS_UNSET;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static char dir[PATH_MAX];
static int rank;

/* Each thread reads the stream of its number (util/thread.h), as the
 * recorder named it; unnumbered threads take theirs in the order of their
 * first call, as the recorder did (NULL: not opened yet). */
static uint32_t nunnumbered;
static __thread uint64_t tnum __attribute__((tls_model("initial-exec")));
static __thread uint32_t tnth __attribute__((tls_model("initial-exec")));
static __thread int tkeyed __attribute__((tls_model("initial-exec")));
static __thread struct log_sys *ts __attribute__((tls_model("initial-exec")));
static __thread struct log_sys_cursor tcur
    __attribute__((tls_model("initial-exec")));
static __thread uint64_t tcalls __attribute__((tls_model("initial-exec")));

static void child_after_fork(void)
{
    /* The recorder does not record a forked child: it runs live. */
    state = SYS_LIVE;
}

/* Whether the rank's log says the run recorded the streams (LOG_HDR_SYS). */
static int log_says_recorded(void)
{
    char path[PATH_MAX];
    struct log_file_header h;
    log_path(path, sizeof path, dir, rank);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    ssize_t n = fd >= 0 ? pread(fd, &h, sizeof h, 0) : -1;
    if (fd >= 0)
        close(fd);
    return n == (ssize_t)sizeof h && memcmp(h.magic, LOG_MAGIC, 8) == 0 &&
           (h.flags & LOG_HDR_SYS);
}

/* Opens the calling thread's stream (MU held): NULL when the recorded
 * thread made no logged call (no file). */
static struct log_sys *stream_open(void)
{
    char path[PATH_MAX], err[512];
    struct log_sys *s = calloc(1, sizeof *s);
    if (!s)
        rpl_fail(NULL, RPL_EXIT_SETUP, "out of memory for libc results");
    log_sys_path(path, sizeof path, dir, rank, tnum, tnth);
    int rc = log_sys_open(s, path, err, sizeof err);
    if (rc == -ENOENT && tnum != 0) {
        free(s);
        return NULL;
    }
    if (rc < 0)
        rpl_fail(NULL, RPL_EXIT_SETUP, "%s; the run recorded this rank's "
                 "libc results there, the replay cannot go on without "
                 "them", err);
    return s;
}

static void decide(void)
{
    char path[PATH_MAX];
    const char *d = getenv(DRDB_ENV_REPLAY_DIR);
    const char *r = getenv(DRDB_ENV_REPLAY_RANK);
    pthread_atfork(NULL, NULL, child_after_fork);
    state = SYS_LIVE;
    if (!d || !*d || !r || !*r || strlen(d) >= sizeof dir)
        return; /* not under drdb replay: the first MPI call says so */
    snprintf(dir, sizeof dir, "%s", d);
    rank = atoi(r);
    if (drdb_rank < 0)
        drdb_rank = rank; /* for messages before the log is open */
    log_sys_path(path, sizeof path, dir, rank, 0, 0);
    if (access(path, F_OK) == 0 || log_says_recorded())
        state = SYS_REPLAY; /* else --no-libc, or an older run */
}

/* The end of the thread's stream, met by a call of CALL. */
__attribute__((noreturn)) static void sys_end(const char *call)
{
    char th[64];
    log_sys_thread_name(th, sizeof th, tnum, tnth);
    if (ts && ts->stop_reason[0])
        rpl_fail(NULL, RPL_EXIT_LOG_END,
                 "the libc results end here (%s): the program calls %s(), "
                 "call %" PRIu64 " of thread %s; the recorded process "
                 "stopped before this", ts->stop_reason, call, tcalls + 1,
                 th);
    rpl_fail(NULL, RPL_EXIT_DIVERGED,
             "replay diverged: the program calls %s() (libc call %" PRIu64
             " of thread %s) but the recorded thread made no more calls "
             "of the time, pid, random or host name functions", call,
             tcalls + 1, th);
}

int rpl_sys_next(int kind, int64_t arg, struct log_sys_rec *r,
                 const char *call)
{
    if (__builtin_expect(!ts, 0)) {
        /* Before MU: util_thread_self may call getpid (the stub's: live). */
        uint64_t num = tkeyed ? tnum : util_thread_self();
        pthread_mutex_lock(&mu);
        if (state == SYS_UNSET)
            decide();
        if (state == SYS_REPLAY && !tkeyed) {
            tnum = num;
            tnth = num == UTIL_THREAD_NONE ? ++nunnumbered : 0;
            tkeyed = 1;
            ts = stream_open();
            log_sys_start(&tcur);
        }
        pthread_mutex_unlock(&mu);
        if (state != SYS_REPLAY)
            return 0;
        if (!ts)
            sys_end(call);
    }
    if (state != SYS_REPLAY)
        return 0;
    if (!log_sys_next(ts, &tcur, r))
        sys_end(call);
    tcalls++;
    if (r->kind == LOG_SYS_LOST)
        rpl_fail(NULL, RPL_EXIT_SETUP,
                 "the recorder dropped this rank's libc results before "
                 "MPI_Init (more than %" PRId64 " bytes of them): %s() "
                 "cannot be replayed", r->arg, call);
    if (r->kind != kind || r->arg != arg) {
        char th[64];
        log_sys_thread_name(th, sizeof th, tnum, tnth);
        rpl_fail(NULL, RPL_EXIT_DIVERGED,
                 "replay diverged: libc call %" PRIu64 " of thread %s: the "
                 "recorded run called %s(%" PRId64 "), the program called "
                 "%s(%" PRId64 ")", tcalls, th, log_sys_kind_name(r->kind),
                 r->arg, call, arg);
    }
    return 1;
}
