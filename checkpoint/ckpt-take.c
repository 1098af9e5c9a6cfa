/*
 * ckpt-take.c - taking a checkpoint: the stub's (ckpt_take, at an MPI call
 * boundary: the callee-saved registers) or a debugger's (through
 * drdb_ckpt_take_trampoline: every register and XSAVE's area). It reads
 * the process's mappings and open files (ckpt-proc.c), collects the pages
 * written since the base checkpoint (ckpt-track.c), copies them into one
 * image (ckpt-file.c's layout) in the library's region, or writes it to a
 * file (a shadow), and hands it to the store (ckpt-store.c).
 */
#include <errno.h>
#include <string.h>

#include "ckpt-int.h"
#include "ckpt-sys.h"
#include "ckpt-track.h"
#include "ckpt.h"

/* Is [a,b) inside the base checkpoint's tracked regions? */
static int in_base(uint64_t a, uint64_t b)
{
    uint64_t lo = ckt_first_after(S->baselay, S->nbase, sizeof *S->baselay, a);
    for (uint64_t i = lo; i < S->nbase && S->baselay[i].start < b; i++) {
        if (S->baselay[i].start > a)
            return 0;
        a = S->baselay[i].end;
        if (a >= b)
            return 1;
    }
    return 0;
}

/* Fills S->pages with the pages to save (sorted) and arms the tracking. */
static int collect(int full)
{
    S->npages = 0;
    for (uint64_t i = 0; i < S->ncur; i++) {
        struct ck_reg *r = &S->cur[i];
        if (!(r->kind & RK_TRACK))
            continue;
        int all = full || S->backend == CKPT_FULL || !in_base(r->start, r->end);
        int rc = ckpt__track_collect(&S->trk, S->backend, r, all, S->pages,
                                     &S->npages, S->pages_cap);
        if (rc < 0)
            return ckpt__fail_why(&S->trk.why);
    }
    if (S->backend == CKPT_MPROTECT)
        ckpt__track_arm(&S->trk, S->cur, S->ncur);
    return 0;
}

/* Takes the checkpoint (memory and files) for context CTX (the stub's
 * call), or XF and the XSAVE area (a debugger's, EXTERNAL). */
static long take(const struct ckpt_ctx *ctx, const struct ckpt_xframe *xf,
                 int external, uint64_t event, double time)
{
    if (external && !S->xsize)
        return ckpt__fail("this processor has no XSAVE: no checkpoint "
                          "between MPI calls");
    if (S->nent == MAXENT && ckpt__make_room(UINT64_MAX) < 0)
        return ckpt__fail("too many checkpoints (%d): delete some", MAXENT);
    int n = ckpt__count_threads();
    if (n > 1)
        return ckpt__fail("the process has %d threads: checkpoints need a "
                          "single-threaded process", n);
    if (ckpt__read_maps() < 0)
        return ckpt__fail_why(&S->why);
    int full = S->need_full || !S->base || S->backend == CKPT_FULL;
    if (collect(full) < 0) {
        S->need_full = 1;
        return -1;
    }
    ckpt__read_fds();
    struct ck_hdr h = {0};
    memcpy(h.magic, CK_MAGIC, 8);
    h.version = CK_VERSION;
    h.flags = (external ? CKF_EXTERNAL : 0) | (full ? CKF_FULL : 0);
    h.id = S->next_id;
    h.parent = full ? 0 : S->base;
    h.event = event;
    h.time = time;
    if (ctx)
        h.ctx = *ctx;
    h.brk = (uint64_t)ck_sys(SYS_brk, 0, 0, 0);
    h.nregs = S->ncur;
    h.nfds = S->nfds;
    h.nstr = S->nstr;
    h.npages = S->npages;
    h.xctx_len = external ? sizeof *xf + S->xsize : 0;
    ckpt__layout_sizes(&h);
    if (!S->dir[0] && S->used + h.total > S->cap &&
        ckpt__make_room(h.total) < 0) {
        S->need_full = 1;
        return ckpt__fail(
            "checkpoint memory cap reached: %llu MiB in use by %d "
            "checkpoints, this one needs %llu MiB (set a higher cap with "
            "DRDB_CKPT_MEM=MiB, or delete checkpoints)",
            (unsigned long long)(S->used >> 20), S->nent,
            (unsigned long long)((h.total + (1 << 20) - 1) >> 20));
    }
    struct ck_hdr *b = ckpt__alloc(h.total);
    if (!b) {
        S->need_full = 1;
        return ckpt__fail("out of memory for a checkpoint of %llu MiB",
                          (unsigned long long)(h.total >> 20));
    }
    *b = h;
    char *base = (char *)b;
    memcpy(base + h.regs_off, S->cur, h.nregs * sizeof(struct ck_reg));
    memcpy(base + h.fds_off, S->fds, h.nfds * sizeof(struct ck_fd));
    memcpy(base + h.str_off, S->str, h.nstr);
    if (external) {
        memcpy(base + h.xctx_off, xf, sizeof *xf);
        memcpy(base + h.xctx_off + sizeof *xf, ckpt__xarea, S->xsize);
    }
    memcpy(base + h.addrs_off, S->pages, h.npages * 8);
    char *d = base + h.data_off;
    for (uint64_t i = 0; i < h.npages; i++, d += PG)
        ck_copy(d, (const void *)S->pages[i], PG);
    struct ck_entry e = {external ? xf->rip : 0, h.id, h.parent, event,
                         time, h.npages, h.total, (int)h.flags, 0, b,
                         h.total};
    if (S->dir[0]) {
        b->data_hash = ckpt__hash64(base + h.data_off, h.npages * PG, 0);
        b->meta_hash = ckpt__meta_hash(b);
        char path[4200];
        ckpt__file_name(path, sizeof path, S->dir, h.id);
        int rc = ckpt__file_write(b, path, S->msg, sizeof S->msg);
        ckpt__free(b, h.total, 1);
        if (rc < 0) {
            S->need_full = 1;
            return -1;
        }
        e.blob = NULL;
        e.in_file = 1;
    } else {
        S->used += h.total;
    }
    S->ent[S->nent++] = e;
    S->next_id++;
    S->base = h.id;
    S->need_full = 0;
    ckpt__set_base_layout(S->cur, S->ncur);
    drdb_ckpt_last = h.id;
    ckpt__table_update(1);
    return h.id;
}

long ckpt_take(uint64_t event, double time)
{
    if (!S)
        return -1;
    struct ckpt_ctx ctx;
    int saved = errno;
    if (ckpt__save(&ctx)) {
        errno = saved;
        return CKPT_RESUMED;
    }
    long id = take(&ctx, NULL, 0, event, time);
    errno = saved;
    return id;
}

/* The debugger's checkpoint (see ckpt.h): on the private stack, the
 * program's registers in F and ckpt__xarea; the trampoline resumes it. */
void ckpt__take_external(const struct ckpt_xframe *f)
{
    if (S)
        take(NULL, f, 1, drdb_ckpt_event_tag, 0);
}

