/*
 * zdtm.c - a zero-downtime-migration style check of the checkpoint library:
 * state in every kind of memory, a checkpoint, changes to all of it (new
 * and removed mappings, brk growth and shrink, realloc growth, file
 * offsets), another checkpoint, more changes, then rollbacks to each
 * checkpoint with every region compared byte for byte.
 *
 *   zdtm [basic|threads|cap|files DIR [DAMAGED...]|sanitized]
 *
 * The phase survives a rollback through a pipe (kernel state that the
 * rollback leaves alone). Exit 0 when every check passed.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ckpt.h"

#define BIG (8u << 20)   /* mmap-backed malloc */
#define SMALL 100
#define MAPLEN (64u * 4096)

static char gdata[3 * 4096 + 17] = {1};  /* .data */
static char gbss[5 * 4096 + 3];          /* .bss */
static char cold[16u << 20];             /* written once, before checkpoint 1 */
static char untouched[64u << 20];        /* never populated at checkpoint 1 */
static char *remapped;                   /* filled at 1, fresh (zero) at 2 */
static __thread char tls[4096 + 11];
static char *small[SMALL];
static char *big, *grown, *newmap, *oldmap, *brkp;
static size_t grown_len;
static int fdf, pipefd[2], failures;

static void fill(void *p, size_t n, unsigned seed)
{
    unsigned char *c = p;
    uint32_t x = seed * 2654435761u + 1;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        c[i] = (unsigned char)x;
    }
}

static void check(const char *what, const void *p, size_t n, unsigned seed)
{
    unsigned char *want = malloc(n);
    fill(want, n, seed);
    if (memcmp(p, want, n)) {
        size_t i = 0;
        while (((const unsigned char *)p)[i] == want[i])
            i++;
        fprintf(stderr, "FAIL %s (seed %u): differs at byte %zu of %zu\n",
                what, seed, i, n);
        failures++;
    }
    free(want);
}

/* Everything the program has, in state SEED. STACK is the caller's array. */
static void set_all(unsigned seed, char *stack, size_t sn)
{
    fill(gdata, sizeof gdata, seed + 1);
    fill(gbss, sizeof gbss, seed + 2);
    fill(tls, sizeof tls, seed + 3);
    for (int i = 0; i < SMALL; i++)
        fill(small[i], 24 + (size_t)i * 7, seed + 10 + (unsigned)i);
    fill(big, BIG, seed + 4);
    fill(grown, grown_len, seed + 5);
    fill(stack, sn, seed + 6);
    fill(brkp, 3 * 4096, seed + 7);
    if (oldmap)
        fill(oldmap, MAPLEN, seed + 8);
}

static void check_all(unsigned seed, const char *stack, size_t sn)
{
    check("data", gdata, sizeof gdata, seed + 1);
    check("bss", gbss, sizeof gbss, seed + 2);
    check("tls", tls, sizeof tls, seed + 3);
    for (int i = 0; i < SMALL; i++)
        check("small malloc", small[i], 24 + (size_t)i * 7,
              seed + 10 + (unsigned)i);
    check("big malloc", big, BIG, seed + 4);
    check("realloc", grown, grown_len, seed + 5);
    check("stack", stack, sn, seed + 6);
    check("brk", brkp, 3 * 4096, seed + 7);
    check("mapping", oldmap, MAPLEN, seed + 8);
}

static int mapped(const void *p)
{
    unsigned char v;
    return mincore((void *)((uintptr_t)p & ~4095ul), 4096, &v) == 0;
}

static long take(uint64_t ev)
{
    long id = ckpt_take(ev, 0);
    if (id < 0) {
        fprintf(stderr, "FAIL checkpoint: %s\n", ckpt_error());
        exit(1);
    }
    return id;
}

static void restore(long id)
{
    if (write(pipefd[1], &id, sizeof id) != sizeof id)
        exit(2);
    ckpt_restore(id);
    fprintf(stderr, "FAIL restore %ld: %s\n", id, ckpt_error());
    exit(1);
}

static void *idle(void *a)
{
    pause();
    return a;
}

static int basic(void)
{
    char stack[3 * 4096 + 5];
    for (int i = 0; i < SMALL; i++)
        small[i] = malloc(24 + (size_t)i * 7);
    big = malloc(BIG);
    grown_len = 5000;
    grown = malloc(grown_len);
    oldmap = mmap(NULL, MAPLEN, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    brkp = sbrk(3 * 4096);
    char tmpl[] = "/tmp/drdb-zdtm-XXXXXX";
    fdf = mkstemp(tmpl);
    unlink(tmpl);
    if (write(fdf, gbss, sizeof gbss) < 0)
        return 1;
    lseek(fdf, 1234, SEEK_SET);
    set_all(1, stack, sizeof stack);
    fill(cold, sizeof cold, 99);
    remapped = mmap(NULL, 8 * 4096, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    fill(remapped, 8 * 4096, 77);
    void *brk1 = sbrk(0);

    long c1 = take(1);
    long resumed = 0;
    if (c1 == CKPT_RESUMED) {
        if (read(pipefd[0], &resumed, sizeof resumed) != sizeof resumed)
            return 2;
    }
    if (resumed == 1) {
        /* first: checking allocates (and glibc may then grow the heap) */
        if (sbrk(0) != brk1) {
            fprintf(stderr, "FAIL brk not restored: %p, was %p\n", sbrk(0), brk1);
            failures++;
        }
        check_all(1, stack, sizeof stack);
        check("cold", cold, sizeof cold, 99);
        check("remapped", remapped, 8 * 4096, 77);
        if (untouched[12345] || untouched[40u << 20]) {
            fprintf(stderr, "FAIL a page populated after the checkpoint "
                    "kept its bytes\n");
            failures++;
        }
        if (lseek(fdf, 0, SEEK_CUR) != 1234) {
            fprintf(stderr, "FAIL file offset not restored\n");
            failures++;
        }
        if (newmap && mapped(newmap)) {
            fprintf(stderr, "FAIL a mapping made after the checkpoint "
                    "survived\n");
            failures++;
        }
        printf("rollback to 1: %s (%s)\n", failures ? "FAILED" : "ok",
               ckpt_backend_name());
        fflush(stdout); /* the stdio buffer is program memory too */
        /* and forward again, to the later checkpoint */
        restore(2);
    }
    /* Mutate everything; remove and add mappings; grow brk, realloc. */
    set_all(2, stack, sizeof stack);
    untouched[12345] = 7;
    munmap(remapped, 8 * 4096);
    mmap(remapped, 8 * 4096, PROT_READ | PROT_WRITE,
         MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    munmap(oldmap + 4096, 4096); /* a hole, remapped on rollback */
    mmap(oldmap + 4096, 4096, PROT_READ | PROT_WRITE,
         MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    fill(oldmap, MAPLEN, 2 + 8);
    newmap = mmap(NULL, MAPLEN, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    newmap[5] = 42;
    grown_len = 300000;
    grown = realloc(grown, grown_len);
    fill(grown, grown_len, 2 + 5);
    sbrk(64 * 4096);
    lseek(fdf, 99, SEEK_SET);
    long c2 = take(2);
    if (c2 == CKPT_RESUMED) {
        if (read(pipefd[0], &resumed, sizeof resumed) != sizeof resumed ||
            resumed != 2)
            return 2;
        check_all(2, stack, sizeof stack);
        check("cold", cold, sizeof cold, 99);
        for (int i = 0; i < 8 * 4096; i++)
            if (remapped[i]) {
                fprintf(stderr, "FAIL a mapping made anew before checkpoint "
                        "2 shows checkpoint 1's bytes\n");
                failures++;
                break;
            }
        if (untouched[12345] != 7) {
            fprintf(stderr, "FAIL a page written between the checkpoints\n");
            failures++;
        }
        if (lseek(fdf, 0, SEEK_CUR) != 99) {
            fprintf(stderr, "FAIL file offset at 2\n");
            failures++;
        }
        if (!mapped(newmap) || newmap[5] != 42) {
            fprintf(stderr, "FAIL mapping of checkpoint 2\n");
            failures++;
        }
        printf("roll forward to 2: %s\n", failures ? "FAILED" : "ok");
        return failures ? 1 : 0;
    }

    if (c1 != 1 || c2 != 2) {
        fprintf(stderr, "FAIL ids %ld %ld\n", c1, c2);
        return 1;
    }
    struct ckpt_info inf[4];
    int n = ckpt_list(inf, 4);
    printf("checkpoints: %d; 1: %llu pages, 2: %llu pages\n", n,
           (unsigned long long)inf[0].pages, (unsigned long long)inf[1].pages);
    /* The 4096 pages of cold are in the first only (but with copies of
     * everything each time). */
    if (n != 2 || (strcmp(ckpt_backend_name(), "full") &&
                   inf[1].pages + 3000 > inf[0].pages)) {
        fprintf(stderr, "FAIL checkpoint 2 should be incremental\n");
        return 1;
    }
    /* The table a debugger reads (ckpt-file.h): ckpt_list() line by line. */
    const char *line = drdb_ckpt_table;
    for (int i = 0; i < n; i++) {
        struct ckpt_info t;
        if (!line || ckpt_table_parse(line, &t) < 0 || t.id != inf[i].id ||
            t.parent != inf[i].parent || t.event != inf[i].event ||
            t.pages != inf[i].pages || t.bytes != inf[i].bytes ||
            t.external != inf[i].external || t.in_file != inf[i].in_file ||
            t.pc != inf[i].pc) {
            fprintf(stderr, "FAIL the checkpoint table's line %d: %s\n",
                    i + 1, line ? line : "(none)");
            return 1;
        }
        line = strchr(line, '\n');
        line = line ? line + 1 : NULL;
    }
    if (!line || *line) {
        fprintf(stderr, "FAIL the checkpoint table has more lines: %s\n",
                line ? line : "(none)");
        return 1;
    }
    /* Sparse: untouched memory is not stored. */
    if (inf[0].pages > 16384) {
        fprintf(stderr, "FAIL checkpoint 1 stored %llu pages: never "
                "populated ones too\n", (unsigned long long)inf[0].pages);
        return 1;
    }
    /* More changes, then back. */
    set_all(3, stack, sizeof stack);
    untouched[40u << 20] = 9;
    fill(remapped, 8 * 4096, 3);
    munmap(oldmap, MAPLEN);
    oldmap = NULL;
    sbrk(-(intptr_t)(60 * 4096));
    free(big);
    big = malloc(BIG);
    restore(1);
    return 1;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "basic";
    if (!strcmp(mode, "sanitized")) {
#if defined(__SANITIZE_ADDRESS__)
        return 0;
#else
        return 1;
#endif
    }
    char err[256];
    struct ckpt_opts o = {0};
    if (!strcmp(mode, "files"))
        o.dir = argv[2];
    if (ckpt_init(&o, err, sizeof err) < 0) {
        fprintf(stderr, "FAIL init: %s\n", err);
        return 1;
    }
    if (pipe(pipefd) < 0)
        return 1;
    if (!strcmp(mode, "threads")) {
        pthread_t t;
        pthread_create(&t, NULL, idle, NULL);
        long id = ckpt_take(0, 0);
        printf("take with 2 threads: %ld: %s\n", id, ckpt_error());
        return id == -1 && strstr(ckpt_error(), "2 threads") ? 0 : 1;
    }
    if (!strcmp(mode, "cap")) {
        /* DRDB_CKPT_MEM=... is set small by the test: checkpoints are
         * refused with a clear error, or older ones thinned; then a
         * rollback to the oldest one left must give its state back. */
        static char *m;
        static int refused, ok, i;
        m = malloc(4u << 20);
        for (i = 0; i < 12; i++) {
            fill(m + (i % 4) * (1u << 20), 1u << 20, (unsigned)i);
            long id = ckpt_take((uint64_t)i * 10, 0);
            if (id == CKPT_RESUMED) {
                /* quarter q last filled at the largest j <= i, j % 4 == q */
                for (int q = 0; q < 4 && q <= i; q++)
                    check("thinned chain", m + q * (1u << 20), 1u << 20,
                          (unsigned)(i - ((i - q) % 4)));
                printf("rollback to the oldest (event %d): %s\n", i * 10,
                       failures ? "FAILED" : "ok");
                free(m);
                return failures ? 1 : 0;
            }
            if (id > 0)
                ok++;
            else if (strstr(ckpt_error(), "memory cap"))
                refused++;
            else
                fprintf(stderr, "take: %s\n", ckpt_error());
        }
        struct ckpt_info inf[64];
        int n = ckpt_list(inf, 64);
        printf("taken %d refused %d kept %d, %llu MiB in use:", ok, refused,
               n, (unsigned long long)(ckpt_mem_used() >> 20));
        for (int k = 0; k < n && k < 64; k++)
            printf(" %llu", (unsigned long long)inf[k].event);
        printf("\nlast error: %s\n", ckpt_error());
        fflush(stdout);
        if (n > 0)
            ckpt_restore(inf[0].id);
        free(m);
        return 0;
    }
    if (!strcmp(mode, "files")) {
        static char *m;
        m = malloc(1u << 20);
        fill(m, 1u << 20, 1);
        long id = ckpt_take(5, 0);
        long back = 0;
        if (id == CKPT_RESUMED) {
            if (read(pipefd[0], &back, sizeof back) != sizeof back)
                return 2;
            check("heap from file", m, 1u << 20, 1);
            printf("restored from file: %s\n", failures ? "FAILED" : "ok");
            return failures ? 1 : 0;
        }
        fill(m, 1u << 20, 2);
        long id2 = ckpt_take(6, 0);
        fill(m, 1u << 20, 3);
        char path[4200];
        for (int i = 3; i < argc; i++) {
            /* damaged files first: each must be refused, nothing changed */
            if (ckpt_restore_file(argv[i]) == 0)
                return 1;
            printf("refused: %s\n", ckpt_error());
            check("heap after a refused restore", m, 1u << 20, 3);
        }
        snprintf(path, sizeof path, "%s/ckpt-%06ld.drdbck", argv[2], id);
        printf("files %ld %ld\n", id, id2);
        fflush(stdout);
        if (getenv("ZDTM_FILES_ONLY"))
            return 0;
        back = 1;
        if (write(pipefd[1], &back, sizeof back) != sizeof back)
            return 2;
        ckpt_restore_file(path);
        fprintf(stderr, "FAIL restore file: %s\n", ckpt_error());
        return 1;
    }
    return basic();
}
