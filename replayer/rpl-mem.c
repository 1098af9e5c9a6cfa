/*
 * Memory MPI gives the program (MPI_Alloc_mem, MPI_Win_allocate, a
 * shared-memory window's segment), at the address the recorded process got
 * it when that is free here: a program may send such an address to other
 * ranks, or compare it with the ones they sent (Global Arrays over
 * ARMCI-MPI allgathers its windows' bases), and the log holds the recorded
 * addresses. The pages around it are mapped at that place (MAP_FIXED_
 * NOREPLACE: never over a mapping of the program's); when one is taken,
 * the memory goes elsewhere and the replay says so. docs/replaying.md,
 * "Addresses".
 *
 * A page may hold the ends of two blocks (small ones, from the recorded
 * process's heap): it is unmapped when the last block on it is freed, and
 * zeroed for a new block that reuses it meanwhile.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rpl.h"

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

/* Runs of pages mapped here [lo, hi), and the blocks handed out. */
struct run {
    uintptr_t lo, hi;
};
struct block {
    char *p;
    size_t size;
    int at_recorded; /* in runs, else from posix_memalign */
};
static struct run *runs;
static size_t nruns, runs_cap;
static struct block *blocks;
static size_t nblocks, blocks_cap;
static unsigned said; /* blocks placed elsewhere, said on stderr */

static void need(void *pp, size_t *cap, size_t n, size_t esize)
{
    if (util_grow(pp, cap, n, esize) < 0)
        rpl_fail(NULL, RPL_EXIT_SETUP, "out of memory for MPI's memory");
}

/* The run holding address A, or NULL. */
static const struct run *run_at(uintptr_t a)
{
    for (size_t i = 0; i < nruns; i++)
        if (a >= runs[i].lo && a < runs[i].hi)
            return &runs[i];
    return NULL;
}

/* The start of the first run above A, or END. */
static uintptr_t next_run(uintptr_t a, uintptr_t end)
{
    for (size_t i = 0; i < nruns; i++)
        if (runs[i].lo > a && runs[i].lo < end)
            end = runs[i].lo;
    return end;
}

/* Maps [LO, HI) where it is not ours yet, zeroes what is (of the block
 * [P, P + SIZE)). 0, or -1 when a page is taken by a mapping not ours. */
static int map_at(uintptr_t lo, uintptr_t hi, uintptr_t p, size_t size)
{
    for (uintptr_t a = lo; a < hi;) {
        const struct run *r = run_at(a);
        if (r) {
            uintptr_t from = a > p ? a : p, to = r->hi < p + size
                ? r->hi : p + size;
            if (to > from)
                memset((void *)from, 0, to - from);
            a = r->hi;
            continue;
        }
        uintptr_t b = next_run(a, hi);
        void *m = mmap((void *)a, b - a, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
                       -1, 0);
        if (m != (void *)a) {
            if (m != MAP_FAILED) /* a kernel that took it as a hint */
                munmap(m, b - a);
            return -1;
        }
        need(&runs, &runs_cap, nruns + 1, sizeof *runs);
        runs[nruns++] = (struct run){a, b};
        a = b;
    }
    return 0;
}

void *rpl_mem_alloc(struct rpl_call *c, uint64_t recorded, size_t size)
{
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    char *p = NULL;
    int at = 0;
    if (!size)
        size = 1;
    if (recorded && recorded + size > recorded &&
        recorded + size < UINTPTR_MAX - page) {
        uintptr_t lo = (uintptr_t)recorded & ~(page - 1);
        uintptr_t hi = ((uintptr_t)recorded + size + page - 1) & ~(page - 1);
        at = map_at(lo, hi, (uintptr_t)recorded, size) == 0;
        if (at)
            p = (char *)(uintptr_t)recorded;
    }
    if (!at) {
        void *m = NULL;
        if (posix_memalign(&m, page, size) != 0)
            rpl_fail(c, RPL_EXIT_SETUP, "cannot allocate %zu bytes of MPI's "
                     "memory", size);
        p = memset(m, 0, size);
        if (recorded && said++ < 3)
            fprintf(stderr, "drdb-replay: rank %d: event %" PRIu64 " (%s): "
                    "the address the recorded process got (%#" PRIx64 ", "
                    "%zu bytes) is taken in this replay; the memory is at "
                    "%p instead (a program that sends this address to other "
                    "ranks, or compares it with theirs, replays "
                    "otherwise)%s\n", drdb_rank, c->ev.index,
                    c->ev.desc ? c->ev.desc->name : "?", recorded, size,
                    (void *)p, said == 3 ? "; further ones are not said" : "");
    }
    need(&blocks, &blocks_cap, nblocks + 1, sizeof *blocks);
    blocks[nblocks++] = (struct block){p, size, at};
    return p;
}

/* Whether a block placed at its recorded address touches page A. */
static int page_used(uintptr_t a, uintptr_t page)
{
    for (size_t i = 0; i < nblocks; i++) {
        uintptr_t p = (uintptr_t)blocks[i].p;
        if (blocks[i].at_recorded && p < a + page && p + blocks[i].size > a)
            return 1;
    }
    return 0;
}

/* Unmaps [LO, HI), pages of runs, and takes them out of the runs. */
static void unmap_pages(uintptr_t lo, uintptr_t hi)
{
    if (hi <= lo)
        return;
    munmap((void *)lo, hi - lo);
    for (size_t i = 0; i < nruns; i++) {
        struct run r = runs[i];
        if (r.hi <= lo || r.lo >= hi)
            continue;
        if (r.lo < lo && r.hi > hi) { /* split in two */
            need(&runs, &runs_cap, nruns + 1, sizeof *runs);
            runs[i].hi = lo;
            runs[nruns++] = (struct run){hi, r.hi};
        } else if (r.lo < lo) {
            runs[i].hi = lo;
        } else if (r.hi > hi) {
            runs[i].lo = hi;
        } else {
            runs[i--] = runs[--nruns];
        }
    }
}

int rpl_mem_free(void *p)
{
    for (size_t i = 0; i < nblocks; i++) {
        if (blocks[i].p != p)
            continue;
        struct block b = blocks[i];
        blocks[i] = blocks[--nblocks];
        if (!b.at_recorded) {
            free(b.p);
            return 0;
        }
        /* its pages, but an end page another block still uses */
        uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
        uintptr_t lo = (uintptr_t)b.p & ~(page - 1);
        uintptr_t hi = ((uintptr_t)b.p + b.size + page - 1) & ~(page - 1);
        if (page_used(lo, page))
            lo += page;
        if (hi > lo && page_used(hi - page, page))
            hi -= page;
        unmap_pages(lo, hi);
        return 0;
    }
    return -1;
}
