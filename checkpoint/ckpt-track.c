/*
 * ckpt-track.c - which pages were written since the last checkpoint: the
 * three backends of the checkpoint library.
 *
 * uffd: every tracked mapping is registered with a userfaultfd in
 * write-protect mode with UFFD_FEATURE_WP_ASYNC: the kernel clears a page's
 * protection on its first write by itself (no signal, no thread, writes by
 * system calls and by a debugger included), and the PAGEMAP_SCAN ioctl on
 * /proc/self/pagemap lists the written pages and protects them again in one
 * call. Linux 6.7 or later; Debian 12's headers lack the definitions.
 *
 * mprotect: tracked mappings are made read-only; the SIGSEGV handler gives
 * a page its write access back on the first write. The dirty pages are then
 * exactly the writable parts of armed mappings in /proc/self/maps. The
 * stack is never protected (system calls writing into a protected page fail
 * with EFAULT instead of faulting, and the stack is where most of their
 * buffers are): it is copied whole each time.
 *
 * full: every page, every time.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ckpt-sys.h"
#include "ckpt-track.h"

#define PG 4096UL

/* ---- userfaultfd and PAGEMAP_SCAN definitions (Linux 6.7 uapi) ---------- */

#define CK_UFFD_API 0xAAULL
#define CK_UFFD_USER_MODE_ONLY 1
#define CK_UFFD_FEATURE_WP_UNPOPULATED (1ULL << 13)
#define CK_UFFD_FEATURE_WP_ASYNC (1ULL << 15)
#define CK_UFFDIO_REGISTER_MODE_WP (1ULL << 1)

struct ck_uffdio_api {
    uint64_t api, features, ioctls;
};
struct ck_uffdio_range {
    uint64_t start, len;
};
struct ck_uffdio_register {
    struct ck_uffdio_range range;
    uint64_t mode, ioctls;
};
#define CK_UFFDIO_API _IOWR(0xAA, 0x3F, struct ck_uffdio_api)
#define CK_UFFDIO_REGISTER _IOWR(0xAA, 0x00, struct ck_uffdio_register)
#define CK_UFFDIO_UNREGISTER _IOR(0xAA, 0x01, struct ck_uffdio_range)

struct ck_page_region {
    uint64_t start, end, categories;
};
struct ck_pm_scan_arg {
    uint64_t size, flags, start, end, walk_end, vec, vec_len, max_pages;
    uint64_t category_inverted, category_mask, category_anyof_mask,
        return_mask;
};
#define CK_PAGEMAP_SCAN _IOWR('f', 16, struct ck_pm_scan_arg)
#define CK_PM_SCAN_WP_MATCHING (1ULL << 0)
#define CK_PM_SCAN_CHECK_WPASYNC (1ULL << 1)
#define CK_PAGE_IS_WRITTEN (1ULL << 1)
#define CK_PAGE_IS_PRESENT (1ULL << 3)
#define CK_PAGE_IS_SWAPPED (1ULL << 4)

static int terr(struct ckt_state *t, const char *fmt, const char *what,
                long e)
{
    snprintf(t->err, sizeof t->err, fmt, what, strerror((int)-e));
    return -1;
}

/* Out of the program's way: its own descriptors keep their numbers. */
static int high_fd(int fd)
{
    if (fd >= 900)
        return fd;
    int h = fcntl(fd, F_DUPFD_CLOEXEC, 900);
    if (h < 0)
        return fd;
    ck_sys(SYS_close, fd, 0, 0);
    return h;
}

void ckt_pagemap_open(struct ckt_state *t)
{
    long pm = ck_sys(SYS_open, "/proc/self/pagemap", O_RDONLY | O_CLOEXEC, 0);
    t->pagemap = pm < 0 ? -1 : high_fd((int)pm);
}

int ckt_uffd_open(struct ckt_state *t, char *why, size_t len)
{
    long fd = ck_sys(SYS_userfaultfd, O_CLOEXEC | CK_UFFD_USER_MODE_ONLY, 0, 0);
    if (fd < 0) {
        snprintf(why, len, "userfaultfd: %s", strerror((int)-fd));
        return -1;
    }
    struct ck_uffdio_api api = {CK_UFFD_API,
                                CK_UFFD_FEATURE_WP_ASYNC |
                                    CK_UFFD_FEATURE_WP_UNPOPULATED,
                                0};
    long r = ck_sys(SYS_ioctl, fd, CK_UFFDIO_API, &api);
    if (r < 0) {
        snprintf(why, len, "userfaultfd without asynchronous write-protect "
                 "(Linux 6.7 or later needed): %s", strerror((int)-r));
        ck_sys(SYS_close, fd, 0, 0);
        return -1;
    }
    long pm = t->pagemap >= 0 ? t->pagemap
                              : ck_sys(SYS_open, "/proc/self/pagemap",
                                       O_RDONLY | O_CLOEXEC, 0);
    if (pm < 0) {
        snprintf(why, len, "/proc/self/pagemap: %s", strerror((int)-pm));
        ck_sys(SYS_close, fd, 0, 0);
        return -1;
    }
    /* The ioctl exists? (an empty scan) */
    struct ck_pm_scan_arg a = {sizeof a, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    r = ck_sys(SYS_ioctl, pm, CK_PAGEMAP_SCAN, &a);
    if (r < 0) {
        snprintf(why, len, "no PAGEMAP_SCAN (Linux 6.7 or later needed): %s",
                 strerror((int)-r));
        ck_sys(SYS_close, fd, 0, 0);
        ck_sys(SYS_close, pm, 0, 0);
        return -1;
    }
    t->uffd = high_fd((int)fd);
    t->pagemap = high_fd((int)pm);
    return 0;
}

int ckpt_uffd_available(char *why, size_t len)
{
    struct ckt_state t = {0};
    t.pagemap = -1;
    if (ckt_uffd_open(&t, why, len) < 0)
        return 0;
    close(t.uffd);
    close(t.pagemap);
    return 1;
}

static int add(uint64_t *out, uint64_t *n, uint64_t cap, uint64_t a,
               uint64_t b)
{
    if (!out)
        return 0;
    if (*n + (b - a) / PG > cap)
        return -1;
    for (; a < b; a += PG)
        out[(*n)++] = a;
    return 0;
}

/* Appends the populated (present or swapped) pages of [A,B): a page never
 * touched is not saved, it reads as it did (zero, or its file's). */
static int present(struct ckt_state *t, uint64_t a, uint64_t b, uint64_t *out,
                   uint64_t *n, uint64_t cap)
{
    struct ck_page_region vec[512];
    struct ck_pm_scan_arg s = {0};
    s.size = sizeof s;
    s.start = a;
    s.end = b;
    s.vec = (uint64_t)vec;
    s.vec_len = 512;
    s.category_anyof_mask = CK_PAGE_IS_PRESENT | CK_PAGE_IS_SWAPPED;
    s.return_mask = CK_PAGE_IS_PRESENT | CK_PAGE_IS_SWAPPED;
    while (t->pagemap >= 0 && !t->no_scan) {
        long rc = ck_sys(SYS_ioctl, t->pagemap, CK_PAGEMAP_SCAN, &s);
        if (rc < 0) {
            if (s.start != a)
                return terr(t, "%s: %s", "PAGEMAP_SCAN", rc);
            t->no_scan = 1; /* before Linux 6.7: read the entries */
            break;
        }
        for (long i = 0; i < rc; i++)
            if (add(out, n, cap, vec[i].start, vec[i].end) < 0)
                return terr(t, "%s: %s", "too many pages", -ENOMEM);
        if (s.walk_end >= b || s.walk_end <= s.start)
            return 0;
        s.start = s.walk_end;
    }
    if (t->pagemap < 0 || b - a > (1UL << 40)) /* no way to tell: all */
        return add(out, n, cap, a, b) < 0
                   ? terr(t, "%s: %s", "too many pages", -ENOMEM)
                   : 0;
    uint64_t e[1024];
    for (uint64_t p = a; p < b;) {
        uint64_t k = (b - p) / PG < 1024 ? (b - p) / PG : 1024;
        long got = ck_sys6(SYS_pread64, t->pagemap, (long)e, (long)(k * 8),
                           (long)(p / PG * 8), 0, 0);
        if (got <= 0)
            return add(out, n, cap, p, b) < 0 ? -1 : 0;
        for (long i = 0; i < got / 8; i++, p += PG)
            if ((e[i] >> 62) && add(out, n, cap, p, p + PG) < 0)
                return terr(t, "%s: %s", "too many pages", -ENOMEM);
    }
    return 0;
}

static int uffd_collect(struct ckt_state *t, struct ck_reg *r, int all,
                        uint64_t *out, uint64_t *n, uint64_t cap)
{
    struct ck_uffdio_register reg = {{r->start, r->end - r->start},
                                     CK_UFFDIO_REGISTER_MODE_WP, 0};
    /* Saving every populated page: first drop the protection markers of
     * never-populated pages, which the scan would count as swapped. */
    if (all && out)
        ck_sys(SYS_ioctl, t->uffd, CK_UFFDIO_UNREGISTER, &reg.range);
    long rc = ck_sys(SYS_ioctl, t->uffd, CK_UFFDIO_REGISTER, &reg);
    if (rc < 0 && rc != -EBUSY)
        return terr(t, "cannot track the writes of %s: %s", "a mapping", rc);
    if (all) {
        if (out && present(t, r->start, r->end, out, n, cap) < 0)
            return -1;
        r->kind |= RK_COMPLETE;
    }
    struct ck_page_region vec[512];
    struct ck_pm_scan_arg a = {0};
    a.size = sizeof a;
    a.flags = CK_PM_SCAN_WP_MATCHING | CK_PM_SCAN_CHECK_WPASYNC;
    a.start = r->start;
    a.end = r->end;
    a.vec = (uint64_t)vec;
    a.vec_len = 512;
    a.category_mask = CK_PAGE_IS_WRITTEN;
    a.return_mask = CK_PAGE_IS_WRITTEN;
    for (;;) {
        rc = ck_sys(SYS_ioctl, t->pagemap, CK_PAGEMAP_SCAN, &a);
        if (rc < 0)
            return terr(t, "%s: %s", "PAGEMAP_SCAN", rc);
        for (long i = 0; i < rc && !all; i++)
            if (add(out, n, cap, vec[i].start, vec[i].end) < 0)
                return terr(t, "%s: %s", "too many pages", -ENOMEM);
        if (a.walk_end >= r->end || a.walk_end <= a.start)
            break;
        a.start = a.walk_end;
    }
    return 0;
}

/* ---- mprotect + SIGSEGV ------------------------------------------------- */

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

int ckt_mprotect_open(struct ckt_state *t, char *why, size_t len)
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
    mp = t;
    return 0;
}

int ckt_split(const struct ckt_state *t, const struct ck_reg *r,
              struct ck_reg *out, int max)
{
    out[0] = *r;
    if (!t->narmed || (r->prot & PROT_WRITE))
        return 1;
    uint64_t lo =
        ckt_first_after(t->armed, t->narmed, sizeof *t->armed, r->start);
    /* A protected mapping may have merged with a read-only neighbour of
     * the same file (ld.so's data after its relro part): cut it back at
     * the armed bounds. */
    int n = 0;
    uint64_t cur = r->start;
    for (uint64_t i = lo; i < t->narmed && t->armed[i].start < r->end &&
                          n + 3 <= max;
         i++) {
        const struct ckt_armed *a = &t->armed[i];
        if ((int)r->prot != (a->prot & ~PROT_WRITE))
            continue;
        uint64_t s = a->start > cur ? a->start : cur;
        uint64_t e = a->end < r->end ? a->end : r->end;
        if (s >= e)
            continue;
        if (s > cur) {
            out[n] = *r;
            out[n].start = cur;
            out[n++].end = s;
        }
        out[n] = *r;
        out[n].start = s;
        out[n].end = e;
        out[n].prot = (uint32_t)a->prot;
        out[n++].kind |= RK_CLEAN;
        cur = e;
    }
    if (cur < r->end || !n) {
        out[n] = *r;
        out[n].start = cur;
        out[n++].end = r->end;
    }
    for (int i = 0; i < n; i++)
        out[i].off = r->off + (out[i].start - r->start);
    return n;
}

/* The page of the thread's rseq area (glibc 2.35+ registers one in the
 * thread control block): the kernel writes it on every return to the
 * program, and a protected one kills the process. Never protected. */
extern const ptrdiff_t __rseq_offset __attribute__((weak));
extern const unsigned int __rseq_size __attribute__((weak));

static uint64_t rseq_page(void)
{
    if (!&__rseq_size || !&__rseq_offset || !__rseq_size)
        return 0;
    return ((uint64_t)__builtin_thread_pointer() + (uint64_t)__rseq_offset) &
           ~(PG - 1);
}

static void arm(struct ckt_state *t, uint64_t a, uint64_t b, int prot)
{
    if (a >= b || t->narmed == t->armed_cap)
        return;
    t->armed[t->narmed++] = (struct ckt_armed){a, b, prot};
    ck_sys(SYS_mprotect, a, b - a, prot & ~PROT_WRITE);
}

void ckt_mprotect_arm(struct ckt_state *t, const struct ck_reg *r, uint64_t n)
{
    uint64_t rs = rseq_page();
    t->narmed = 0;
    for (uint64_t i = 0; i < n; i++) {
        if (!(r[i].kind & RK_TRACK) || (r[i].kind & (RK_STACK | RK_HUGE)))
            continue;
        if (rs >= r[i].start && rs < r[i].end) {
            arm(t, r[i].start, rs, (int)r[i].prot);
            arm(t, rs + PG, r[i].end, (int)r[i].prot);
        } else {
            arm(t, r[i].start, r[i].end, (int)r[i].prot);
        }
    }
}

void ckt_unprotect(struct ckt_state *t, int backend, const struct ck_reg *r)
{
    if (backend == CKPT_UFFD && !(r->kind & RK_HUGE)) {
        struct ck_uffdio_range rg = {r->start, r->end - r->start};
        ck_sys(SYS_ioctl, t->uffd, CK_UFFDIO_UNREGISTER, &rg);
    }
}

int ckt_collect(struct ckt_state *t, int backend, struct ck_reg *r, int all,
                uint64_t *out, uint64_t *n, uint64_t cap)
{
    /* Reservations are not tracked (a write-protect marker per page of a
     * TiB would cost GiBs of page tables): their populated pages, whole. */
    if (backend == CKPT_UFFD && !(r->kind & RK_HUGE))
        return uffd_collect(t, r, all, out, n, cap);
    if (backend == CKPT_MPROTECT && !all && (r->kind & RK_CLEAN) &&
        !(r->kind & RK_HUGE))
        return 0;
    r->kind |= RK_COMPLETE;
    return out ? present(t, r->start, r->end, out, n, cap) : 0;
}
