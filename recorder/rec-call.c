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
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rec.h"
#include "util.h"

struct log_call_slot *rec_call_slot;

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
    if (syscall(SYS_getpid) == rec_call_slot->pid)
        __atomic_store_n(&rec_call_slot->signal, sig, __ATOMIC_RELAXED);
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
