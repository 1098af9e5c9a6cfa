/*
 * ckpt-int.h - the checkpoint library's internals, shared between its
 * units (ckpt.h is the API; docs/checkpoints.md the design). Every symbol
 * here is hidden (never exported, never called through a PLT) and named
 * ckpt__ (or ck_/ckt_ for types and inline helpers).
 *
 * The units, in three libraries:
 *
 *   libdrdb-ckpt-file.a: what a front end may link (ckpt-file.h)
 *     ckpt-file.c        the file format: layout sizes, checksums, the
 *                        checks of an image, writing a file, its header
 *     ckpt-track-uffd.c  opening the uffd backend, and its probe
 *
 *   libdrdb-ckpt-restorer.a: the restorer, built with its own flags and
 *   calling no libc function (checkpoint/meson.build says which flags and
 *   why; tests/checkpoint/test-ckpt-units.sh checks it)
 *     ckpt-restorer.c    a rollback from the first change of the memory on
 *     ckpt-proc.c        the process as /proc/self shows it: mappings,
 *                        threads, open files
 *     ckpt-track.c       collecting the dirty pages, re-arming the tracking
 *     ckpt-region.c      the library's region: the state, a page allocator;
 *                        the few words it keeps in program memory
 *     ckpt-asm.S         register contexts, the stack switch, the
 *                        debugger's trampolines
 *
 *   libdrdb-ckpt.a: the library (the two above, whole, and)
 *     ckpt-store.c       start; listing, thinning and deleting checkpoints;
 *                        the error message
 *     ckpt-take.c        taking a checkpoint
 *     ckpt-restore.c     a rollback's checks, before anything is changed
 *     ckpt-track-segv.c  the mprotect backend's SIGSEGV handler
 *
 * Where the restorer's line falls. A rollback first checks everything it
 * can while the process is intact (ckpt-restore.c: the chain of
 * checkpoints is complete, its files map and their checksums hold, the
 * code is mapped where the checkpoint's was, the XSAVE layouts agree) and
 * may use libc for that: its errors are messages and the process goes on.
 * From ckpt__restore_on_stack() on, on the private stack, the program's
 * memory is being replaced: its break, mappings, pages, TLS (errno, the
 * stack protector's canary, libc's own state) are in flux, so nothing
 * there may call into libc, whose state is part of what is being
 * overwritten. What that code calls is the restorer: reading the mapping
 * table again (ckpt-proc.c), lifting and re-arming the dirty-page tracking
 * (ckpt-track.c), freeing the mapped chain (ckpt-region.c), the final
 * jump (ckpt-asm.S). The same functions serve the take side too, which
 * may call them as it likes; the restorer never calls the other units
 * (but for the debugger's trampolines in ckpt-asm.S, whose C halves,
 * ckpt__take_external, ckpt__restore_external and ckpt__forget_external,
 * run before anything changes).
 *
 * The restorer cannot format messages (no snprintf, no strerror): its
 * errors are a constant text and an errno (struct ck_why), which the
 * calling unit formats (ckpt__fail_why) or the restorer writes raw (die).
 */
#ifndef DRDB_CKPT_INT_H
#define DRDB_CKPT_INT_H

#include <stddef.h>
#include <stdint.h>

#pragma GCC visibility push(hidden)

#define PG 4096UL
#define RESERVE_LEN (1UL << 40)
#define MAXENT 4096
#define MAXFREE 8192
#define MAXREG 65536 /* a literal: CK_STR(MAXREG) is in a message */
#define MAXFDS 1024
#define STRMAX (4UL << 20)
#define MAPSMAX (16UL << 20)
#define PRIV_STACK (1UL << 20)
#define XCTX_MAX (64UL << 10) /* a frame and an XSAVE area */

#define CK_STR_(x) #x
#define CK_STR(x) CK_STR_(x)

/* ---- the format of one checkpoint, in memory and in a file ------------- */

#define CK_MAGIC "DRDBCKP1"
#define CK_VERSION 1
enum { CKF_EXTERNAL = 1, CKF_FULL = 2 };

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

/* An open regular file's offset. */
struct ck_fd {
    int32_t fd, pad;
    uint64_t dev, ino;
    int64_t off;
};

/*
 * A checkpoint image: this header, then at the offsets it gives the
 * mapping table (struct ck_reg, sorted), the file offsets (struct ck_fd),
 * the path strings, for a debugger's checkpoint its struct ckpt_xframe and
 * XSAVE area, the sorted page addresses, and the pages, page-aligned
 * (ckpt__layout_sizes computes the offsets from the counts).
 */
struct ck_hdr {
    char magic[8];
    uint32_t version, flags;
    int64_t id, parent;
    uint64_t event;
    double time;
    struct ckpt_ctx ctx;
    uint64_t brk;
    uint64_t nregs, nfds, nstr, npages;
    uint64_t regs_off, fds_off, str_off, addrs_off, data_off, total;
    uint64_t meta_hash, data_hash;
    /* a debugger's checkpoint: its struct ckpt_xframe and XSAVE area */
    uint64_t xctx_off, xctx_len;
};

static inline const struct ck_reg *ck_regs(const struct ck_hdr *h)
{
    return (const void *)((const char *)h + h->regs_off);
}

static inline const uint64_t *ck_addrs(const struct ck_hdr *h)
{
    return (const void *)((const char *)h + h->addrs_off);
}

/* ---- ckpt-file.c: the file format -------------------------------------- */

uint64_t ckpt__hash64(const void *p, uint64_t n, uint64_t h);
/* Sets H's offsets and total from its counts. */
void ckpt__layout_sizes(struct ck_hdr *h);
/* The checksum of H's header and tables (up to the pages). */
uint64_t ckpt__meta_hash(const struct ck_hdr *h);
/* Checks an image of LEN bytes (mapped from PATH): sizes, checksums (the
 * pages' only when DATA), the tables' order. 0, or -1 with ERR. */
int ckpt__check_image(const struct ck_hdr *h, uint64_t len, int data,
                      char *err, size_t errlen, const char *path);
/* DIR/ckpt-<id>.drdbck */
void ckpt__file_name(char *buf, size_t len, const char *dir, long id);
/* Writes image H to PATH (through PATH.tmp, renamed). 0, or -1 with ERR. */
int ckpt__file_write(const struct ck_hdr *h, const char *path, char *err,
                     size_t errlen);

/* ---- the library's state (ckpt-region.c) ------------------------------- */

/* An error where no libc may be called: a constant text and an errno
 * (0: none), formatted "WHAT: strerror(ERR)" by ckpt__fail_why. */
struct ck_why {
    const char *what;
    int err;
};

/* The state of the dirty-page tracking (ckpt-track*.c). */
struct ckt_armed {
    uint64_t start, end;
    int prot;
};

_Static_assert(offsetof(struct ck_reg, end) == 8 &&
                   offsetof(struct ckt_armed, end) == 8,
               "ckt_first_after reads the end of a range there");

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

struct ckt_state {
    int uffd, pagemap, no_scan;
    struct ckt_armed *armed; /* mprotect: sorted */
    uint64_t narmed, armed_cap;
    uint64_t rseq_page;      /* mprotect: never protected (0: none) */
    void *altstack;
    struct ck_why why;       /* the last error */
};

/* One checkpoint of the store. */
struct ck_entry {
    uint64_t pc; /* a debugger's checkpoint: where it was taken */
    long id, parent;
    uint64_t event;
    double time;
    uint64_t npages, bytes;
    int flags, in_file;
    struct ck_hdr *blob; /* NULL when in a file */
    uint64_t blob_len;
};

/* Everything the library keeps, at the start of its region. */
struct ck_state {
    int backend, nent, nfree;
    uint64_t cap, used, bump;
    long next_id, base; /* base: the checkpoint the state descends from */
    int need_full;
    char dir[4096];
    struct ck_entry ent[MAXENT];
    struct { uint64_t a, len; int hot; } freel[MAXFREE];
    uint64_t free_hot; /* bytes of populated free blocks */
    /* the layout of the base checkpoint's tracked regions */
    struct ck_reg *baselay;
    uint64_t nbase;
    /* scratch */
    char maps[MAPSMAX];
    struct ck_reg cur[MAXREG];
    uint64_t ncur;
    char str[STRMAX];
    uint64_t nstr;
    uint64_t *pages, npages, pages_cap;
    struct ck_fd fds[MAXFDS];
    uint64_t nfds;
    uint32_t xsize;                /* XSAVE area size, 0: no XSAVE */
    struct ckpt_xframe xframe;     /* a rollback's target registers */
    char msg[512], target_path[4096], table[1 << 16];
    size_t table_len;
    struct ck_why why;             /* the restorer's last error */
    /* a rollback: the images to restore, newest first */
    const struct ck_hdr *chain[MAXENT];
    uint64_t chain_len[MAXENT];
    uint64_t pcur[MAXENT], rcur[MAXENT]; /* cursors of a walk */
    int nchain, chain_mapped, layout_failed;
    struct ckt_state trk;
};

/* The state: the one pointer of the library in program memory, which
 * never changes once set (NULL: not started). */
extern struct ck_state *ckpt__S;
#define S ckpt__S
/* The library's region: [ckpt__reserve, ckpt__reserve + RESERVE_LEN). */
extern uintptr_t ckpt__reserve;
/* Top of the private stack, read by the trampolines. */
extern uintptr_t ckpt__tramp_stack;
/* XSAVE's area, 64-byte aligned in the library's region (ckpt-asm.S). */
extern void *ckpt__xarea;

/* Checkpoint memory in the library's region: whole pages, populated
 * (MAP_POPULATE in FLAGS) or not. NULL when the region is full. */
void *ckpt__alloc_flags(uint64_t len, int populate);
void *ckpt__alloc(uint64_t len);
/* KEEP: the block is the library's own anonymous memory, to be reused. */
void ckpt__free(void *p, uint64_t len, int keep);

/* ---- ckpt-proc.c: the process as /proc/self shows it ------------------- */

/* Parses /proc/self/maps into S->cur (the library's region and the
 * kernel's vdso, vvar and vsyscall left out), paths into S->str. 0, or -1
 * with S->why. */
int ckpt__read_maps(void);
int ckpt__count_threads(void);
/* The offsets of the open regular files into S->fds (0-2 and the
 * library's own descriptors left out). */
void ckpt__read_fds(void);

/* ---- ckpt-restorer.c: a rollback, once it changes the memory ----------- */

/* S->baselay: the tracked regions of REGS (the base checkpoint's). */
void ckpt__set_base_layout(const struct ck_reg *regs, uint64_t n);
/* Forgets S->chain (unmapping its files). */
void ckpt__unmap_chain(void);
/* On the private stack: puts the process in the state of S->chain[0] and
 * resumes it there (does not return; a failure half-way ends the process,
 * saying why). */
__attribute__((noreturn)) void ckpt__restore_on_stack(void *arg);

/* ---- ckpt-asm.S -------------------------------------------------------- */

int ckpt__save(struct ckpt_ctx *c) __attribute__((returns_twice));
__attribute__((noreturn)) void ckpt__jump(const struct ckpt_ctx *c);
__attribute__((noreturn)) void ckpt__call_on(uintptr_t top, void (*fn)(void *),
                                             void *arg);
__attribute__((noreturn)) void ckpt__xresume(const struct ckpt_xframe *f,
                                             const void *xarea);
/* The C halves of the debugger's trampolines (ckpt-take.c,
 * ckpt-restore.c): on the private stack, the program's registers in F and
 * ckpt__xarea; returning resumes the program. */
void ckpt__take_external(const struct ckpt_xframe *f);
void ckpt__restore_external(const struct ckpt_xframe *f);
void ckpt__forget_external(const struct ckpt_xframe *f);

/* ---- ckpt-store.c ------------------------------------------------------ */

/* Sets ckpt_error()'s message; -1. */
int ckpt__fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same from a restorer's error. */
int ckpt__fail_why(const struct ck_why *w);
struct ck_entry *ckpt__entry(long id);
/* Thins older checkpoints until NEED more bytes fit under the cap
 * (UINT64_MAX: thins one). 0, or -1 when nothing more can go. */
int ckpt__make_room(uint64_t need);
/* Rewrites drdb_ckpt_table, or only adds the newest line (LAST). */
void ckpt__table_update(int last);

#pragma GCC visibility pop

#endif
