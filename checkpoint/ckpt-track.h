/*
 * ckpt-track.h - the checkpoint library's internals shared between the
 * store (ckpt.c) and the dirty-page tracking backends (ckpt-track.c).
 */
#ifndef DRDB_CKPT_TRACK_H
#define DRDB_CKPT_TRACK_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "ckpt.h"

/* Saved by ckpt__save (ckpt-asm.S relies on this layout). */
struct ckpt_ctx {
    uint64_t rbx, rbp, r12, r13, r14, r15, rsp, rip;
    uint32_t mxcsr;
    uint16_t fpucw, pad;
};

/* The whole register state a debugger's trampoline saved (ckpt-asm.S):
 * rax rbx rcx rdx rsi rdi rbp rsp r8-r15, rflags, the pc; XSAVE's area
 * goes with it. */
struct ckpt_xframe {
    uint64_t gpr[16], rflags, rip;
};

/* One mapping. Tracked ones (private, readable and writable) have their
 * pages saved; the others only their place in the layout. */
enum {
    RK_FILE = 1,    /* a file's mapping; path is set */
    RK_HEAP = 2,    /* [heap] */
    RK_STACK = 4,   /* [stack] */
    RK_SHARED = 8,  /* MAP_SHARED: never restored */
    RK_TRACK = 16,  /* pages saved */
    RK_CLEAN = 32,  /* mprotect backend: not written since armed */
    RK_COMPLETE = 64, /* every populated page saved in this checkpoint: a
                         page it lacks was not populated then */
    RK_HUGE = 128,  /* anonymous, a TiB or more: a reservation (a
                       sanitizer's shadow, an allocator's arena), its
                       populated pages saved whole each time, not tracked */
};
struct ck_reg {
    uint64_t start, end, off;
    uint32_t prot, kind, path, pad; /* path: offset in the string table */
};

struct ckt_armed {
    uint64_t start, end;
    int prot;
};

_Static_assert(offsetof(struct ck_reg, end) == 8 &&
                   offsetof(struct ckt_armed, end) == 8,
               "ckt_first_after reads the end of a range there");

struct ckt_state {
    int uffd, pagemap, no_scan;
    struct ckt_armed *armed; /* mprotect: sorted */
    uint64_t narmed, armed_cap;
    void *altstack;
    char err[256];
};

/* Of N ranges sorted by address (elements of STRIDE bytes that start with
 * uint64_t start, end: struct ck_reg, struct ckt_armed), the index of the
 * first that ends after A (N: none). */
static inline uint64_t ckt_first_after(const void *arr, uint64_t n,
                                       size_t stride, uint64_t a)
{
    const char *p = arr;
    uint64_t lo = 0, hi = n;
    while (lo < hi) {
        uint64_t m = (lo + hi) / 2;
        if (((const uint64_t *)(const void *)(p + m * stride))[1] <= a)
            lo = m + 1;
        else
            hi = m;
    }
    return lo;
}

int ckt_uffd_open(struct ckt_state *t, char *why, size_t len);
int ckt_mprotect_open(struct ckt_state *t, char *why, size_t len);
/* mprotect: R as the pieces of its real protections (those armed get it
 * back, with RK_CLEAN) into OUT[MAX]; how many. */
int ckt_split(const struct ckt_state *t, const struct ck_reg *r,
              struct ck_reg *out, int max);
/* Appends to OUT the pages of tracked region R written since the tracking
 * was armed (with ALL, or when the backend cannot tell: every populated
 * page, and R gets RK_COMPLETE), and arms it again. OUT NULL: only arms.
 * -1 with t->err. */
int ckt_collect(struct ckt_state *t, int backend, struct ck_reg *r, int all,
                uint64_t *out, uint64_t *n, uint64_t cap);
/* Lifts R's write-tracking before a rollback writes it (ckt_collect arms
 * it again). */
void ckt_unprotect(struct ckt_state *t, int backend, const struct ck_reg *r);
/* Opens /proc/self/pagemap for ckt_collect's populated-page scans. */
void ckt_pagemap_open(struct ckt_state *t);
/* mprotect: write-protects every tracked region but the stack. */
void ckt_mprotect_arm(struct ckt_state *t, const struct ck_reg *r, uint64_t n);

#endif
