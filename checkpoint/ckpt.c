/*
 * ckpt.c - incremental checkpoints of one process and rollback to them.
 * See ckpt.h for the interface and docs/checkpoints.md for the design.
 *
 * Everything the library keeps is in its own region: a reserve of address
 * space at a fixed address (so that it never moves the program's own
 * mappings, and a shadow replay and the foreground lay out memory alike),
 * whose first part holds the state below and the rest checkpoint data.
 * That region is never saved nor restored; nothing else of the library is
 * in the program's memory but the pointer S, which never changes.
 */
#include <cpuid.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ckpt-sys.h"
#include "ckpt-track.h"
#include "ckpt.h"

#define PG 4096UL
#define RESERVE_LEN (1UL << 40)
#define MAXENT 4096
#define MAXFREE 8192
#define MAXREG 65536
#define STRMAX (4UL << 20)
#define MAPSMAX (16UL << 20)
#define PRIV_STACK (1UL << 20)
#define XCTX_MAX (64UL << 10) /* a frame and an XSAVE area */

static const uintptr_t reserve_hints[] = {0x6a0000000000UL, 0x5a0000000000UL,
                                          0x3a0000000000UL};

/* ---- the file and memory format of one checkpoint ----------------------- */

#define CK_MAGIC "DRDBCKP1"
#define CK_VERSION 1
enum { CKF_EXTERNAL = 1, CKF_FULL = 2 };

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

struct ck_fd {
    int32_t fd, pad;
    uint64_t dev, ino;
    int64_t off;
};

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
    struct ck_fd fds[1024];
    uint64_t nfds;
    uint32_t xsize;                /* XSAVE area size, 0: no XSAVE */
    struct ckpt_xframe xframe;     /* a rollback's target registers */
    char msg[512], target_path[4096], table[1 << 16];
    size_t table_len;
    /* a rollback: the images to restore, newest first */
    const struct ck_hdr *chain[MAXENT];
    uint64_t chain_len[MAXENT];
    uint64_t pcur[MAXENT], rcur[MAXENT]; /* cursors of a walk */
    int nchain, chain_mapped, layout_failed;
    struct ckt_state trk;
};

static struct ck_state *S;
static uintptr_t reserve;
/* Top of the private stack, read by the trampolines. */
__attribute__((visibility("hidden"))) uintptr_t ckpt__tramp_stack;

volatile long drdb_ckpt_target;
volatile uint64_t drdb_ckpt_pc;
/* the same variable, bound locally (ckpt-asm.S addresses it pc-relative) */
extern volatile uint64_t ckpt__pc
    __attribute__((alias("drdb_ckpt_pc"), visibility("hidden")));
/* XSAVE's area, 64-byte aligned in the library's region (ckpt-asm.S) */
__attribute__((visibility("hidden"))) void *ckpt__xarea;
volatile uint64_t drdb_ckpt_event_tag = UINT64_MAX;
volatile long drdb_ckpt_last;
char *drdb_ckpt_target_path;
char *drdb_ckpt_msg;
char *drdb_ckpt_table;

/* Defined by the replay stub; this one serves programs without it. */
__attribute__((weak, noinline)) void drdb_restored_hook(void)
{
    __asm__ volatile("" ::: "memory");
}

int ckpt__save(struct ckpt_ctx *c) __attribute__((returns_twice));
__attribute__((noreturn)) void ckpt__jump(const struct ckpt_ctx *c);
__attribute__((noreturn)) void ckpt__call_on(uintptr_t top, void (*fn)(void *),
                                             void *arg);
void ckpt__take_external(const struct ckpt_xframe *f);
void ckpt__restore_external(const struct ckpt_xframe *f);
__attribute__((noreturn)) void ckpt__xresume(const struct ckpt_xframe *f,
                                             const void *xarea);

static int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int fail(const char *fmt, ...)
{
    if (!S)
        return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(S->msg, sizeof S->msg, fmt, ap);
    va_end(ap);
    return -1;
}

const char *ckpt_error(void)
{
    return S ? S->msg : "the checkpoint library is not started";
}

/* ---- the library's region: state, private stack and a page allocator ---- */

static uint64_t up(uint64_t n, uint64_t a)
{
    return (n + a - 1) & ~(a - 1);
}

/*
 * Checkpoint memory. Freed blocks stay populated for the next checkpoint
 * (first-touch page faults cost 3-4 times the copy itself, on a VM more);
 * beyond KEEP_FREE bytes of them, or for a file's mapping, the pages go
 * back to the kernel and the address range to the reserve.
 */
#define KEEP_FREE (256UL << 20)

/* A block's size: whole pages. */
static uint64_t blk(uint64_t len)
{
    return up(len, PG);
}

static void *ck_alloc_flags(uint64_t len, int populate)
{
    len = blk(len);
    for (int i = 0; i < S->nfree; i++) {
        if (S->freel[i].len < len)
            continue;
        uint64_t a = S->freel[i].a;
        int hot = S->freel[i].hot;
        S->freel[i].a += len;
        S->freel[i].len -= len;
        if (hot)
            S->free_hot -= len;
        if (!S->freel[i].len)
            S->freel[i] = S->freel[--S->nfree];
        if (hot)
            return (void *)a;
        void *p = ck_mmap((void *)a, len, PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED |
                              MAP_NORESERVE | populate, -1, 0);
        return ck_mmap_failed(p) ? NULL : p;
    }
    /* (Transparent huge pages would populate faster, but their direct
     * compaction stalls for 100 ms and more once memory is fragmented.) */
    if (S->bump + len > reserve + RESERVE_LEN)
        return NULL;
    void *p = ck_mmap((void *)S->bump, len, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE,
                      -1, 0);
    if (ck_mmap_failed(p))
        return NULL;
    if (populate)
        ck_sys(SYS_madvise, p, len, MADV_POPULATE_WRITE);
    S->bump += len;
    return p;
}

static void *ck_alloc(uint64_t len)
{
    return ck_alloc_flags(len, MAP_POPULATE);
}

/* KEEP: the block is the library's own anonymous memory, to be reused. */
static void ck_free(void *p, uint64_t len, int keep)
{
    len = blk(len);
    keep = keep && S->free_hot + len <= KEEP_FREE;
    if (!keep)
        ck_mmap(p, len, PROT_NONE,
                MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1,
                0);
    else
        S->free_hot += len;
    if (S->nfree < MAXFREE)
        S->freel[S->nfree++] =
            (typeof(S->freel[0])){(uint64_t)p, len, keep};
}

static int own(uint64_t a)
{
    return a >= reserve && a < reserve + RESERVE_LEN;
}

/* ---- the mappings of the process --------------------------------------- */

static uint64_t hex(const char **p)
{
    uint64_t v = 0;
    for (;; (*p)++) {
        char c = **p;
        int d = c >= '0' && c <= '9'   ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                       : -1;
        if (d < 0)
            return v;
        v = v * 16 + (uint64_t)d;
    }
}

static int read_file(const char *path, char *buf, uint64_t cap, uint64_t *len)
{
    int fd = (int)ck_sys(SYS_open, path, O_RDONLY | O_CLOEXEC, 0);
    if (fd < 0)
        return fail("cannot read %s: %s", path, strerror(-fd));
    uint64_t n = 0;
    for (;;) {
        long r = ck_sys(SYS_read, fd, buf + n, cap - 1 - n);
        if (r <= 0)
            break;
        n += (uint64_t)r;
        if (n >= cap - 1) {
            ck_sys(SYS_close, fd, 0, 0);
            return fail("%s is too large", path);
        }
    }
    ck_sys(SYS_close, fd, 0, 0);
    buf[n] = '\0';
    *len = n;
    return 0;
}

/* Parses /proc/self/maps into S->cur (the library's region and the
 * kernel's vdso, vvar and vsyscall left out), paths into S->str. */
static int read_maps(void)
{
    uint64_t len;
    if (read_file("/proc/self/maps", S->maps, MAPSMAX, &len) < 0)
        return -1;
    S->ncur = 0;
    S->nstr = 1;
    S->str[0] = '\0';
    for (const char *p = S->maps; *p;) {
        const char *eol = strchr(p, '\n');
        if (!eol)
            eol = p + strlen(p);
        struct ck_reg r = {0};
        r.start = hex(&p);
        p++;
        r.end = hex(&p);
        p++;
        char perm[4] = {p[0], p[1], p[2], p[3]};
        p += 5;
        r.off = hex(&p);
        /* dev, inode, then the path after blanks */
        while (p < eol && *p == ' ')
            p++;
        while (p < eol && *p != ' ')
            p++;
        while (p < eol && *p == ' ')
            p++;
        while (p < eol && *p != ' ')
            p++;
        while (p < eol && *p == ' ')
            p++;
        const char *path = p;
        uint64_t plen = (uint64_t)(eol - p);
        p = *eol ? eol + 1 : eol;
        if (own(r.start))
            continue;
        if (plen && path[0] == '[' &&
            (!strncmp(path, "[vdso]", 6) || !strncmp(path, "[vvar", 5) ||
             !strncmp(path, "[vsyscall]", 10)))
            continue;
        r.prot = (perm[0] == 'r' ? PROT_READ : 0) |
                 (perm[1] == 'w' ? PROT_WRITE : 0) |
                 (perm[2] == 'x' ? PROT_EXEC : 0);
        if (perm[3] == 's')
            r.kind |= RK_SHARED;
        if (plen == 6 && !strncmp(path, "[heap]", 6))
            r.kind |= RK_HEAP;
        else if (plen == 7 && !strncmp(path, "[stack]", 7))
            r.kind |= RK_STACK;
        else if (plen && path[0] == '/')
            r.kind |= RK_FILE;
        if (r.kind & RK_FILE) {
            if (S->nstr + plen + 1 > STRMAX)
                return fail("too many mapped files");
            r.path = (uint32_t)S->nstr;
            memcpy(S->str + S->nstr, path, plen);
            S->nstr += plen;
            S->str[S->nstr++] = '\0';
        }
        struct ck_reg piece[64];
        int np = ckt_split(&S->trk, &r, piece, 64);
        for (int i = 0; i < np; i++) {
            struct ck_reg *q = &piece[i];
            if ((q->prot & (PROT_READ | PROT_WRITE)) ==
                    (PROT_READ | PROT_WRITE) &&
                !(q->kind & RK_SHARED))
                q->kind |= RK_TRACK;
            if (!(q->kind & (RK_FILE | RK_HEAP | RK_STACK)) &&
                q->end - q->start >= (1UL << 40))
                q->kind |= RK_HUGE;
            if (S->ncur == MAXREG)
                return fail("more than %d mappings", MAXREG);
            S->cur[S->ncur++] = *q;
        }
    }
    return 0;
}

static int count_threads(void)
{
    int fd = (int)ck_sys(SYS_open, "/proc/self/task",
                         O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
    if (fd < 0)
        return 1;
    char buf[4096];
    int n = 0;
    long r;
    while ((r = ck_sys(SYS_getdents64, fd, buf, sizeof buf)) > 0) {
        for (long o = 0; o < r;) {
            struct dirent64 *d = (struct dirent64 *)(buf + o);
            if (d->d_name[0] != '.')
                n++;
            o += d->d_reclen;
        }
    }
    ck_sys(SYS_close, fd, 0, 0);
    return n;
}

/* The offsets of the open regular files (the library's own fds left out). */
static void read_fds(void)
{
    S->nfds = 0;
    int fd = (int)ck_sys(SYS_open, "/proc/self/fd",
                         O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
    if (fd < 0)
        return;
    char buf[4096];
    long r;
    while ((r = ck_sys(SYS_getdents64, fd, buf, sizeof buf)) > 0) {
        for (long o = 0; o < r; o += ((struct dirent64 *)(buf + o))->d_reclen) {
            const char *nm = ((struct dirent64 *)(buf + o))->d_name;
            if (nm[0] < '0' || nm[0] > '9')
                continue;
            int f = atoi(nm);
            struct stat st;
            /* 0-2: the session's output, which stays printed */
            if (f <= 2 || f == fd || f == S->trk.uffd || f == S->trk.pagemap ||
                ck_sys(SYS_fstat, f, &st, 0) < 0 || !S_ISREG(st.st_mode) ||
                S->nfds == sizeof S->fds / sizeof S->fds[0])
                continue;
            long off = ck_sys(SYS_lseek, f, 0, SEEK_CUR);
            if (off < 0)
                continue;
            S->fds[S->nfds++] = (struct ck_fd){f, 0, st.st_dev, st.st_ino, off};
        }
    }
    ck_sys(SYS_close, fd, 0, 0);
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
    reserve = (uintptr_t)p;
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
    s->bump = reserve + total;
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
    ckt_pagemap_open(&s->trk);
    /* (touched only by the mprotect backend) */
    s->trk.armed = ck_alloc_flags(MAXREG * sizeof(struct ckt_armed), 0);
    s->trk.armed_cap = MAXREG;
    s->trk.altstack = ck_alloc_flags(64 * 1024, 0);
    char why[256] = "";
    if (b == CKPT_AUTO || b == CKPT_UFFD) {
        if (ckt_uffd_open(&s->trk, why, sizeof why) == 0)
            s->backend = CKPT_UFFD;
        else if (b == CKPT_UFFD) {
            snprintf(err, errlen, "the uffd backend is not available: %s", why);
            S = NULL;
            munmap(p, RESERVE_LEN);
            return -1;
        }
    }
    if (!s->backend && b != CKPT_FULL) {
        if (ckt_mprotect_open(&s->trk, why, sizeof why) == 0)
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
            (ckpt__xarea = ck_alloc(rb)))
            s->xsize = rb;
    }
    drdb_ckpt_msg = s->msg;
    drdb_ckpt_target_path = s->target_path;
    drdb_ckpt_table = s->table;
    return 0;
}

/* ---- the page list of a new checkpoint ---------------------------------- */

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
        int rc = ckt_collect(&S->trk, S->backend, r, all,
                             S->pages, &S->npages, S->pages_cap);
        if (rc < 0)
            return fail("%s", S->trk.err);
    }
    if (S->backend == CKPT_MPROTECT)
        ckt_mprotect_arm(&S->trk, S->cur, S->ncur);
    return 0;
}

/* ---- building a checkpoint --------------------------------------------- */

static uint64_t hash64(const void *p, uint64_t n, uint64_t h)
{
    const uint64_t *w = p;
    for (uint64_t i = 0; i < n / 8; i++) {
        h ^= w[i];
        h *= 0x9e3779b97f4a7c15ULL;
        h ^= h >> 29;
    }
    return h;
}

static void layout_sizes(struct ck_hdr *h)
{
    h->regs_off = sizeof *h;
    h->fds_off = h->regs_off + h->nregs * sizeof(struct ck_reg);
    h->str_off = h->fds_off + h->nfds * sizeof(struct ck_fd);
    h->xctx_off = up(h->str_off + h->nstr, 64);
    h->addrs_off = up(h->xctx_off + h->xctx_len, 8);
    h->data_off = up(h->addrs_off + h->npages * 8, PG);
    h->total = h->data_off + h->npages * PG;
}

static uint64_t meta_hash(const struct ck_hdr *h)
{
    struct ck_hdr c = *h;
    c.meta_hash = c.data_hash = 0;
    uint64_t x = hash64(&c, sizeof c, 0x243f6a8885a308d3ULL);
    return hash64((const char *)h + h->regs_off, h->data_off - h->regs_off, x);
}

static const struct ck_reg *regs_of(const struct ck_hdr *h)
{
    return (const void *)((const char *)h + h->regs_off);
}

static struct ck_entry *entry(long id)
{
    for (int i = 0; i < S->nent; i++)
        if (S->ent[i].id == id)
            return &S->ent[i];
    return NULL;
}

static void table_update(int last);
static int make_room(uint64_t need);

static void set_base_layout(const struct ck_reg *regs, uint64_t n)
{
    S->nbase = 0;
    for (uint64_t i = 0; i < n && S->nbase < MAXREG; i++)
        if (regs[i].kind & RK_TRACK)
            S->baselay[S->nbase++] = regs[i];
}

static int write_blob_file(const struct ck_hdr *h, const char *path)
{
    char tmp[4300];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    int fd = (int)ck_sys(SYS_open, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
                         0600);
    if (fd < 0)
        return fail("cannot write %s: %s", tmp, strerror(-fd));
    for (uint64_t o = 0; o < h->total;) {
        long r = ck_sys(SYS_write, fd, (const char *)h + o,
                        h->total - o > (1UL << 30) ? (1UL << 30)
                                                   : h->total - o);
        if (r <= 0) {
            ck_sys(SYS_close, fd, 0, 0);
            ck_sys(SYS_unlink, tmp, 0, 0);
            return fail("cannot write %s: %s", tmp,
                        r < 0 ? strerror((int)-r) : "short write");
        }
        o += (uint64_t)r;
    }
    ck_sys(SYS_close, fd, 0, 0);
    long r = ck_sys(SYS_rename, tmp, path, 0);
    if (r < 0)
        return fail("cannot rename %s: %s", tmp, strerror((int)-r));
    return 0;
}

static void file_name(char *buf, size_t len, const char *dir, long id)
{
    snprintf(buf, len, "%s/ckpt-%06ld.drdbck", dir, id);
}

/* Takes the checkpoint (memory and files) for context CTX (the stub's
 * call), or XF and the XSAVE area (a debugger's, EXTERNAL). */
static long take(const struct ckpt_ctx *ctx, const struct ckpt_xframe *xf,
                 int external, uint64_t event, double time)
{
    if (external && !S->xsize)
        return fail("this processor has no XSAVE: no checkpoint between MPI "
                    "calls");
    if (S->nent == MAXENT && make_room(UINT64_MAX) < 0)
        return fail("too many checkpoints (%d): delete some", MAXENT);
    int n = count_threads();
    if (n > 1)
        return fail("the process has %d threads: checkpoints need a "
                    "single-threaded process", n);
    if (read_maps() < 0)
        return -1;
    int full = S->need_full || !S->base || S->backend == CKPT_FULL;
    if (collect(full) < 0) {
        S->need_full = 1;
        return -1;
    }
    read_fds();
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
    layout_sizes(&h);
    if (!S->dir[0] && S->used + h.total > S->cap && make_room(h.total) < 0) {
        S->need_full = 1;
        return fail("checkpoint memory cap reached: %llu MiB in use by %d "
                    "checkpoints, this one needs %llu MiB (set a higher cap "
                    "with DRDB_CKPT_MEM=MiB, or delete checkpoints)",
                    (unsigned long long)(S->used >> 20), S->nent,
                    (unsigned long long)((h.total + (1 << 20) - 1) >> 20));
    }
    struct ck_hdr *b = ck_alloc(h.total);
    if (!b) {
        S->need_full = 1;
        return fail("out of memory for a checkpoint of %llu MiB",
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
        b->data_hash = hash64(base + h.data_off, h.npages * PG, 0);
        b->meta_hash = meta_hash(b);
        char path[4200];
        file_name(path, sizeof path, S->dir, h.id);
        int rc = write_blob_file(b, path);
        ck_free(b, h.total, 1);
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
    set_base_layout(S->cur, S->ncur);
    drdb_ckpt_last = h.id;
    table_update(1);
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

/* ---- the store: listing, thinning, deleting ----------------------------- */

int ckpt_list(struct ckpt_info *out, int max)
{
    if (!S)
        return 0;
    for (int i = 0; i < S->nent && i < max; i++) {
        struct ck_entry *e = &S->ent[i];
        out[i] = (struct ckpt_info){e->id, e->parent, e->event, e->time,
                                    e->npages, e->bytes,
                                    !!(e->flags & CKF_EXTERNAL), e->in_file};
    }
    return S->nent;
}

uint64_t ckpt_mem_used(void)
{
    return S ? S->used : 0;
}

/* drdb_ckpt_table: one line per checkpoint, "id parent event time pages
 * bytes external in_file pc" (pc: where a debugger's was taken, else 0),
 * for a debugger to read. A new checkpoint adds
 * its line (LAST); thinning and deleting write it anew. */
static void table_line(const struct ck_entry *e)
{
    size_t cap = sizeof S->table;
    if (S->table_len + 160 >= cap)
        return;
    S->table_len += (size_t)snprintf(
        S->table + S->table_len, cap - S->table_len,
        "%ld %ld %lld %.6f %llu %llu %d %d %#llx\n", e->id, e->parent,
        e->event == UINT64_MAX ? -1LL : (long long)e->event, e->time,
        (unsigned long long)e->npages, (unsigned long long)e->bytes,
        !!(e->flags & CKF_EXTERNAL), e->in_file, (unsigned long long)e->pc);
}

static void table_update(int last)
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
    const struct ck_reg *r = regs_of(h);
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
    const struct ck_reg *cr = regs_of(c), *vr = regs_of(v);
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
    layout_sizes(&h);
    struct ck_hdr *b = ck_alloc(h.total);
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
    ck_free(v->blob, v->blob_len, 1);
    ck_free(c->blob, c->blob_len, 1);
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
static int make_room(uint64_t need)
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
            struct ck_entry *p = entry(v->parent);
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
        table_update(0);
        if (need == UINT64_MAX)
            return 0;
        (void)before;
    }
}

int ckpt_delete(long id)
{
    if (!S)
        return -1;
    struct ck_entry *v = entry(id);
    if (!v)
        return fail("no checkpoint %ld", id);
    int ci = -1, n = nchildren(id, &ci);
    if (n == 0 || (v->in_file && !v->blob)) {
        if (id == S->base)
            S->need_full = 1;
        if (v->blob) {
            S->used -= v->bytes;
            ck_free(v->blob, v->blob_len, 1);
        }
        memmove(v, v + 1, (size_t)(S->ent + --S->nent - v) * sizeof *v);
    } else if (n == 1 && v->blob && S->ent[ci].blob &&
               foldable(v->blob, S->ent[ci].blob)) {
        if (id == S->base)
            return fail("checkpoint %ld is the state's base: take another "
                        "checkpoint first", id);
        if (merge_into_child((int)(v - S->ent), ci) < 0)
            return fail("out of memory");
    } else {
        return fail("checkpoint %ld has %d later checkpoints built on it", id,
                    n);
    }
    table_update(0);
    return 0;
}

/* ---- reading checkpoint files ------------------------------------------- */

/* The tables of an image whose sizes were checked: mappings sorted,
 * disjoint, page-aligned, in user space, their names inside the string
 * table; page addresses sorted and aligned; the string table ends in NUL. */
static int well_formed(const struct ck_hdr *h)
{
    const struct ck_reg *r = regs_of(h);
    const char *str = (const char *)h + h->str_off;
    const uint64_t *a = (const void *)((const char *)h + h->addrs_off);
    if (h->nstr && str[h->nstr - 1])
        return 0;
    for (uint64_t i = 0; i < h->nregs; i++)
        if (r[i].start >= r[i].end || (r[i].start | r[i].end) % PG ||
            r[i].end > (1UL << 47) || r[i].path >= (h->nstr ? h->nstr : 1) ||
            (i && r[i].start < r[i - 1].end))
            return 0;
    for (uint64_t i = 0; i < h->npages; i++)
        if (a[i] % PG || a[i] >= (1UL << 47) || (i && a[i] <= a[i - 1]))
            return 0;
    return 1;
}

/* Checks a checkpoint image of LEN bytes (the data hash only when DATA). */
static int check_image(const struct ck_hdr *h, uint64_t len, int data,
                       char *err, size_t errlen, const char *path)
{
    const char *why = NULL;
    if (len < sizeof *h || memcmp(h->magic, CK_MAGIC, 8))
        why = "not a drdb checkpoint";
    else if (h->version != CK_VERSION)
        why = "another version of the checkpoint format";
    else {
        struct ck_hdr c = *h;
        layout_sizes(&c);
        if (h->nregs > MAXREG || h->nfds > 1024 || h->nstr > STRMAX ||
            h->xctx_len > XCTX_MAX || c.xctx_off != h->xctx_off ||
            (!!h->xctx_len != !!(h->flags & CKF_EXTERNAL)) ||
            h->npages > (1UL << 40) / PG || c.total != h->total ||
            c.data_off != h->data_off || c.addrs_off != h->addrs_off ||
            c.regs_off != h->regs_off || c.fds_off != h->fds_off ||
            c.str_off != h->str_off)
            why = "inconsistent header (corrupt)";
        else if (h->total > len)
            why = "truncated";
        else if (meta_hash(h) != h->meta_hash)
            why = "corrupt (metadata checksum)";
        else if (!well_formed(h))
            why = "malformed (mappings, names or pages out of order)";
        else if (data && hash64((const char *)h + h->data_off, h->npages * PG,
                                0) != h->data_hash)
            why = "corrupt (page checksum)";
    }
    if (!why)
        return 0;
    snprintf(err, errlen, "checkpoint file %s: %s", path, why);
    return -1;
}

int ckpt_file_info(const char *path, struct ckpt_info *out, char *err,
                   size_t errlen)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    struct stat st;
    fstat(fd, &st);
    struct ck_hdr h;
    int rc = -1;
    if (pread(fd, &h, sizeof h, 0) != (ssize_t)sizeof h) {
        snprintf(err, errlen, "checkpoint file %s: truncated", path);
    } else if (h.regs_off == sizeof h && h.data_off >= sizeof h &&
               h.data_off <= (64UL << 20) &&
               h.data_off <= (uint64_t)st.st_size) {
        char *m = malloc(h.data_off);
        if (m && pread(fd, m, h.data_off, 0) == (ssize_t)h.data_off &&
            check_image((struct ck_hdr *)m, (uint64_t)st.st_size, 0, err,
                        errlen, path) == 0) {
            *out = (struct ckpt_info){h.id, h.parent, h.event, h.time,
                                      h.npages, h.total,
                                      !!(h.flags & CKF_EXTERNAL), 1};
            rc = 0;
        } else if (!m) {
            snprintf(err, errlen, "out of memory");
        } else if (!err[0]) {
            snprintf(err, errlen, "checkpoint file %s: truncated", path);
        }
        free(m);
    } else {
        check_image(&h, (uint64_t)st.st_size, 0, err, errlen, path);
        if (!err[0])
            snprintf(err, errlen, "checkpoint file %s: corrupt header", path);
    }
    close(fd);
    return rc;
}

/* ---- rollback ------------------------------------------------------------ */

#define chain S->chain
#define chain_len S->chain_len
#define nchain S->nchain
#define chain_mapped S->chain_mapped
#define layout_failed S->layout_failed

static void unmap_chain(void)
{
    for (int i = 0; i < nchain; i++)
        if (chain_mapped)
            ck_free((void *)chain[i], chain_len[i], 0);
    nchain = 0;
    chain_mapped = 0;
}

/* Maps a checkpoint file into the library's region and checks it. */
static const struct ck_hdr *map_file(const char *path, uint64_t *len)
{
    int fd = (int)ck_sys(SYS_open, path, O_RDONLY | O_CLOEXEC, 0);
    if (fd < 0) {
        fail("cannot open checkpoint file %s: %s", path, strerror(-fd));
        return NULL;
    }
    struct stat st;
    ck_sys(SYS_fstat, fd, &st, 0);
    *len = (uint64_t)st.st_size;
    void *p = ck_alloc_flags(*len ? *len : 1, 0); /* the file goes there */
    if (!p) {
        ck_sys(SYS_close, fd, 0, 0);
        fail("out of address space for %s", path);
        return NULL;
    }
    if (*len && ck_mmap_failed(ck_mmap(p, *len, PROT_READ,
                                       MAP_PRIVATE | MAP_FIXED, fd, 0))) {
        ck_sys(SYS_close, fd, 0, 0);
        ck_free(p, *len, 0);
        fail("cannot map %s", path);
        return NULL;
    }
    ck_sys(SYS_close, fd, 0, 0);
    char err[512];
    if (check_image(p, *len, 1, err, sizeof err, path) < 0) {
        ck_free(p, *len, 0);
        fail("%s", err);
        return NULL;
    }
    return p;
}

/* Builds the chain for in-memory checkpoint ID, or the file PATH. */
static int build_chain(long id, const char *path)
{
    nchain = 0;
    chain_mapped = 0;
    if (path) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%s", path);
        char *slash = strrchr(dir, '/');
        if (slash)
            *slash = '\0';
        else
            strcpy(dir, ".");
        chain_mapped = 1;
        char p[4200];
        snprintf(p, sizeof p, "%s", path);
        for (;;) {
            if (nchain == MAXENT)
                return fail("checkpoint chain too long"), unmap_chain(), -1;
            const struct ck_hdr *h = map_file(p, &chain_len[nchain]);
            if (!h)
                return unmap_chain(), -1;
            chain[nchain++] = h;
            if (!h->parent) {
                if (!(h->flags & CKF_FULL))
                    return fail("checkpoint file %s: the first of its chain "
                                "is not a full checkpoint (corrupt)", p),
                           unmap_chain(), -1;
                break;
            }
            file_name(p, sizeof p, dir, (long)h->parent);
        }
        return 0;
    }
    for (long cur = id; cur;) {
        struct ck_entry *e = entry(cur);
        if (!e)
            return fail(cur == id ? "no checkpoint %ld" :
                        "checkpoint %ld is gone", cur);
        if (!e->blob)
            return fail("checkpoint %ld is in a file: restore the file", cur);
        if (nchain == MAXENT)
            return fail("checkpoint chain too long");
        chain[nchain++] = e->blob;
        cur = e->parent;
    }
    return 0;
}

static const uint64_t *addrs_of(const struct ck_hdr *h)
{
    return (const void *)((const char *)h + h->addrs_off);
}

/* The kind of chain member C's mapping at A (0: none); one cursor per
 * member, A only grows during a walk. */
static uint32_t kind_at(int c, uint64_t a)
{
    const struct ck_hdr *h = chain[c];
    const struct ck_reg *r = regs_of(h);
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
    const struct ck_hdr *t = chain[0];
    const struct ck_reg *tr = regs_of(t);
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
                const uint64_t *pa = addrs_of(h);
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
                    addrs_of(chain[c])[S->pcur[c]] == a)
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
    const char *str = (const char *)chain[0] + chain[0]->str_off;
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
        layout_failed = 1;
}

static void die(const char *what)
{
    static const char m[] = "drdb: rollback failed half-way (the process "
                            "cannot go on): ";
    ck_sys(SYS_write, 2, m, sizeof m - 1);
    ck_sys(SYS_write, 2, what, strlen(what));
    ck_sys(SYS_write, 2, "\n", 1);
    ck_sys(SYS_exit_group, 96, 0, 0);
}

/* On the private stack: puts the process in the state of chain[0]. */
static void restore_on_stack(void *arg)
{
    const struct ck_hdr *t = chain[0];
    const struct ck_reg *tr = regs_of(t);
    (void)arg;
    /* 1. the program break */
    if ((uint64_t)ck_sys(SYS_brk, t->brk, 0, 0) != t->brk)
        die("cannot set the program break");
    /* 2. the layout: unmap what did not exist, map what did */
    if (read_maps() < 0)
        die(S->msg);
    for (uint64_t i = 0; i < S->ncur; i++) {
        const struct ck_reg *c = &S->cur[i];
        if (c->kind & (RK_HEAP | RK_STACK))
            continue;
        gaps(c->start, c->end, tr, t->nregs, 0, do_unmap, NULL);
    }
    if (read_maps() < 0)
        die(S->msg);
    layout_failed = 0;
    for (uint64_t i = 0; i < t->nregs; i++)
        if (!(tr[i].kind & (RK_HEAP | RK_STACK)))
            gaps(tr[i].start, tr[i].end, S->cur, S->ncur, 0, do_map, &tr[i]);
    if (layout_failed)
        die("cannot recreate a mapping");
    for (uint64_t i = 0; i < t->nregs; i++)
        if (!(tr[i].kind & RK_STACK))
            ck_sys(SYS_mprotect, tr[i].start, tr[i].end - tr[i].start,
                   tr[i].prot);
    /* 3. the pages (without the write-protection: a fault per page would
     * double the time), 4. the file offsets */
    if (read_maps() < 0)
        die(S->msg);
    for (uint64_t i = 0; i < S->ncur; i++)
        if (S->cur[i].kind & RK_TRACK)
            ckt_unprotect(&S->trk, S->backend, &S->cur[i]);
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
    if (chain_mapped) {
        S->need_full = 1;
        S->base = 0;
    } else {
        S->base = t->id;
        S->need_full = 0;
    }
    /* (S->cur, read before the pages, is still the layout) */
    set_base_layout(tr, t->nregs);
    uint64_t keep = S->npages;
    if (S->backend != CKPT_FULL)
        for (uint64_t i = 0; i < S->ncur; i++)
            if (S->cur[i].kind & RK_TRACK)
                ckt_collect(&S->trk, S->backend, &S->cur[i], 0,
                            NULL, &keep, 0);
    if (S->backend == CKPT_MPROTECT)
        ckt_mprotect_arm(&S->trk, S->cur, S->ncur);
    if (external) {
        /* the registers and XSAVE area it was taken with, in the library's
         * region before the images go */
        memcpy(&S->xframe, (const char *)t + t->xctx_off, sizeof S->xframe);
        memcpy(ckpt__xarea, (const char *)t + t->xctx_off + sizeof S->xframe,
               S->xsize);
    }
    unmap_chain();
    S->msg[0] = '\0'; /* done: a debugger reads it */
    if (!external)
        ckpt__jump(&ctx);
    ckpt__xresume(&S->xframe, ckpt__xarea);
}

/* The code of the checkpoint's process must be where this one's is (a
 * shadow runs with the foreground's layout; another process, with ASLR on,
 * would have its libraries elsewhere). */
static int same_code(void)
{
    const struct ck_hdr *t = chain[0];
    const struct ck_reg *tr = regs_of(t);
    const char *tstr = (const char *)t + t->str_off;
    if (read_maps() < 0)
        return -1;
    for (uint64_t i = 0; i < t->nregs; i++) {
        if (!(tr[i].prot & PROT_EXEC) || !(tr[i].kind & RK_FILE))
            continue;
        int found = 0;
        for (uint64_t j = 0; j < S->ncur && !found; j++)
            found = S->cur[j].start == tr[i].start &&
                    S->cur[j].end == tr[i].end &&
                    (S->cur[j].kind & RK_FILE) &&
                    !strcmp(S->str + S->cur[j].path, tstr + tr[i].path);
        if (!found)
            return fail("the checkpoint comes from a process whose code was "
                        "mapped elsewhere (%s at %#llx): another program, or "
                        "address space randomization on", tstr + tr[i].path,
                        (unsigned long long)tr[i].start);
    }
    return 0;
}

/* A debugger's checkpoint holds its XSAVE area: this processor's must be
 * alike. */
static int same_xsave(void)
{
    const struct ck_hdr *t = chain[0];
    if ((t->flags & CKF_EXTERNAL) &&
        t->xctx_len != sizeof(struct ckpt_xframe) + S->xsize)
        return fail("the checkpoint's register state is of another "
                    "processor (XSAVE area of %llu bytes, here %u)",
                    (unsigned long long)(t->xctx_len -
                                         sizeof(struct ckpt_xframe)),
                    S->xsize);
    return 0;
}

static int prepare(long id, const char *path)
{
    if (!S)
        return -1;
    int n = count_threads();
    if (n > 1)
        return fail("the process has %d threads: cannot roll back", n);
    if (build_chain(id, path) < 0)
        return -1;
    if (same_code() < 0 || same_xsave() < 0) {
        unmap_chain();
        return -1;
    }
    return 0;
}

int ckpt_restore(long id)
{
    if (prepare(id, NULL) < 0)
        return -1;
    ckpt__call_on(ckpt__tramp_stack, restore_on_stack, NULL);
}

int ckpt_restore_file(const char *path)
{
    if (prepare(0, path) < 0)
        return -1;
    ckpt__call_on(ckpt__tramp_stack, restore_on_stack, NULL);
}

/* The debugger's rollback (see ckpt.h): on the private stack, the
 * program's state saved; returning resumes it (the rollback refused, the
 * reason in drdb_ckpt_msg). */
void ckpt__restore_external(const struct ckpt_xframe *f)
{
    long id = drdb_ckpt_target;
    (void)f;
    if (!S)
        return;
    if ((id > 0 ? prepare(id, NULL) : prepare(0, S->target_path)) == 0)
        restore_on_stack(NULL);
}
