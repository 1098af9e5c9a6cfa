/*
 * ckpt-restorer.c - a rollback from the moment it changes the memory: on
 * the library's private stack, the chain S->chain (the target first, then
 * its parents up to a full checkpoint) checked by ckpt-restore.c, it sets
 * the program break, the layout, the protections, the pages and the file
 * offsets, re-arms the dirty-page tracking and jumps to the target's
 * registers.
 *
 * The restorer's core (see ckpt-int.h for the line with ckpt-restore.c):
 * compiled with its own flags (checkpoint/meson.build) and calling no libc
 * function, since the program's memory, libc's included, is what it
 * overwrites; it calls the kernel through ckpt-sys.h and, in the library,
 * only the other units of the restorer. A failure half-way cannot be undone
 * (the old state is gone): it ends the process with a message (die).
 */
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ckpt-int.h"
#include "ckpt-sys.h"
#include "ckpt-track.h"
#include "ckpt.h"

void ckpt__set_base_layout(const struct ck_reg *regs, uint64_t n)
{
    S->nbase = 0;
    for (uint64_t i = 0; i < n && S->nbase < MAXREG; i++)
        if (regs[i].kind & RK_TRACK)
            S->baselay[S->nbase++] = regs[i];
}

void ckpt__unmap_chain(void)
{
    for (int i = 0; i < S->nchain; i++)
        if (S->chain_mapped)
            ckpt__free((void *)S->chain[i], S->chain_len[i], 0);
    S->nchain = 0;
    S->chain_mapped = 0;
}

/* The kind of chain member C's mapping at A (0: none); one cursor per
 * member, A only grows during a walk. */
static uint32_t kind_at(int c, uint64_t a)
{
    const struct ck_hdr *h = S->chain[c];
    const struct ck_reg *r = ck_regs(h);
    uint64_t *i = &S->rcur[c];
    while (*i < h->nregs && r[*i].end <= a)
        (*i)++;
    return *i < h->nregs && r[*i].start <= a ? r[*i].kind : 0;
}

static void dontneed(uint64_t a, uint64_t b)
{
    if (a < b)
        ck_sys(SYS_madvise, a, b - a, MADV_DONTNEED);
}

/*
 * Writes the target's pages: for each page of its tracked mappings, the
 * newest copy in the chain, each page once. An older member's copy counts
 * only when every newer member tracked that address incrementally (one
 * that did not map it, or saved its mapping whole, says the page was not
 * populated then). Pages with no copy were not populated at the target:
 * MADV_DONTNEED gives them back their zeros (or their file's bytes).
 */
static void apply_pages(void)
{
    const struct ck_hdr *const *chain = S->chain;
    int nchain = S->nchain;
    const struct ck_hdr *t = chain[0];
    const struct ck_reg *tr = ck_regs(t);
    for (int c = 0; c < nchain; c++)
        S->pcur[c] = S->rcur[c] = 0;
    for (uint64_t ri = 0; ri < t->nregs; ri++) {
        if (!(tr[ri].kind & RK_TRACK))
            continue;
        uint64_t prev = tr[ri].start, end = tr[ri].end;
        for (;;) {
            uint64_t a = UINT64_MAX;
            int best = -1;
            for (int c = 0; c < nchain; c++) {
                const struct ck_hdr *h = chain[c];
                const uint64_t *pa = ck_addrs(h);
                while (S->pcur[c] < h->npages && pa[S->pcur[c]] < prev)
                    S->pcur[c]++;
                if (S->pcur[c] < h->npages && pa[S->pcur[c]] < a) {
                    a = pa[S->pcur[c]];
                    best = c;
                }
            }
            if (best < 0 || a >= end)
                break;
            int usable = 1;
            for (int c = 0; c < best && usable; c++) {
                uint32_t k = kind_at(c, a);
                usable = (k & RK_TRACK) && !(k & RK_COMPLETE);
            }
            if (usable) {
                dontneed(prev, a);
                const struct ck_hdr *h = chain[best];
                ck_copy((void *)a,
                        (const char *)h + h->data_off + S->pcur[best] * PG,
                        PG);
                prev = a + PG;
            }
            for (int c = 0; c < nchain; c++)
                if (S->pcur[c] < chain[c]->npages &&
                    ck_addrs(chain[c])[S->pcur[c]] == a)
                    S->pcur[c]++;
        }
        dontneed(prev, end);
    }
}

/* Calls FN on each part of [a,b) that no region of R (sorted) covers. */
static void gaps(uint64_t a, uint64_t b, const struct ck_reg *r, uint64_t n,
                 int skip_kind, void (*fn)(uint64_t, uint64_t, const void *),
                 const void *arg)
{
    for (uint64_t i = 0; i < n && a < b; i++) {
        if (r[i].kind & skip_kind)
            continue;
        if (r[i].end <= a)
            continue;
        if (r[i].start >= b)
            break;
        if (r[i].start > a)
            fn(a, r[i].start, arg);
        a = r[i].end;
    }
    if (a < b)
        fn(a, b, arg);
}

static void do_unmap(uint64_t a, uint64_t b, const void *arg)
{
    ck_sys(SYS_munmap, a, b - a, 0);
}

static void do_map(uint64_t a, uint64_t b, const void *arg)
{
    const struct ck_reg *r = arg;
    const char *str = (const char *)S->chain[0] + S->chain[0]->str_off;
    void *p = (void *)-1L;
    if ((r->kind & RK_FILE) && !(r->kind & RK_TRACK) && r->path) {
        int fd = (int)ck_sys(SYS_open, str + r->path, O_RDONLY | O_CLOEXEC, 0);
        if (fd >= 0) {
            p = ck_mmap((void *)a, b - a, (int)r->prot,
                        MAP_PRIVATE | MAP_FIXED, fd, r->off + (a - r->start));
            ck_sys(SYS_close, fd, 0, 0);
        }
    }
    if (ck_mmap_failed(p))
        p = ck_mmap((void *)a, b - a, (int)r->prot | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    if (ck_mmap_failed(p))
        S->layout_failed = 1;
}

static void put(const char *s)
{
    uint64_t n = 0;
    while (s[n])
        n++;
    ck_sys(SYS_write, 2, s, n);
}

/* Ends the process, saying WHAT (and errno ERR when not 0). */
__attribute__((noreturn)) static void die(const char *what, int err)
{
    put("drdb: rollback failed half-way (the process cannot go on): ");
    put(what);
    if (err > 0) {
        char num[16];
        int i = (int)sizeof num;
        num[--i] = '\0';
        do
            num[--i] = (char)('0' + err % 10);
        while ((err /= 10) && i > 0);
        put(" (errno ");
        put(num + i);
        put(")");
    }
    put("\n");
    for (;;)
        ck_sys(SYS_exit_group, 96, 0, 0);
}

static void read_maps_or_die(void)
{
    if (ckpt__read_maps() < 0)
        die(S->why.what, S->why.err);
}

void ckpt__restore_on_stack(void *arg)
{
    const struct ck_hdr *t = S->chain[0];
    const struct ck_reg *tr = ck_regs(t);
    (void)arg;
    /* 1. the program break */
    if ((uint64_t)ck_sys(SYS_brk, t->brk, 0, 0) != t->brk)
        die("cannot set the program break", 0);
    /* 2. the layout: unmap what did not exist, map what did */
    read_maps_or_die();
    for (uint64_t i = 0; i < S->ncur; i++) {
        const struct ck_reg *c = &S->cur[i];
        if (c->kind & (RK_HEAP | RK_STACK))
            continue;
        gaps(c->start, c->end, tr, t->nregs, 0, do_unmap, NULL);
    }
    read_maps_or_die();
    S->layout_failed = 0;
    for (uint64_t i = 0; i < t->nregs; i++)
        if (!(tr[i].kind & (RK_HEAP | RK_STACK)))
            gaps(tr[i].start, tr[i].end, S->cur, S->ncur, 0, do_map, &tr[i]);
    if (S->layout_failed)
        die("cannot recreate a mapping", 0);
    for (uint64_t i = 0; i < t->nregs; i++)
        if (!(tr[i].kind & RK_STACK))
            ck_sys(SYS_mprotect, tr[i].start, tr[i].end - tr[i].start,
                   tr[i].prot);
    /* 3. the pages (without the write-protection: a fault per page would
     * double the time), 4. the file offsets */
    read_maps_or_die();
    for (uint64_t i = 0; i < S->ncur; i++)
        if (S->cur[i].kind & RK_TRACK)
            ckpt__track_unprotect(&S->trk, S->backend, &S->cur[i]);
    apply_pages();
    const struct ck_fd *fd = (const void *)((const char *)t + t->fds_off);
    for (uint64_t i = 0; i < t->nfds; i++) {
        struct stat st;
        if (ck_sys(SYS_fstat, fd[i].fd, &st, 0) == 0 && st.st_dev == fd[i].dev &&
            st.st_ino == fd[i].ino)
            ck_sys(SYS_lseek, fd[i].fd, fd[i].off, SEEK_SET);
    }
    /* 5. the tracking starts again from this state */
    struct ckpt_ctx ctx = t->ctx;
    int external = !!(t->flags & CKF_EXTERNAL);
    if (S->chain_mapped) {
        S->need_full = 1;
        S->base = 0;
    } else {
        S->base = t->id;
        S->need_full = 0;
    }
    /* (S->cur, read before the pages, is still the layout) */
    ckpt__set_base_layout(tr, t->nregs);
    uint64_t keep = S->npages;
    if (S->backend != CKPT_FULL)
        for (uint64_t i = 0; i < S->ncur; i++)
            if (S->cur[i].kind & RK_TRACK)
                ckpt__track_collect(&S->trk, S->backend, &S->cur[i], 0,
                                    NULL, &keep, 0);
    if (S->backend == CKPT_MPROTECT)
        ckpt__track_arm(&S->trk, S->cur, S->ncur);
    if (external) {
        /* the registers and XSAVE area it was taken with, in the library's
         * region before the images go */
        ck_copy(&S->xframe, (const char *)t + t->xctx_off, sizeof S->xframe);
        ck_copy_bytes(ckpt__xarea,
                      (const char *)t + t->xctx_off + sizeof S->xframe,
                      S->xsize);
    }
    ckpt__unmap_chain();
    S->msg[0] = '\0'; /* done: a debugger reads it */
    if (!external)
        ckpt__jump(&ctx);
    ckpt__xresume(&S->xframe, ckpt__xarea);
}
