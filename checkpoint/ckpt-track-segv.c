/*
 * ckpt-track-segv.c - the mprotect backend's SIGSEGV handler (see
 * ckpt-track.c): a write into an armed page gets its write access back;
 * any other fault goes to drdb_ckpt_segv_hook() (where a debugger
 * stops), then to the program's own handler or the default action.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "ckpt-sys.h"
#include "ckpt-track.h"
#include "ckpt.h"

static struct ckt_state *mp; /* set once */

__attribute__((noinline, used)) void drdb_ckpt_segv_hook(void)
{
    __asm__ volatile("" ::: "memory");
}
static struct sigaction mp_old;

static void segv(int sig, siginfo_t *si, void *uc)
{
    uint64_t a = (uint64_t)si->si_addr & ~(PG - 1);
    uint64_t lo = ckt_first_after(mp->armed, mp->narmed, sizeof *mp->armed, a);
    if (si->si_code == SEGV_ACCERR && lo < mp->narmed &&
        mp->armed[lo].start <= a) {
        const struct ckt_armed *r = &mp->armed[lo];
        if (ck_sys(SYS_mprotect, a, PG, r->prot) < 0)
            /* out of mappings (vm.max_map_count): the whole region */
            ck_sys(SYS_mprotect, r->start, r->end - r->start, r->prot);
        return;
    }
    /* Not ours: the program's own handler, or the default action. */
    drdb_ckpt_segv_hook();
    if ((mp_old.sa_flags & SA_SIGINFO) && mp_old.sa_sigaction) {
        mp_old.sa_sigaction(sig, si, uc);
    } else if (mp_old.sa_handler != SIG_DFL && mp_old.sa_handler != SIG_IGN) {
        mp_old.sa_handler(sig);
    } else {
        /* the fault repeats, with the default action (a raw system call:
         * no lazily bound function, whose binding could fault here) */
        uint64_t dfl[4] = {0, 0, 0, 0}; /* handler, flags, restorer, mask */
        ck_sys6(SYS_rt_sigaction, SIGSEGV, (long)dfl, 0, 8, 0, 0);
    }
}

/* The page of the thread's rseq area (glibc 2.35+ registers one in the
 * thread control block): the kernel writes it on every return to the
 * program, and a protected one kills the process. Never protected. (The
 * thread pointer and the offset do not change in the process's life, so
 * it is found once, here, and not by the restorer, which calls no libc.) */
extern const ptrdiff_t __rseq_offset __attribute__((weak));
extern const unsigned int __rseq_size __attribute__((weak));

static uint64_t rseq_page(void)
{
    if (!&__rseq_size || !&__rseq_offset || !__rseq_size)
        return 0;
    return ((uint64_t)__builtin_thread_pointer() + (uint64_t)__rseq_offset) &
           ~(PG - 1);
}

int ckpt__track_mprotect_open(struct ckt_state *t, char *why, size_t len)
{
    if (!t->armed || !t->altstack) {
        snprintf(why, len, "no memory for the mprotect backend");
        return -1;
    }
    stack_t ss = {.ss_sp = t->altstack, .ss_size = 64 * 1024};
    struct sigaction sa = {0};
    sa.sa_sigaction = segv;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    if (sigaltstack(&ss, NULL) < 0 || sigaction(SIGSEGV, &sa, &mp_old) < 0) {
        snprintf(why, len, "cannot handle SIGSEGV: %s", strerror(errno));
        return -1;
    }
    t->rseq_page = rseq_page();
    mp = t;
    return 0;
}
