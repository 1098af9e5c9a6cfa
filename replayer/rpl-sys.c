/*
 * The replay's libc side stream (rpl.h, log/log-sys.h): the recorded
 * results of the program's calls outside MPI, handed back thread by
 * thread in the order each thread made them. Opened at the first such
 * call (before MPI_Init, often). The mirror of recorder/rec-sys.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rpl.h"

enum { SYS_UNSET, SYS_REPLAY, SYS_LIVE };
static int state = SYS_UNSET;
static struct log_sys sys;
static pthread_mutex_t open_lock = PTHREAD_MUTEX_INITIALIZER;

/* Threads numbered as the recorder numbered them: in the order of their
 * first call. Each reads the stream from its own position. */
static uint32_t nthreads;
static __thread uint32_t tno __attribute__((tls_model("initial-exec")));
static __thread size_t toff __attribute__((tls_model("initial-exec")));
static __thread uint64_t tcalls __attribute__((tls_model("initial-exec")));

static void child_after_fork(void)
{
    /* The recorder does not record a forked child: it runs live. */
    state = SYS_LIVE;
}

/* Whether the rank's log says the run recorded the stream (LOG_HDR_SYS). */
static int log_says_recorded(const char *dir, int rank)
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

static void sys_open(void)
{
    char path[PATH_MAX], err[512];
    const char *dir = getenv(DRDB_ENV_REPLAY_DIR);
    const char *rank = getenv(DRDB_ENV_REPLAY_RANK);
    pthread_atfork(NULL, NULL, child_after_fork);
    if (!dir || !*dir || !rank || !*rank) {
        /* Not under drdb replay: the first MPI call says so. */
        state = SYS_LIVE;
        return;
    }
    int r = atoi(rank);
    log_sys_path(path, sizeof path, dir, r);
    int rc = log_sys_open(&sys, path, err, sizeof err);
    if (rc == -ENOENT && !log_says_recorded(dir, r)) {
        state = SYS_LIVE; /* recorded with --no-libc, or an older run */
        return;
    }
    if (rc < 0)
        rpl_fail(NULL, RPL_EXIT_SETUP, "%s; the run recorded this rank's "
                 "libc results there, the replay cannot go on without "
                 "them", err);
    state = SYS_REPLAY;
}

/* The end of the stream, met by a call of CALL. */
__attribute__((noreturn)) static void sys_end(const char *call)
{
    if (sys.stop_reason[0])
        rpl_fail(NULL, RPL_EXIT_LOG_END,
                 "the libc results end here (%s): the program calls %s(), "
                 "call %" PRIu64 " of thread %u; the recorded process "
                 "stopped before this", sys.stop_reason, call, tcalls + 1,
                 tno);
    rpl_fail(NULL, RPL_EXIT_DIVERGED,
             "replay diverged: the program calls %s() (libc call %" PRIu64
             " of thread %u) but the recorded thread made no more calls "
             "of the time, pid, random or host name functions", call,
             tcalls + 1, tno);
}

int rpl_sys_next(int kind, int64_t arg, struct log_sys_rec *r,
                 const char *call)
{
    if (__builtin_expect(state == SYS_UNSET, 0)) {
        pthread_mutex_lock(&open_lock);
        if (state == SYS_UNSET)
            sys_open();
        pthread_mutex_unlock(&open_lock);
    }
    if (state != SYS_REPLAY)
        return 0;
    if (!tno) {
        tno = __atomic_add_fetch(&nthreads, 1, __ATOMIC_RELAXED);
        toff = LOG_HEADER_SIZE;
    }
    do
        if (!log_sys_next(&sys, &toff, r))
            sys_end(call);
    while (r->thread != tno);
    tcalls++;
    if (r->kind == LOG_SYS_LOST)
        rpl_fail(NULL, RPL_EXIT_SETUP,
                 "the recorder dropped this rank's libc results before "
                 "MPI_Init (more than %" PRId64 " bytes of them): %s() "
                 "cannot be replayed", r->arg, call);
    if (r->kind != kind || r->arg != arg)
        rpl_fail(NULL, RPL_EXIT_DIVERGED,
                 "replay diverged: libc call %" PRIu64 " of thread %u: the "
                 "recorded run called %s(%" PRId64 "), the program called "
                 "%s(%" PRId64 ")", tcalls, tno, log_sys_kind_name(r->kind),
                 r->arg, call, arg);
    return 1;
}
