/*
 * ckpt-track.c - which pages were written since the last checkpoint: the
 * three backends of the checkpoint library, collecting and re-arming. Part
 * of the restorer (no libc, see ckpt-int.h): a rollback lifts the tracking
 * before it writes the pages and arms it again after. Opening the backends
 * is elsewhere: ckpt-track-uffd.c, ckpt-track-segv.c.
 *
 * uffd: every tracked mapping is registered with a userfaultfd in
 * write-protect mode with UFFD_FEATURE_WP_ASYNC: the kernel clears a page's
 * protection on its first write by itself (no signal, no thread, writes by
 * system calls and by a debugger included), and the PAGEMAP_SCAN ioctl on
 * /proc/self/pagemap lists the written pages and protects them again in one
 * call. Linux 6.7 or later; Debian 12's headers lack the definitions
 * (ckpt-track.h has them).
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
#include <sys/mman.h>

#include "ckpt-sys.h"
#include "ckpt-track.h"
#include "ckpt.h"

static int terr(struct ckt_state *t, const char *what, long e)
{
    t->why = (struct ck_why){what, (int)-e};
    return -1;
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
                return terr(t, "PAGEMAP_SCAN", rc);
            t->no_scan = 1; /* before Linux 6.7: read the entries */
            break;
        }
        for (long i = 0; i < rc; i++)
            if (add(out, n, cap, vec[i].start, vec[i].end) < 0)
                return terr(t, "too many pages", -ENOMEM);
        if (s.walk_end >= b || s.walk_end <= s.start)
            return 0;
        s.start = s.walk_end;
    }
    if (t->pagemap < 0 || b - a > (1UL << 40)) /* no way to tell: all */
        return add(out, n, cap, a, b) < 0
                   ? terr(t, "too many pages", -ENOMEM)
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
                return terr(t, "too many pages", -ENOMEM);
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
        return terr(t, "cannot track the writes of a mapping", rc);
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
            return terr(t, "PAGEMAP_SCAN", rc);
        for (long i = 0; i < rc && !all; i++)
            if (add(out, n, cap, vec[i].start, vec[i].end) < 0)
                return terr(t, "too many pages", -ENOMEM);
        if (a.walk_end >= r->end || a.walk_end <= a.start)
            break;
        a.start = a.walk_end;
    }
    return 0;
}

int ckpt__track_split(const struct ckt_state *t, const struct ck_reg *r,
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

static void arm(struct ckt_state *t, uint64_t a, uint64_t b, int prot)
{
    if (a >= b || t->narmed == t->armed_cap)
        return;
    t->armed[t->narmed++] = (struct ckt_armed){a, b, prot};
    ck_sys(SYS_mprotect, a, b - a, prot & ~PROT_WRITE);
}

void ckpt__track_arm(struct ckt_state *t, const struct ck_reg *r, uint64_t n)
{
    uint64_t rs = t->rseq_page;
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

void ckpt__track_unprotect(struct ckt_state *t, int backend,
                           const struct ck_reg *r)
{
    if (backend == CKPT_UFFD && !(r->kind & RK_HUGE)) {
        struct ck_uffdio_range rg = {r->start, r->end - r->start};
        ck_sys(SYS_ioctl, t->uffd, CK_UFFDIO_UNREGISTER, &rg);
    }
}

int ckpt__track_collect(struct ckt_state *t, int backend, struct ck_reg *r,
                        int all, uint64_t *out, uint64_t *n, uint64_t cap)
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
