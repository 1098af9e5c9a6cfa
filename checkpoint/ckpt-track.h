/*
 * ckpt-track.h - the dirty-page tracking backends (see ckpt-track.c),
 * internal to the checkpoint library: what ckpt-store.c, ckpt-take.c and
 * the restorer call, in three units:
 *   ckpt-track.c       collecting and re-arming (the restorer: no libc);
 *   ckpt-track-uffd.c  opening the uffd backend and /proc/self/pagemap;
 *   ckpt-track-segv.c  the mprotect backend's SIGSEGV handler.
 * Errors: -1 with T->why (struct ck_why, ckpt-int.h) or WHY.
 */
#ifndef DRDB_CKPT_TRACK_H
#define DRDB_CKPT_TRACK_H

#include <stddef.h>
#include <stdint.h>
#include <sys/ioctl.h>

#include "ckpt-int.h"

#pragma GCC visibility push(hidden)

/* ---- userfaultfd and PAGEMAP_SCAN definitions (Linux 6.7 uapi) --------- */

/* Debian 12's headers lack them. */
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

/* ---- ckpt-track-uffd.c ------------------------------------------------- */

/* Opens a userfaultfd in asynchronous write-protect mode and
 * /proc/self/pagemap (kept in T, above the program's descriptors). 0, or
 * -1 with WHY. */
int ckpt__track_uffd_open(struct ckt_state *t, char *why, size_t len);
/* Opens /proc/self/pagemap for the populated-page scans (T->pagemap, -1
 * when it cannot). */
void ckpt__track_pagemap_open(struct ckt_state *t);

/* ---- ckpt-track-segv.c ------------------------------------------------- */

/* Installs the mprotect backend's SIGSEGV handler (on T->altstack) and
 * notes the page of glibc's rseq area. 0, or -1 with WHY. */
int ckpt__track_mprotect_open(struct ckt_state *t, char *why, size_t len);

/* ---- ckpt-track.c (the restorer) --------------------------------------- */

/* mprotect: R as the pieces of its real protections (those armed get it
 * back, with RK_CLEAN) into OUT[MAX]; how many. */
int ckpt__track_split(const struct ckt_state *t, const struct ck_reg *r,
                      struct ck_reg *out, int max);
/* Appends to OUT the pages of tracked region R written since the tracking
 * was armed (with ALL, or when the backend cannot tell: every populated
 * page, and R gets RK_COMPLETE), and arms it again. OUT NULL: only arms.
 * -1 with t->why. */
int ckpt__track_collect(struct ckt_state *t, int backend, struct ck_reg *r,
                        int all, uint64_t *out, uint64_t *n, uint64_t cap);
/* Lifts R's write-tracking before a rollback writes it
 * (ckpt__track_collect arms it again). */
void ckpt__track_unprotect(struct ckt_state *t, int backend,
                           const struct ck_reg *r);
/* mprotect: write-protects every tracked region but the stack. */
void ckpt__track_arm(struct ckt_state *t, const struct ck_reg *r, uint64_t n);

#pragma GCC visibility pop

#endif
