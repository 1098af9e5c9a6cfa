/*
 * MPI_Alloc_mem's small blocks, from an arena of the recorder's at a fixed
 * place, not from MPICH (which takes them from malloc's heap).
 *
 * A program may send the address MPI_Alloc_mem gave it to other ranks, or
 * use it as a displacement in a dynamic window (MPICH's rma/linked_list:
 * each rank attaches blocks and puts their addresses into others'), and
 * the replay gives the block back at the recorded address when that is
 * free (replayer/rpl-mem.c). An address in the recorded heap seldom is:
 * the replay's heap holds other things there, MPICH's own allocations
 * being absent. So blocks up to ARENA_MAX come from chunks mapped at
 * ARENA_BASE (MAP_FIXED_NOREPLACE), away from the heap, the mmap area and
 * the checkpoint library's region, where the replay maps them again. A
 * chunk whose place is taken, or a larger block, goes to MPICH as before.
 * The memory is the program's as any: MPI accepts any memory in
 * windows and buffers. A reused block is zeroed, as the replay's is.
 */
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include "rec.h"

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

#define ARENA_BASE ((uintptr_t)0x4e0000000000)
#define ARENA_CHUNK ((uintptr_t)1 << 20)
#define ARENA_CHUNKS 4096 /* 4 GiB of address space at most */
#define ARENA_MAX (64 * 1024)
#define GRAIN 64 /* block sizes and alignment */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static uintptr_t top = ARENA_BASE; /* the next block's address */
static uintptr_t mapped = ARENA_BASE; /* chunks mapped below this */
static int broken;                 /* a chunk's place was taken */
/* Freed blocks by size (GRAIN units), each holding the next's address. */
static uintptr_t freed[ARENA_MAX / GRAIN + 1];
/* Each live block's size (GRAIN units; 0: none starts there), by its
 * offset in the arena / GRAIN. */
static uint16_t *sizes;
static size_t sizes_cap;

static int in_arena(uintptr_t p)
{
    return p >= ARENA_BASE && p < mapped;
}

/* A block of N bytes (N <= ARENA_MAX), or NULL. */
static void *arena_alloc(size_t n)
{
    size_t k = (n + GRAIN - 1) / GRAIN;
    if (k == 0)
        k = 1;
    void *p = NULL;
    pthread_mutex_lock(&lock);
    if (freed[k]) {
        p = (void *)freed[k];
        freed[k] = *(uintptr_t *)p;
        memset(p, 0, k * GRAIN);
    } else if (!broken) {
        uintptr_t end = top + k * GRAIN;
        while (end > mapped && !broken) {
            if (mapped >= ARENA_BASE + ARENA_CHUNKS * ARENA_CHUNK ||
                mmap((void *)mapped, ARENA_CHUNK, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1,
                     0) != (void *)mapped)
                broken = 1;
            else
                mapped += ARENA_CHUNK;
        }
        size_t slot = (top - ARENA_BASE) / GRAIN;
        if (!broken && util_grow(&sizes, &sizes_cap, slot + 1,
                                 sizeof *sizes) == 0) {
            p = (void *)top;
            top = end;
        }
    }
    if (p)
        sizes[((uintptr_t)p - ARENA_BASE) / GRAIN] = (uint16_t)k;
    pthread_mutex_unlock(&lock);
    return p;
}

void rec_MPI_Alloc_mem(struct rec_call *c, struct args_MPI_Alloc_mem *a)
{
    void *p = a->size >= 0 && a->size <= ARENA_MAX && a->baseptr
        ? arena_alloc((size_t)a->size) : NULL;
    if (p) {
        c->t0 = c->t1 = rec_now();
        c->ret = MPI_SUCCESS;
        *(void **)a->baseptr = p;
    } else {
        rec_pmpi_MPI_Alloc_mem(c, a);
    }
    struct log_rec rec;
    if (rec_frame_MPI_Alloc_mem(c, a, &rec, 0,
                                a->baseptr ? LOG_FIELD_HEAD + 8 : 0)) {
        if (a->baseptr)
            rec_put_raw(&rec, LOG_A_MPI_Alloc_mem_baseptr, 0, a->baseptr, 8);
        rec_end(&rec);
    }
}

/* MPI_Free_mem of BASE: 1 when it was an arena block (now free), else 0
 * (MPICH's). */
int rec_arena_free(void *base)
{
    uintptr_t p = (uintptr_t)base;
    if (!in_arena(p) || (p - ARENA_BASE) % GRAIN)
        return 0;
    pthread_mutex_lock(&lock);
    size_t slot = (p - ARENA_BASE) / GRAIN;
    size_t k = slot < sizes_cap ? sizes[slot] : 0;
    if (k) {
        sizes[slot] = 0;
        *(uintptr_t *)p = freed[k];
        freed[k] = p;
    }
    pthread_mutex_unlock(&lock);
    return k != 0;
}
