/*
 * bench-ckpt.c - the checkpoint library's costs (checkpoint/), one dirty-page
 * backend per process (ckpt_init can be called once):
 *
 *   bench-ckpt uffd|mprotect|full [PARTS]
 *
 * PARTS: some of the letters abc (default all): tests/bench/bench-ckpt.sh
 * runs each part in its own process, so that a crash in one leaves the
 * others' numbers.
 *
 * a. The BT case (the paper's Table 6): a 68 MB working set (17,408 pages
 *    of 4 KiB, malloc'ed), rewritten whole before each of 11 checkpoints
 *    (plus small changes in .bss and a small malloc'ed block); then
 *    rollbacks to the 1st, 6th and 11th: the time of each ckpt_take, the
 *    rollback time (ckpt_restore called until ckpt_take returns
 *    CKPT_RESUMED) and the pages the rollback copied. The contents are
 *    checked after each rollback (exit 1 when wrong). Target: rollback of
 *    the 68 MB working set < 50 ms.
 * b. The first write into a page after a checkpoint: one byte into each
 *    page of a populated 256 MiB region right after a checkpoint, then the
 *    same loop again (pages already writable): ns/page and the difference.
 * c. The dirty-list collection: a checkpoint right after another with a
 *    populated 1 GiB region left untouched (minus the same pair without the
 *    region: the cost per GiB), and with every page of it written (then a
 *    copy of 1 GiB: ms and GiB/s). Then one rollback to the newest
 *    checkpoint with nothing written since: its cost with 1 GiB mapped.
 *
 * A rollback restores the program's memory, stdio buffers included, so
 * stdout is flushed before each; the phase and the start time cross it in
 * a pipe (kernel state, left alone). The last line, "SUMMARY k=v ...", is
 * for tests/bench/bench-ckpt.sh.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "ckpt.h"

#define PG 4096UL
#define WS_PAGES 17408UL /* 68 MB */
#define NCKPT 11
#define B_LEN (256UL << 20)
#define C_LEN (1UL << 30)
#define ROUNDS 3

static int pfd[2];
static char summary[2048];
static size_t nsum;

/* small changes elsewhere: .bss and a small heap block */
static uint64_t g_iter, g_small[512];
static uint64_t *heap_small;

struct msg {
    int phase;          /* 0-2: part a's rollbacks; 100: part c's */
    long ids[NCKPT + 1];
    double take_ms[NCKPT + 1], rb_ms[3]; /* part a's results so far */
    struct timespec t0;
};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double since(const struct timespec *t0)
{
    return now() - ((double)t0->tv_sec + t0->tv_nsec * 1e-9);
}

static void sum(const char *fmt, double v)
{
    nsum += (size_t)snprintf(summary + nsum, sizeof summary - nsum, fmt, v);
}

static __attribute__((noreturn)) void die(const char *what)
{
    printf("FAIL: %s: %s\n", what, ckpt_error());
    fflush(stdout);
    exit(1);
}

static int cmpd(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmpd);
    return v[n / 2];
}

/* The working set's content for iteration SEED. */
static inline uint64_t pat(uint64_t seed, uint64_t i)
{
    return (seed * 0x9e3779b97f4a7c15ULL) ^ (i * 0xbf58476d1ce4e5b9ULL);
}

static void fill(uint64_t *w, uint64_t seed)
{
    for (uint64_t i = 0; i < WS_PAGES * PG / 8; i++)
        w[i] = pat(seed, i);
}

static void verify(const uint64_t *w, uint64_t seed)
{
    for (uint64_t i = 0; i < WS_PAGES * PG / 8; i++)
        if (w[i] != pat(seed, i)) {
            printf("FAIL: after the rollback to the checkpoint of iteration "
                   "%llu, word %llu (page %llu) of the working set is %#llx, "
                   "not %#llx\n", (unsigned long long)seed,
                   (unsigned long long)i, (unsigned long long)(i * 8 / PG),
                   (unsigned long long)w[i],
                   (unsigned long long)pat(seed, i));
            fflush(stdout);
            exit(1);
        }
    if (g_iter != seed || g_small[seed] != seed * 3 || heap_small[seed] != seed) {
        printf("FAIL: after the rollback to iteration %llu: small state "
               "%llu %llu %llu\n", (unsigned long long)seed,
               (unsigned long long)g_iter, (unsigned long long)g_small[seed],
               (unsigned long long)heap_small[seed]);
        fflush(stdout);
        exit(1);
    }
}

/* Pages stored in the chain of ID (sum over it), and in its root (full). */
static void chain_pages(long id, uint64_t *sum_pages, uint64_t *root_pages,
                        int *len)
{
    struct ckpt_info inf[64];
    int n = ckpt_list(inf, 64);
    *sum_pages = *root_pages = 0;
    *len = 0;
    for (long cur = id; cur;) {
        int i;
        for (i = 0; i < n && inf[i].id != cur; i++)
            ;
        if (i == n)
            break;
        *sum_pages += inf[i].pages;
        *root_pages = inf[i].pages;
        ++*len;
        cur = inf[i].parent;
    }
}

/* Newest first, so that no deletion merges a checkpoint into its child. */
static void delete_all(void)
{
    struct ckpt_info inf[64];
    int n = ckpt_list(inf, 64);
    for (int i = (n < 64 ? n : 64) - 1; i >= 0; i--)
        if (ckpt_delete(inf[i].id) < 0)
            die("ckpt_delete");
}

static __attribute__((noreturn)) void rollback(struct msg *m, int phase,
                                               long id)
{
    fflush(stdout);
    m->phase = phase;
    clock_gettime(CLOCK_MONOTONIC, &m->t0);
    if (write(pfd[1], m, sizeof *m) != (ssize_t)sizeof *m)
        die("pipe");
    ckpt_restore(id);
    die("ckpt_restore");
}

/* ---- a. the BT case ----------------------------------------------------- */

static const int targets[3] = {1, 6, 11};

static __attribute__((noinline)) void part_a(void)
{
    char *raw = malloc(WS_PAGES * PG + PG);
    heap_small = malloc(64 * sizeof *heap_small);
    if (!raw || !heap_small)
        die("malloc");
    uint64_t *ws = (uint64_t *)(((uintptr_t)raw + PG - 1) & ~(PG - 1));
    printf("== a. BT case: %lu pages (%.1f MiB) rewritten before each of %d "
           "checkpoints, then rollbacks\n", WS_PAGES, WS_PAGES * PG / 1048576.0,
           NCKPT);
    printf("%-6s %10s %12s %10s\n", "ckpt", "take_ms", "pages_saved",
           "MiB_saved");
    fflush(stdout);
    struct msg m = {0};
    double *take_ms = m.take_ms;
    for (uint64_t it = 1; it <= NCKPT; it++) {
        fill(ws, it);
        g_iter = it;
        g_small[it] = it * 3;
        heap_small[it] = it;
        fflush(stdout); /* else a rollback prints it again */
        double t0 = now();
        long id = ckpt_take(it, (double)it);
        double t1 = now();
        if (id == CKPT_RESUMED) {
            struct msg r;
            double dt = 0;
            if (read(pfd[0], &r, sizeof r) != (ssize_t)sizeof r)
                die("pipe");
            dt = since(&r.t0);
            verify(ws, it);
            uint64_t sp, rp;
            int len;
            chain_pages(r.ids[it], &sp, &rp, &len);
            printf("rollback to ckpt %2llu (taken in %6.2f ms): %7.2f ms, "
                   "%llu pages restored (%.1f MiB: the whole image, as many "
                   "as its full root holds; chain of %d checkpoints, %llu "
                   "pages stored in them), content checked\n",
                   (unsigned long long)it, r.take_ms[it], dt * 1e3, (unsigned long long)rp,
                   rp * PG / 1048576.0,
                   len, (unsigned long long)sp);
            r.rb_ms[r.phase] = dt * 1e3;
            if (r.phase < 2)
                rollback(&r, r.phase + 1, r.ids[targets[r.phase + 1]]);
            /* the 11th: part a is over (the summary is program memory:
               written once, now) */
            double inc[NCKPT];
            for (int i = 0; i < NCKPT - 1; i++)
                inc[i] = r.take_ms[i + 2];
            sum("take_full_ms=%.3f ", r.take_ms[1]);
            sum("take_inc_ms=%.3f ", median(inc, NCKPT - 1));
            for (int i = 0; i < 3; i++) {
                char k[64];
                snprintf(k, sizeof k, "rb%d_ms=%%.3f ", targets[i]);
                sum(k, r.rb_ms[i]);
            }
            break;
        }
        if (id < 0)
            die("ckpt_take");
        m.ids[it] = id;
        take_ms[it] = (t1 - t0) * 1e3;
        struct ckpt_info inf[64];
        int n = ckpt_list(inf, 64);
        uint64_t pages = n ? inf[(n < 64 ? n : 64) - 1].pages : 0;
        printf("%-6llu %10.2f %12llu %10.1f\n", (unsigned long long)it,
               take_ms[it], (unsigned long long)pages, pages * PG / 1048576.0);
        if (it == NCKPT) {
            printf("checkpoint memory in use: %.1f MiB\n",
                   ckpt_mem_used() / 1048576.0);
            rollback(&m, 0, m.ids[targets[0]]);
        }
    }
    delete_all();
    free(raw);
}

/* ---- b. first write after a checkpoint ---------------------------------- */

static double touch(volatile char *p, uint64_t len, char v)
{
    double t0 = now();
    for (uint64_t o = 0; o < len; o += PG)
        p[o] = v;
    return now() - t0;
}

static __attribute__((noinline)) void part_b(void)
{
    char *p = mmap(NULL, B_LEN, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        die("mmap");
    memset(p, 1, B_LEN);
    double first[ROUNDS], again[ROUNDS], take[ROUNDS];
    uint64_t np = B_LEN / PG;
    for (int r = 0; r < ROUNDS; r++) {
        double t0 = now();
        if (ckpt_take(100 + r, 0) <= 0)
            die("ckpt_take");
        take[r] = now() - t0;
        first[r] = touch(p, B_LEN, (char)(2 + r)) / np * 1e9;
        again[r] = touch(p, B_LEN, (char)(20 + r)) / np * 1e9;
        delete_all();
    }
    double f = median(first, ROUNDS), a = median(again, ROUNDS);
    printf("== b. first write per page after a checkpoint (populated "
           "256 MiB, %lu pages; median of %d)\n", np, ROUNDS);
    printf("first write after ckpt_take: %8.1f ns/page\n", f);
    printf("same loop again (writable):  %8.1f ns/page\n", a);
    printf("first-write cost:            %8.1f ns/page (ckpt_take before: "
           "%.1f ms)\n", f - a, median(take, ROUNDS) * 1e3);
    sum("first_ns=%.1f ", f);
    sum("again_ns=%.1f ", a);
    sum("fw_cost_ns=%.1f ", f - a);
    munmap(p, B_LEN);
}

/* ---- c. dirty-list collection ------------------------------------------- */

/* The time of a checkpoint taken right after another (seconds). */
static double pair(uint64_t ev)
{
    if (ckpt_take(ev, 0) <= 0)
        die("ckpt_take");
    double t0 = now();
    if (ckpt_take(ev + 1, 0) <= 0)
        die("ckpt_take");
    return now() - t0;
}

static __attribute__((noinline)) void part_c(void)
{
    double base[ROUNDS], clean[ROUNDS], dirty[ROUNDS];
    for (int r = 0; r < ROUNDS; r++) {
        base[r] = pair(200);
        delete_all();
    }
    char *p = mmap(NULL, C_LEN, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        die("mmap");
    memset(p, 1, C_LEN);
    for (int r = 0; r < ROUNDS; r++) {
        clean[r] = pair(300);
        touch(p, C_LEN, (char)(5 + r));
        double t0 = now();
        if (ckpt_take(302, 0) <= 0)
            die("ckpt_take");
        dirty[r] = now() - t0;
        delete_all();
    }
    double b = median(base, ROUNDS) * 1e3, c = median(clean, ROUNDS) * 1e3,
           d = median(dirty, ROUNDS) * 1e3;
    printf("== c. checkpoint right after another (median of %d)\n", ROUNDS);
    printf("without the 1 GiB region:             %8.2f ms\n", b);
    printf("1 GiB populated, nothing written:     %8.2f ms -> collection "
           "%.2f ms/GiB\n", c, c - b);
    printf("1 GiB populated, every page written:  %8.2f ms -> %.2f GiB/s\n",
           d, 1e3 / d);
    sum("base_ms=%.3f ", b);
    sum("clean_ms=%.3f ", c);
    sum("collect_ms_per_gib=%.3f ", c - b);
    sum("dirty_ms=%.3f ", d);
    sum("dirty_gibs=%.3f ", 1e3 / d);

    /* a rollback to the newest checkpoint, nothing written since */
    if (ckpt_take(400, 0) <= 0)
        die("ckpt_take");
    struct msg m = {0};
    fflush(stdout);
    long id = ckpt_take(401, 0);
    if (id == CKPT_RESUMED) {
        struct msg r;
        if (read(pfd[0], &r, sizeof r) != (ssize_t)sizeof r)
            die("pipe");
        double dt = since(&r.t0) * 1e3;
        if (p[0] != (char)(5 + ROUNDS - 1))
            die("content after the rollback");
        printf("rollback to the newest checkpoint, nothing written since, "
               "1 GiB mapped: %.2f ms\n", dt);
        sum("rb_idle_gib_ms=%.3f ", dt);
        delete_all();
        munmap(p, C_LEN);
        return;
    }
    if (id < 0)
        die("ckpt_take");
    rollback(&m, 100, id);
}

int main(int argc, char **argv)
{
    struct ckpt_opts o = {0};
    const char *parts = argc > 2 ? argv[2] : "abc";
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: bench-ckpt uffd|mprotect|full [abc]\n");
        return 2;
    }
    o.backend = !strcmp(argv[1], "uffd")       ? CKPT_UFFD
                : !strcmp(argv[1], "mprotect") ? CKPT_MPROTECT
                : !strcmp(argv[1], "full")     ? CKPT_FULL
                                               : CKPT_AUTO;
    if (o.backend == CKPT_AUTO) {
        fprintf(stderr, "bench-ckpt: unknown backend %s\n", argv[1]);
        return 2;
    }
    o.mem_cap = 8UL << 30;
    char err[512];
    if (ckpt_init(&o, err, sizeof err) < 0) {
        printf("backend %s: not available: %s\n", argv[1], err);
        printf("SUMMARY backend=%s unavailable\n", argv[1]);
        return 0;
    }
    if (pipe(pfd) < 0)
        die("pipe");
    printf("backend %s (mem cap 8 GiB)\n", ckpt_backend_name());
    if (strchr(parts, 'a'))
        part_a();
    if (strchr(parts, 'b'))
        part_b();
    if (strchr(parts, 'c'))
        part_c();
    printf("SUMMARY backend=%s %s\n", ckpt_backend_name(), summary);
    return 0;
}
