/*
 * ckpt-store.c - the checkpoint library's start and its store: the
 * checkpoints kept in memory (in the library's region, ckpt-region.c),
 * listed, thinned under the memory cap by folding one into its child, and
 * deleted; and the error message every unit reports through (ckpt__fail).
 * See ckpt.h for the interface, ckpt-int.h for the units.
 */
#include <cpuid.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "ckpt-int.h"
#include "ckpt-sys.h"
#include "ckpt-track.h"
#include "ckpt.h"

/* Where the region goes: a fixed address, so that a shadow replay and the
 * foreground lay out memory alike (the first hint free is taken). */
static const uintptr_t reserve_hints[] = {0x6a0000000000UL, 0x5a0000000000UL,
                                          0x3a0000000000UL};

static uint64_t up(uint64_t n, uint64_t a)
{
    return (n + a - 1) & ~(a - 1);
}


int ckpt__fail(const char *fmt, ...)
{
    if (!S)
        return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(S->msg, sizeof S->msg, fmt, ap);
    va_end(ap);
    return -1;
}

int ckpt__fail_why(const struct ck_why *w)
{
    return w->err ? ckpt__fail("%s: %s", w->what, strerror(w->err))
                  : ckpt__fail("%s", w->what);
}

const char *ckpt_error(void)
{
    return S ? S->msg : "the checkpoint library is not started";
}

/* ---- start ------------------------------------------------------------- */

const char *ckpt_backend_name(void)
{
    static const char *const n[] = {"auto", "uffd", "mprotect", "full"};
    return S ? n[S->backend] : "none";
}

int ckpt_init(const struct ckpt_opts *o, char *err, size_t errlen)
{
    struct ckpt_opts dflt = {0};
    if (!o)
        o = &dflt;
    if (S)
        return 0;
    void *p = MAP_FAILED;
    for (size_t i = 0; i < sizeof reserve_hints / sizeof *reserve_hints; i++) {
        p = mmap((void *)reserve_hints[i], RESERVE_LEN, PROT_NONE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE |
                     MAP_FIXED_NOREPLACE, -1, 0);
        if (p != MAP_FAILED)
            break;
    }
    if (p == MAP_FAILED) {
        snprintf(err, errlen, "cannot reserve address space for checkpoints: "
                 "%s", strerror(errno));
        return -1;
    }
    ckpt__reserve = (uintptr_t)p;
    uint64_t meta = up(sizeof(struct ck_state), PG);
    uint64_t pages_cap = 64UL << 20; /* page addresses: 256 GiB tracked */
    uint64_t total = meta + PRIV_STACK + pages_cap * 8 + (8UL << 20) +
                     MAXREG * sizeof(struct ck_reg);
    total = up(total, PG);
    if (mprotect(p, total, PROT_READ | PROT_WRITE) < 0) {
        snprintf(err, errlen, "cannot map the checkpoint library's state: %s",
                 strerror(errno));
        munmap(p, RESERVE_LEN);
        return -1;
    }
    struct ck_state *s = p;
    char *q = (char *)p + meta;
    ckpt__tramp_stack = (uintptr_t)(q + PRIV_STACK);
    q += PRIV_STACK;
    s->pages = (uint64_t *)q;
    s->pages_cap = pages_cap;
    q += pages_cap * 8;
    s->baselay = (struct ck_reg *)q;
    s->bump = ckpt__reserve + total;
    s->next_id = 1;
    s->need_full = 1;
    s->cap = o->mem_cap;
    const char *e = getenv("DRDB_CKPT_MEM");
    if (!s->cap && e && *e)
        s->cap = strtoull(e, NULL, 10) << 20;
    if (!s->cap)
        s->cap = 1UL << 30;
    if (o->dir)
        snprintf(s->dir, sizeof s->dir, "%s", o->dir);
    enum ckpt_backend b = o->backend;
    e = getenv("DRDB_CKPT_BACKEND");
    if (b == CKPT_AUTO && e && *e) {
        b = !strcmp(e, "uffd")       ? CKPT_UFFD
            : !strcmp(e, "mprotect") ? CKPT_MPROTECT
            : !strcmp(e, "full")     ? CKPT_FULL
                                     : CKPT_AUTO;
        if (b == CKPT_AUTO && strcmp(e, "auto")) {
            snprintf(err, errlen, "DRDB_CKPT_BACKEND=%s: use uffd, mprotect, "
                     "full or auto", e);
            munmap(p, RESERVE_LEN);
            return -1;
        }
    }
    S = s;
    s->trk.uffd = -1;
    ckpt__track_pagemap_open(&s->trk);
    /* (touched only by the mprotect backend) */
    s->trk.armed = ckpt__alloc_flags(MAXREG * sizeof(struct ckt_armed), 0);
    s->trk.armed_cap = MAXREG;
    s->trk.altstack = ckpt__alloc_flags(64 * 1024, 0);
    char why[256] = "";
    if (b == CKPT_AUTO || b == CKPT_UFFD) {
        if (ckpt__track_uffd_open(&s->trk, why, sizeof why) == 0)
            s->backend = CKPT_UFFD;
        else if (b == CKPT_UFFD) {
            snprintf(err, errlen, "the uffd backend is not available: %s", why);
            S = NULL;
            munmap(p, RESERVE_LEN);
            return -1;
        }
    }
    if (!s->backend && b != CKPT_FULL) {
        if (ckpt__track_mprotect_open(&s->trk, why, sizeof why) == 0)
            s->backend = CKPT_MPROTECT;
        else if (b == CKPT_MPROTECT) {
            snprintf(err, errlen, "the mprotect backend is not available: %s",
                     why);
            S = NULL;
            munmap(p, RESERVE_LEN);
            return -1;
        }
    }
    if (!s->backend)
        s->backend = CKPT_FULL;
    /* XSAVE (OSXSAVE set): the size of the area the enabled features
     * need */
    unsigned ra, rb, rc, rd;
    __cpuid(1, ra, rb, rc, rd);
    if (rc & (1u << 27)) {
        __cpuid_count(0xd, 0, ra, rb, rc, rd);
        if (rb && rb + sizeof(struct ckpt_xframe) <= XCTX_MAX &&
            (ckpt__xarea = ckpt__alloc(rb)))
            s->xsize = rb;
    }
    drdb_ckpt_msg = s->msg;
    drdb_ckpt_target_path = s->target_path;
    drdb_ckpt_table = s->table;
    return 0;
}

struct ck_entry *ckpt__entry(long id)
{
    for (int i = 0; i < S->nent; i++)
        if (S->ent[i].id == id)
            return &S->ent[i];
    return NULL;
}

/* ---- the store: listing, thinning, deleting ----------------------------- */

/* Entry E as listed. */
static struct ckpt_info info_of(const struct ck_entry *e)
{
    return (struct ckpt_info){e->id, e->parent, e->event, e->time,
                              e->npages, e->bytes,
                              !!(e->flags & CKF_EXTERNAL), e->in_file, e->pc};
}

int ckpt_list(struct ckpt_info *out, int max)
{
    if (!S)
        return 0;
    for (int i = 0; i < S->nent && i < max; i++)
        out[i] = info_of(&S->ent[i]);
    return S->nent;
}

uint64_t ckpt_mem_used(void)
{
    return S ? S->used : 0;
}

/* drdb_ckpt_table: one line per checkpoint (ckpt-file.h), for a debugger
 * to read. A new checkpoint adds its line (LAST); thinning and deleting
 * write it anew. */
static void table_line(const struct ck_entry *e)
{
    size_t cap = sizeof S->table;
    if (S->table_len + CKPT_TABLE_LINE_MAX >= cap)
        return;
    struct ckpt_info ck = info_of(e);
    S->table_len += (size_t)ckpt_table_line(S->table + S->table_len,
                                            cap - S->table_len, &ck);
}

void ckpt__table_update(int last)
{
    if (!last) {
        S->table_len = 0;
        S->table[0] = '\0';
        for (int i = 0; i < S->nent; i++)
            table_line(&S->ent[i]);
    } else if (S->nent) {
        table_line(&S->ent[S->nent - 1]);
    }
}

static int nchildren(long id, int *child)
{
    int n = 0;
    for (int i = 0; i < S->nent; i++)
        if (S->ent[i].parent == id) {
            n++;
            *child = i;
        }
    return n;
}

/* Would a copy from C's parent count at A through C (C maps A, tracked
 * incrementally)? */
static int through(const struct ck_hdr *h, uint64_t a)
{
    const struct ck_reg *r = ck_regs(h);
    uint64_t lo = ckt_first_after(r, h->nregs, sizeof *r, a);
    return lo < h->nregs && r[lo].start <= a && (r[lo].kind & RK_TRACK) &&
           !(r[lo].kind & RK_COMPLETE);
}

/* Can V be folded into its child C without its parent's pages showing
 * through where V said "not populated"? Always for the first (then C
 * becomes complete); else only if V tracked incrementally wherever C
 * does. */
static int foldable(const struct ck_hdr *v, const struct ck_hdr *c)
{
    if (!v->parent)
        return 1;
    const struct ck_reg *cr = ck_regs(c), *vr = ck_regs(v);
    for (uint64_t i = 0, j = 0; i < c->nregs; i++) {
        if (!(cr[i].kind & RK_TRACK) || (cr[i].kind & RK_COMPLETE))
            continue;
        uint64_t a = cr[i].start;
        while (j < v->nregs && vr[j].end <= a)
            j++;
        for (uint64_t k = j; a < cr[i].end; k++) {
            if (k == v->nregs || vr[k].start > a ||
                !(vr[k].kind & RK_TRACK) || (vr[k].kind & RK_COMPLETE))
                return 0;
            a = vr[k].end;
        }
    }
    return 1;
}

/* Folds checkpoint V (in memory, one child, in memory) into its child: the
 * child gets V's pages it lacks and V's parent. */
static int merge_into_child(int vi, int ci)
{
    struct ck_entry *v = &S->ent[vi], *c = &S->ent[ci];
    const struct ck_hdr *vh = v->blob, *ch = c->blob;
    const uint64_t *va = (const void *)((const char *)vh + vh->addrs_off);
    const uint64_t *ca = (const void *)((const char *)ch + ch->addrs_off);
    uint64_t n = 0;
    for (uint64_t i = 0, j = 0; i < vh->npages || j < ch->npages;) {
        if (j < ch->npages && (i == vh->npages || ca[j] <= va[i])) {
            if (i < vh->npages && va[i] == ca[j])
                i++;
            j++;
            n++;
        } else {
            n += through(ch, va[i]);
            i++;
        }
    }
    struct ck_hdr h = *ch;
    h.npages = n;
    h.parent = v->parent;
    if (!v->parent)
        h.flags |= CKF_FULL;
    ckpt__layout_sizes(&h);
    struct ck_hdr *b = ckpt__alloc(h.total);
    if (!b)
        return -1;
    *b = h;
    memcpy((char *)b + h.regs_off, (const char *)ch + ch->regs_off,
           h.addrs_off - h.regs_off);
    if (!v->parent) {
        /* the first now: what it lacks was not populated */
        struct ck_reg *br = (struct ck_reg *)((char *)b + h.regs_off);
        for (uint64_t i = 0; i < h.nregs; i++)
            if (br[i].kind & RK_TRACK)
                br[i].kind |= RK_COMPLETE;
    }
    uint64_t *oa = (uint64_t *)((char *)b + h.addrs_off);
    char *od = (char *)b + h.data_off;
    const char *vd = (const char *)vh + vh->data_off;
    const char *cd = (const char *)ch + ch->data_off;
    uint64_t k = 0;
    for (uint64_t i = 0, j = 0; i < vh->npages || j < ch->npages;) {
        if (j < ch->npages && (i == vh->npages || ca[j] <= va[i])) {
            if (i < vh->npages && va[i] == ca[j])
                i++;
            oa[k] = ca[j];
            ck_copy(od + k * PG, cd + j * PG, PG);
            j++;
            k++;
        } else {
            if (through(ch, va[i])) {
                oa[k] = va[i];
                ck_copy(od + k * PG, vd + i * PG, PG);
                k++;
            }
            i++;
        }
    }
    S->used += h.total;
    S->used -= v->bytes + c->bytes;
    ckpt__free(v->blob, v->blob_len, 1);
    ckpt__free(c->blob, c->blob_len, 1);
    c->blob = b;
    c->blob_len = c->bytes = h.total;
    c->npages = n;
    c->parent = h.parent;
    c->flags = (int)h.flags;
    memmove(&S->ent[vi], &S->ent[vi + 1], (size_t)(--S->nent - vi) * sizeof *v);
    return 0;
}

/* Thins the older checkpoints until NEED more bytes fit under the cap:
 * the one whose removal leaves the smallest gap relative to its age goes,
 * which keeps a logarithmic spread. */
int ckpt__make_room(uint64_t need)
{
    for (;;) {
        if (need != UINT64_MAX && S->used + need <= S->cap)
            return 0;
        uint64_t newest = 0;
        for (int i = 0; i < S->nent; i++)
            if (S->ent[i].event != UINT64_MAX && S->ent[i].event > newest)
                newest = S->ent[i].event;
        int best = -1, bestc = -1;
        double score = 0;
        /* the oldest goes last: it anchors the spread */
        for (int pass = 0; pass < 2 && best < 0; pass++)
        for (int i = 0; i < S->nent; i++) {
            struct ck_entry *v = &S->ent[i];
            int ci;
            if (v->id == S->base || !v->blob || nchildren(v->id, &ci) != 1 ||
                !S->ent[ci].blob || (!pass && !v->parent) ||
                !foldable(v->blob, S->ent[ci].blob))
                continue;
            struct ck_entry *p = ckpt__entry(v->parent);
            uint64_t pe = p && p->event != UINT64_MAX ? p->event : 0;
            uint64_t ce = S->ent[ci].event;
            double gap = (double)(ce > pe ? ce - pe : 0) + 1;
            double age = (double)(newest > v->event ? newest - v->event : 0) + 1;
            if (best < 0 || gap / age < score) {
                best = i;
                bestc = ci;
                score = gap / age;
            }
        }
        if (best < 0)
            return -1;
        uint64_t before = S->used;
        if (merge_into_child(best, bestc) < 0)
            return -1;
        ckpt__table_update(0);
        if (need == UINT64_MAX)
            return 0;
        (void)before;
    }
}

int ckpt_delete(long id)
{
    if (!S)
        return -1;
    struct ck_entry *v = ckpt__entry(id);
    if (!v)
        return ckpt__fail("no checkpoint %ld", id);
    int ci = -1, n = nchildren(id, &ci);
    if (n == 0 || (v->in_file && !v->blob)) {
        if (id == S->base)
            S->need_full = 1;
        if (v->blob) {
            S->used -= v->bytes;
            ckpt__free(v->blob, v->blob_len, 1);
        }
        memmove(v, v + 1, (size_t)(S->ent + --S->nent - v) * sizeof *v);
    } else if (n == 1 && v->blob && S->ent[ci].blob &&
               foldable(v->blob, S->ent[ci].blob)) {
        if (id == S->base)
            return ckpt__fail("checkpoint %ld is the state's base: take "
                              "another checkpoint first", id);
        if (merge_into_child((int)(v - S->ent), ci) < 0)
            return ckpt__fail("out of memory");
    } else {
        return ckpt__fail("checkpoint %ld has %d later checkpoints built on "
                          "it", id, n);
    }
    ckpt__table_update(0);
    return 0;
}

int ckpt_forget_since(long id)
{
    int n = 0;
    if (!S)
        return -1;
    for (;;) {
        long newest = -1;
        for (int i = 0; i < S->nent; i++)
            if (S->ent[i].id >= id && S->ent[i].id > newest)
                newest = S->ent[i].id;
        if (newest < 0)
            return n;
        if (ckpt_delete(newest) < 0)
            return -1;
        n++;
    }
}

/* The debugger's forgetting (see ckpt.h): on the private stack, the
 * program's state saved; returning resumes it. */
void ckpt__forget_external(const struct ckpt_xframe *f)
{
    (void)f;
    if (!S)
        return;
    S->msg[0] = '\0';
    ckpt_forget_since(drdb_ckpt_target);
}
