/*
 * The call in progress (rec.h: rec_call_enter; the layout: log-format.h,
 * LOG_CALL_FILE): one struct log_call_slot per rank in a shared mapping of
 * "rank-R.call" in the run directory, which survives the rank being
 * killed, so `drdb check` can tell which call a hung rank was blocked in,
 * and the signal a crashing rank died of, so that `drdb log info` tells
 * it from the ranks the launcher killed after it.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "interpose.h"
#include "rec.h"
#include "util.h"

struct log_call_slot *rec_call_slot;
__thread struct rec_fly rec_fly __attribute__((tls_model("initial-exec")));

static const int crash_sigs[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
#define NCRASH (sizeof crash_sigs / sizeof *crash_sigs)
/* The action each had before the recorder's: MPI's own (MPICH prints a
 * backtrace), the program's, or the default. */
static struct sigaction crash_prior[NCRASH];

/* A crash: noted in the slot, then the action before ours put back and the
 * signal taken by it: the same backtrace, death, core dump and exit status
 * as without the recorder. A fault happens again as the instruction is
 * retried (with its own siginfo); a signal sent (raise, abort, kill) is
 * raised again. */
static void on_crash(int sig, siginfo_t *si, void *ctx)
{
    (void)ctx;
    /* (a child the rank forked shares the mapping: its crash is not the
     * rank's; the system call, as getpid is the recorder's own) */
    if (syscall(SYS_getpid) == rec_call_slot->pid) {
        __atomic_store_n(&rec_call_slot->signal, sig, __ATOMIC_RELAXED);
        /* a crash inside MPI: the call it crashed in (its arguments are
         * what drdb check looks at first); the recorder was not writing
         * (rec_fly is set only inside the MPI call) */
        if (!rec_mt && rec_busy)
            rec_fly_end(0);
    }
    for (size_t i = 0; i < NCRASH; i++)
        if (crash_sigs[i] == sig)
            sigaction(sig, &crash_prior[i], NULL);
    if (si->si_code <= 0)
        raise(sig);
}

/* The crashes' handler, for each crash signal not ignored. A handler the
 * program installs later replaces it: its crashes then read as killed.
 * Only the signals a rank's own fault raises: the SIGKILL or SIGTERM a
 * launcher sends the others is not noted. */
static void catch_crashes(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_crash;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < NCRASH; i++)
        if (sigaction(crash_sigs[i], NULL, &crash_prior[i]) == 0 &&
            crash_prior[i].sa_handler != SIG_IGN)
            sigaction(crash_sigs[i], &sa, NULL);
}

void rec_call_open(int dfd, int rank)
{
    char name[64];
    snprintf(name, sizeof name, LOG_CALL_FILE, rank);
    int fd = util_file_create(dfd, name, O_CLOEXEC);
    if (fd < 0)
        return; /* no slot: readers say the call in progress is unknown */
    void *m = MAP_FAILED;
    if (ftruncate(fd, sizeof *rec_call_slot) == 0)
        m = mmap(NULL, sizeof *rec_call_slot, PROT_READ | PROT_WRITE,
                 MAP_SHARED, fd, 0);
    close(fd);
    if (m == MAP_FAILED) {
        unlinkat(dfd, name, 0);
        return;
    }
    struct log_call_slot *s = m;
    s->pid = getpid();
    memcpy(s->magic, LOG_CALL_MAGIC, sizeof s->magic);
    rec_call_slot = s;
    catch_crashes();
}

void rec_call_requests(uint32_t fn, int n, const MPI_Request *reqs)
{
    struct log_call_slot *s = rec_call_slot;
    if (!s)
        return;
    if (rec_mt) {
        s->fn = LOG_CALL_THREADS;
        return;
    }
    int k = n < LOG_CALL_REQS ? n : LOG_CALL_REQS;
    for (int i = 0; i < k && reqs; i++)
        s->req[i] = (uint32_t)reqs[i];
    s->peer = s->tag = s->peer2 = s->tag2 = LOG_CALL_NONE;
    s->comm = 0;
    s->nreq = n > 0 && reqs ? (uint32_t)n : 0;
    __atomic_store_n(&s->fn, fn, __ATOMIC_RELEASE);
}

/*
 * A rank MPI ends inside a call: with MPI_ERRORS_ARE_FATAL, MPICH reports
 * the error and calls PMI_Abort, which writes "cmd=abort exitcode=CODE"
 * (PMI-1; PMI-2: "cmd=abort;...") to the launcher and waits to be killed:
 * no exit handler runs. So the recorder sees that line go out (write() is
 * interposed; all else passes straight through) and logs the call in
 * flight first, with CODE, the MPI error code (rec.h: rec_fly). A
 * singleton (no launcher) exits instead: at_exit (rec.c) logs it then.
 */
void rec_fly_end(int code)
{
    struct rec_fly f = rec_fly;
    rec_fly.fn = 0; /* once */
    if (f.fn)
        rec_fly_died(&f, code);
}

static int abort_line(const char *p, size_t n, int *code)
{
    size_t k = n < 16 ? n : 16;
    const char *at = memmem(p, k, "cmd=abort", 9);
    if (!at)
        return 0;
    *code = 0;
    const char *e = memmem(p, n, "exitcode=", 9);
    if (e) {
        char num[16];
        size_t i = 0;
        e += 9;
        while (e + i < p + n && i < sizeof num - 1 &&
               ((e[i] >= '0' && e[i] <= '9') || (!i && e[i] == '-')))
            i++;
        memcpy(num, e, i);
        num[i] = 0;
        *code = (int)strtol(num, NULL, 10);
    }
    return 1;
}

ssize_t write(int fd, const void *buf, size_t n)
{
    UTIL_REAL(ssize_t, write, (int, const void *, size_t));
    int code;
    if (__builtin_expect(rec_fly.fn != 0, 0) && rec_busy && n >= 9 &&
        abort_line(buf, n, &code))
        rec_fly_end(code);
    return real_write(fd, buf, n);
}
