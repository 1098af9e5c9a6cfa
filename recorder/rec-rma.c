/*
 * One-sided communication (RMA): what MPI writes into this process's memory
 * outside the calls that return it, logged at the synchronization calls
 * that make it visible (docs/log-format.md, "One-sided communication").
 *
 * Two tables, both allocated only when they grow (windows are created
 * rarely; the tables keep their capacity):
 *
 *  - regions: the memory other ranks can write, MPI_Win_create's buffer,
 *    MPI_Win_allocate's, each buffer MPI_Win_attach'ed to a dynamic window.
 *    Each has a shadow: a copy of its bytes as last logged. A region's
 *    number (the elem of its WINDIFF fields) is its rank in the order this
 *    process created regions, from 0.
 *  - pending results: the buffers MPI writes when an operation this process
 *    started completes (MPI_Get's origin buffer; MPI_Get_accumulate's,
 *    MPI_Fetch_and_op's and MPI_Compare_and_swap's result), numbered in the
 *    order the operations started, from 0. The request-based MPI_Rget and
 *    MPI_Rget_accumulate go to the request table instead, and their
 *    Wait/Test call logs the buffer.
 *
 * The record of a synchronization call on a window carries, after its
 * arguments: one DATA field (arg LOG_ARG_NONE, elem = the operation's
 * number) per pending result the call completed, then one WINDIFF field per
 * region of the window whose bytes differ from the shadow; the shadow is
 * then the logged bytes. MPI_Barrier diffs every window: other ranks'
 * passive-target writes, completed by their MPI_Win_unlock or
 * MPI_Win_flush, are visible here after a barrier.
 *
 * Shared-memory windows (MPI_Win_allocate_shared) are regions too, but
 * rec-shm.c logs their changes, at every synchronizing call: the records
 * of the synchronization calls here say so (REC_SYNC).
 */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <malloc.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "drdb_mpi_abi.h"
#include "rec.h"
#include "util.h"

/* ---- the tables ---------------------------------------------------------- */

struct region {
    char *base;
    size_t size;
    uint8_t *shadow; /* SIZE bytes: the region as last logged */
    uint64_t id;     /* the elem of its WINDIFF fields */
    MPI_Win win;
    int allocated;   /* MPI_Win_allocate's memory: gone after MPI_Win_free */
    int watch;       /* its slot in heap_watch, or -1 */
};

struct result {
    struct log_buf b; /* LOG_BUF_COLL: b.n x b.type at b.buf */
    MPI_Win win;
    int target;
    int own_type;     /* b.type is the recorder's copy of the program's */
    uint64_t seq;     /* the elem of its DATA field */
};

static struct region *regions;
static size_t nregions, regions_cap;
static uint64_t next_region;
static struct result *results;
static size_t nresults, results_cap;
static uint64_t next_result;

/* Which pending results a synchronization call completes. */
enum {
    DONE_NONE = INT_MIN, /* none (lock, post, start, wait, sync, barrier) */
    DONE_ALL,            /* every one on the window (fence, complete, ...) */
    /* else: those to this target rank (unlock, flush, flush_local) */
};

/*
 * The program's memory under a window can be a block of malloc's heap
 * that the program frees before the window (MPICH's test suite does):
 * free keeps such a block mapped, and malloc writes its own list pointers
 * into it, which region_check's msync cannot tell from a window's change
 * (logged, the replay would write them into its own heap). So free and
 * realloc are interposed, and a call that gives back a block holding a
 * window region's base marks the region's slot here; region_check then
 * takes the region as gone. free runs in any thread at any time: the
 * table is fixed and read without locks; a region beyond its slots is
 * looked at by msync only (docs/replaying.md).
 */
#define HEAP_WATCH 64
static struct {
    _Atomic uintptr_t base; /* the region's base, 0: a free slot */
    atomic_int freed;       /* its block was given back */
} heap_watch[HEAP_WATCH];
static atomic_int heap_watched; /* slots in use */

static int watch_add(const void *base)
{
    for (int i = 0; i < HEAP_WATCH; i++) {
        uintptr_t none = 0;
        atomic_store(&heap_watch[i].freed, 0);
        if (atomic_compare_exchange_strong(&heap_watch[i].base, &none,
                                           (uintptr_t)base)) {
            atomic_fetch_add(&heap_watched, 1);
            return i;
        }
    }
    return -1;
}

static void watch_drop(struct region *g)
{
    if (g->watch >= 0) {
        atomic_store(&heap_watch[g->watch].base, 0);
        atomic_fetch_sub(&heap_watched, 1);
        g->watch = -1;
    }
}

static int watch_freed(const struct region *g)
{
    return g->watch >= 0 && atomic_load(&heap_watch[g->watch].freed);
}

/* The slots (a bit each) whose base lies in the block at P (its size as
 * the allocator says, asked only when a base lies above P). */
static size_t block_size(void *p);
static uint64_t watch_in(void *p)
{
    uintptr_t lo = (uintptr_t)p;
    uint64_t in = 0;
    size_t n = 0;
    for (int i = 0; i < HEAP_WATCH; i++) {
        uintptr_t b = atomic_load_explicit(&heap_watch[i].base,
                                           memory_order_relaxed);
        if (!b || b < lo)
            continue;
        if (!n && !(n = block_size(p)))
            return 0;
        if (b - lo < n)
            in |= UINT64_C(1) << i;
    }
    return in;
}

static void watch_mark(uint64_t in)
{
    for (int i = 0; in; i++, in >>= 1)
        if (in & 1)
            atomic_store(&heap_watch[i].freed, 1);
}

/* The real functions, found once; before they are (dlsym may itself free
 * on the way), a block is not given back: a few bytes kept. */
static _Thread_local volatile int finding; /* volatile: dlsym may call free */
#define REAL_ALLOC(ret, name, params)                                      \
    static ret(*real_##name) params;                                      \
    if (!real_##name && !finding) {                                        \
        finding = 1;                                                       \
        real_##name = (ret(*) params)dlsym(RTLD_NEXT, #name);              \
        finding = 0;                                                       \
    }

static size_t block_size(void *p)
{
    REAL_ALLOC(size_t, malloc_usable_size, (void *));
    return real_malloc_usable_size ? real_malloc_usable_size(p) : 0;
}

static int watching(const void *p)
{
    return p && atomic_load_explicit(&heap_watched, memory_order_relaxed);
}

void free(void *p)
{
    REAL_ALLOC(void, free, (void *));
    if (watching(p))
        watch_mark(watch_in(p));
    if (real_free)
        real_free(p);
}

void *realloc(void *p, size_t n)
{
    REAL_ALLOC(void *, realloc, (void *, size_t));
    if (!real_realloc)
        return NULL;
    /* a block that moves is given back */
    uint64_t in = watching(p) ? watch_in(p) : 0;
    void *q = real_realloc(p, n);
    if (in && q != p && (q || !n))
        watch_mark(in);
    return q;
}

uint64_t rec_rma_region_id(void)
{
    return next_region++;
}

/* Room for NEED elements in *PP for call FN (out of memory: rec_fail). */
static void need(int fn, void *pp, size_t *cap, size_t n, size_t esize)
{
    if (util_grow(pp, cap, n, esize) < 0)
        rec_fail(fn, "out of memory for the RMA window table" REC_NO_MEMORY);
}

/* A new region of WIN at BASE. Its shadow starts as a copy of the memory
 * (the program's own buffer: the replay has the same bytes), as SHADOW
 * when given (a copy taken before the call: taken over), or as zeros for
 * MPI_Win_allocate's memory (the replay allocates zeroed memory; the
 * creation record then logs the difference). */
static struct region *region_add_shadow(int fn, MPI_Win win, void *base,
                                        size_t size, int allocated,
                                        uint8_t *shadow)
{
    need(fn, &regions, &regions_cap, nregions + 1, sizeof *regions);
    struct region *g = &regions[nregions++];
    g->base = base;
    g->size = base ? size : 0;
    g->shadow = NULL;
    g->id = next_region++;
    g->win = win;
    g->allocated = allocated;
    g->watch = g->size && !allocated ? watch_add(base) : -1;
    if (g->size && shadow) {
        g->shadow = shadow;
    } else if (g->size) {
        g->shadow = allocated ? calloc(1, g->size) : malloc(g->size);
        if (!g->shadow)
            rec_fail(fn, "out of memory for an RMA window's shadow copy (%zu "
                     "bytes, the window's size)" REC_NO_MEMORY, g->size);
        if (!allocated)
            memcpy(g->shadow, base, g->size);
    }
    return g;
}

static struct region *region_add(int fn, MPI_Win win, void *base,
                                 size_t size, int allocated)
{
    return region_add_shadow(fn, win, base, size, allocated, NULL);
}

/* Whether G's memory is still mapped: msync fails with ENOMEM on a range
 * holding unmapped pages (and does nothing else on private memory). */
static int region_mapped(const struct region *g)
{
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t lo = (uintptr_t)g->base & ~(page - 1);
    return msync((void *)lo, (uintptr_t)g->base + g->size - lo,
                 MS_ASYNC) == 0 || errno != ENOMEM;
}

/* G's memory is gone: never read nor logged again (the region keeps its
 * number and its window until MPI_Win_detach or MPI_Win_free). */
static void region_gone(struct region *g)
{
    watch_drop(g);
    free(g->shadow);
    g->shadow = NULL;
    g->size = 0;
}

/*
 * The program's own memory (MPI_Win_create's, attached buffers) can go
 * before its window: MPICH's test suite frees a window's buffer, or the
 * MPI_Win_allocate or shared window whose memory it used, before the
 * window, and the barriers, detaches and frees that follow must not read
 * it (SIGSEGV). So each such region is looked at (one msync) before it is
 * compared; MPI_Win_allocate's memory lives as long as its window.
 * A block of malloc's heap stays mapped when freed: free marks it
 * (heap_watch, above).
 */
static void region_check(struct region *g)
{
    if (g->size && !g->allocated && (watch_freed(g) || !region_mapped(g)))
        region_gone(g);
}

/* MPI gave back [LO, LO + SIZE) (a window of its memory was freed): the
 * regions of other windows inside are gone, even if the addresses are
 * mapped again later (MPI's next window often lands there). */
static void regions_gone_in(const char *lo, size_t size)
{
    for (size_t i = 0; i < nregions && size; i++) {
        struct region *g = &regions[i];
        if (g->size && !g->allocated && g->base < lo + size &&
            lo < g->base + g->size)
            region_gone(g);
    }
}

static void region_drop(struct region *g)
{
    watch_drop(g);
    free(g->shadow);
    size_t i = (size_t)(g - regions);
    memmove(g, g + 1, (nregions - i - 1) * sizeof *g);
    nregions--;
}

/* MPI lets the program free a derived datatype as soon as the operation
 * using it has started: the buffer is packed at the epoch's end through a
 * copy of the type (contiguous(1, TYPE): the same type map and extent,
 * and no attribute callbacks of the program's run). MPICH keeps the kind
 * of a handle in bits 30-31: 1 = builtin. */
static void result_add(int fn, MPI_Win win, int target, void *buf, int64_t n,
                       MPI_Datatype type)
{
    need(fn, &results, &results_cap, nresults + 1, sizeof *results);
    struct result *r = &results[nresults++];
    MPI_Datatype copy;
    r->own_type = !DRDB_MPI_HANDLE_BUILTIN(type) &&
                  PMPI_Type_contiguous(1, type, &copy) == MPI_SUCCESS &&
                  PMPI_Type_commit(&copy) == MPI_SUCCESS;
    r->b = (struct log_buf){.buf = buf, .n = n,
                            .type = (uint32_t)(r->own_type ? copy : type),
                            .req = (uint32_t)MPI_REQUEST_NULL,
                            .shape = LOG_BUF_COLL};
    r->win = win;
    r->target = target;
    r->seq = next_result++;
}

static int completes(const struct result *r, MPI_Win win, int done)
{
    return r->win == win && done != DONE_NONE &&
           (done == DONE_ALL || r->target == done);
}

/* ---- logging ------------------------------------------------------------- */

/* Room for G's WINDIFF; appends it (log/log-codec.h). */
static size_t diff_room(const struct region *g)
{
    return log_windiff_room(g->size);
}

static void put_diff(struct log_rec *rec, struct region *g)
{
    log_put_windiff(rec, g->id, g->base, g->shadow, g->size);
}

/* Room for the pending results of WIN that DONE completes. */
static size_t results_room(MPI_Win win, int done)
{
    size_t room = 0;
    for (size_t i = 0; i < nresults; i++)
        if (completes(&results[i], win, done))
            room += LOG_FIELD_HEAD +
                    rec_pack_room(rec_buf_bytes(&results[i].b, NULL),
                                  (MPI_Datatype)results[i].b.type);
    return room;
}

/* Logs the pending results of WIN that DONE completes, each a DATA field
 * (an empty one for an empty buffer: the replay forgets the operation when
 * its field comes), and forgets them. */
static void put_results(struct log_rec *rec, MPI_Win win, int done)
{
    size_t k = 0;
    for (size_t i = 0; i < nresults; i++) {
        struct result *r = &results[i];
        if (!completes(r, win, done)) {
            results[k++] = *r;
            continue;
        }
        int64_t bytes = rec_buf_bytes(&r->b, NULL);
        if (bytes > 0)
            rec_put_buf(rec, LOG_ARG_NONE, r->seq, &r->b, bytes);
        else
            log_put_field(rec, LOG_ARG_NONE, LOG_F_DATA, r->seq, 0);
        if (r->own_type) {
            MPI_Datatype t = (MPI_Datatype)r->b.type;
            PMPI_Type_free(&t);
        }
    }
    nresults = k;
}

/* Room for the WINDIFFs of WIN's regions (every window's: ALL). */
static size_t diffs_room(MPI_Win win, int all)
{
    size_t room = 0;
    for (size_t i = 0; i < nregions; i++)
        if (all || regions[i].win == win) {
            region_check(&regions[i]);
            room += diff_room(&regions[i]);
        }
    return room;
}

static void put_diffs(struct log_rec *rec, MPI_Win win, int all)
{
    for (size_t i = 0; i < nregions; i++)
        if (all || regions[i].win == win)
            put_diff(rec, &regions[i]);
}

/*
 * A synchronization call on WIN after it returned: the output FLAG
 * (MPI_Win_test, argument 1) if any, the pending results it completed
 * (DONE), and the changes of WIN's regions (every window's when ALL:
 * MPI_Barrier).
 */
struct sync {
    MPI_Win win;
    int done, all;
    const int *flag;
};

static size_t sync_room(struct sync *k, int ret)
{
    if (ret != MPI_SUCCESS)
        k->done = DONE_NONE;
    return (k->flag ? LOG_FIELD_HEAD + 4 : 0) + results_room(k->win, k->done) +
           diffs_room(k->win, k->all);
}

static void sync_put(struct log_rec *rec, const struct sync *k)
{
    if (k->flag)
        rec_put_raw(rec, 1, 0, k->flag, 4);
    put_results(rec, k->win, k->done);
    put_diffs(rec, k->win, k->all);
}

#define SYNC_LOG(NAME, K)                                                    \
    do {                                                                     \
        struct log_rec rec;                                                  \
        if (rec_frame_##NAME(c, a, &rec, REC_SYNC,                          \
                             sync_room(K, c->ret))) {                        \
            sync_put(&rec, K);                                               \
            rec_end(&rec);                                                   \
        }                                                                    \
    } while (0)

/*
 * A call starting an operation, after it returned: the input buffers
 * SEND[0..NSEND) with --send-data, and the new request (argument REQ_ARG)
 * of the request-based calls (REQUEST non-NULL).
 */
struct send {
    unsigned arg;
    const void *buf;
    int64_t n;
    MPI_Datatype type;
};
struct op {
    const struct send *send;
    int nsend;
    unsigned req_arg;
    const MPI_Request *request;
    int64_t bytes[2];
};

static size_t op_room(struct op *k, int ret)
{
    size_t room = k->request ? LOG_HANDLE_ROOM : 0;
    for (int i = 0; i < k->nsend; i++) {
        const struct send *s = &k->send[i];
        k->bytes[i] = rec_send_data && ret == MPI_SUCCESS
                          ? rec_data_bytes(s->n, s->type) : 0;
        if (k->bytes[i])
            room += LOG_FIELD_HEAD + rec_pack_room(k->bytes[i], s->type);
    }
    return room;
}

static void op_put(struct log_rec *rec, const struct op *k, int ret)
{
    for (int i = 0; i < k->nsend; i++)
        if (k->bytes[i])
            rec_put_data(rec, k->send[i].arg, k->send[i].buf, k->send[i].n,
                         k->send[i].type, k->bytes[i]);
    if (k->request && ret == MPI_SUCCESS)
        log_put_handle(rec, k->req_arg, LOG_F_HANDLE, 0,
                       (uint32_t)*k->request);
}

#define OP_LOG(NAME, SEND, NSEND, REQ_ARG, REQUEST)                          \
    do {                                                                     \
        struct op k = {SEND, NSEND, REQ_ARG, REQUEST, {0, 0}};               \
        struct log_rec rec;                                                  \
        if (rec_frame_##NAME(c, a, &rec, 0, op_room(&k, c->ret))) {          \
            op_put(&rec, &k, c->ret);                                        \
            rec_end(&rec);                                                   \
        }                                                                    \
    } while (0)

/* ---- windows ------------------------------------------------------------- */

#define WIN_CREATE(NAME)                                                     \
    void rec_##NAME(struct rec_call *c, struct args_##NAME *a)               \
    {                                                                        \
        /* The memory before the call: another rank may put into it as     \
         * soon as its own MPI_Win_create returns, while this one's is     \
         * still running; the first synchronization then logs that. */     \
        size_t bytes = a->base && a->size > 0 ? (size_t)a->size : 0;         \
        uint8_t *before = bytes ? malloc(bytes) : NULL;                      \
        if (before)                                                          \
            memcpy(before, a->base, bytes);                                  \
        rec_pmpi_##NAME(c, a);                                               \
        if (c->ret == MPI_SUCCESS)                                           \
            region_add_shadow(c->fn, *a->win, a->base, bytes, 0, before);    \
        else                                                                 \
            free(before);                                                    \
        struct log_rec rec;                                                  \
        if (rec_frame_##NAME(c, a, &rec, REC_SYNC, LOG_HANDLE_ROOM)) {       \
            if (c->ret == MPI_SUCCESS)                                       \
                log_put_handle(&rec, LOG_A_##NAME##_win, LOG_F_HANDLE, 0,    \
                               (uint32_t)*a->win);                           \
            rec_end(&rec);                                                   \
        }                                                                    \
    }
REC_TWINS_MPI_Win_create(WIN_CREATE)

/* MPI_Win_allocate: the memory is MPI's; the record also logs how it
 * differs from zeros (the replay allocates zeroed memory). */
#define WIN_ALLOCATE(NAME)                                                   \
    void rec_##NAME(struct rec_call *c, struct args_##NAME *a)               \
    {                                                                        \
        struct region *g = NULL;                                             \
        rec_pmpi_##NAME(c, a);                                               \
        if (c->ret == MPI_SUCCESS)                                           \
            g = region_add(c->fn, *a->win, *(void **)a->baseptr,             \
                           a->size > 0 ? (size_t)a->size : 0, 1);            \
        struct log_rec rec;                                                  \
        if (rec_frame_##NAME(c, a, &rec, REC_SYNC,                           \
                             LOG_FIELD_HEAD + 8 + LOG_HANDLE_ROOM +          \
                                 (g ? diff_room(g) : 0))) {                  \
            if (c->ret == MPI_SUCCESS) {                                     \
                rec_put_raw(&rec, LOG_A_##NAME##_baseptr, 0, a->baseptr, 8); \
                log_put_handle(&rec, LOG_A_##NAME##_win, LOG_F_HANDLE, 0,    \
                               (uint32_t)*a->win);                           \
                put_diff(&rec, g);                                           \
            }                                                                \
            rec_end(&rec);                                                   \
        }                                                                    \
    }
REC_TWINS_MPI_Win_allocate(WIN_ALLOCATE)

void rec_MPI_Win_attach(struct rec_call *c, struct args_MPI_Win_attach *a)
{
    rec_pmpi_MPI_Win_attach(c, a);
    if (c->ret == MPI_SUCCESS)
        region_add(c->fn, a->win, a->base,
                   a->size > 0 ? (size_t)a->size : 0, 0);
    OP_LOG(MPI_Win_attach, NULL, 0, 0, NULL);
}

/* The region's last changes go with the MPI_Win_detach record. */
void rec_MPI_Win_detach(struct rec_call *c, struct args_MPI_Win_detach *a)
{
    rec_pmpi_MPI_Win_detach(c, a);
    struct region *g = NULL;
    for (size_t i = 0; i < nregions && !g; i++)
        if (regions[i].win == a->win && regions[i].base == a->base)
            g = &regions[i];
    if (g) /* the program may have freed it already */
        region_check(g);
    struct log_rec rec;
    if (rec_frame_MPI_Win_detach(c, a, &rec, 0, g ? diff_room(g) : 0)) {
        if (g)
            put_diff(&rec, g);
        rec_end(&rec);
    }
    if (g && c->ret == MPI_SUCCESS)
        region_drop(g);
}

/*
 * MPI_Win_free: every operation has completed (MPI requires it), and the
 * other ranks' last writes have landed once the collective returns. The
 * program's own buffers (MPI_Win_create, attached ones) are logged after
 * the call, unless the program unmapped them already (MPICH's test suite
 * frees a window's memory just before the window); MPI_Win_allocate's
 * memory is gone, and no program can read it any more.
 */
void rec_MPI_Win_free(struct rec_call *c, struct args_MPI_Win_free *a)
{
    MPI_Win old = *a->win;
    rec_pmpi_MPI_Win_free(c, a);
    if (c->ret == MPI_SUCCESS) {
        /* MPI's memory of the window is gone, and with it the regions of
         * other windows over it (MPI_Win_create over a shared window's
         * part, as MPICH's win_shared_create does). */
        char *lo;
        size_t size;
        if (rec_shm_drop(old, &lo, &size)) /* not compared any more */
            regions_gone_in(lo, size);
        for (size_t i = 0; i < nregions; i++)
            if (regions[i].win == old && regions[i].allocated)
                regions_gone_in(regions[i].base, regions[i].size);
    }
    for (size_t i = 0; i < nregions; i++)
        if (regions[i].win == old)
            region_check(&regions[i]);
    size_t room = 2 * LOG_HANDLE_ROOM + results_room(old, DONE_ALL);
    for (size_t i = 0; i < nregions; i++)
        if (regions[i].win == old && !regions[i].allocated)
            room += diff_room(&regions[i]);
    struct log_rec rec;
    if (rec_frame_MPI_Win_free(c, a, &rec, REC_SYNC, room)) {
        if (c->ret == MPI_SUCCESS) {
            log_put_handle(&rec, 0, LOG_F_HANDLE, 0, (uint32_t)*a->win);
            /* the window freed (docs/log-format.md: REQUEST) */
            log_put_handle(&rec, LOG_ARG_NONE, LOG_F_REQUEST, 0,
                           (uint32_t)old);
        }
        put_results(&rec, old, c->ret == MPI_SUCCESS ? DONE_ALL : DONE_NONE);
        for (size_t i = 0; i < nregions; i++)
            if (regions[i].win == old && !regions[i].allocated)
                put_diff(&rec, &regions[i]);
        rec_end(&rec);
    }
    if (c->ret == MPI_SUCCESS)
        for (size_t i = nregions; i-- > 0;)
            if (regions[i].win == old)
                region_drop(&regions[i]);
}

/* MPI_Free_mem: the memory of the windows over it is gone (the program may
 * free it before the window, as MPICH's test suite does): never compared
 * again, nor logged, as the program cannot read it any more. */
void rec_MPI_Free_mem(struct rec_call *c, struct args_MPI_Free_mem *a)
{
    for (size_t i = 0; i < nregions; i++)
        if (regions[i].base == a->base && !regions[i].allocated)
            region_gone(&regions[i]);
    if (rec_arena_free(a->base)) { /* (rec-mem.c) */
        c->t0 = c->t1 = rec_now();
        c->ret = MPI_SUCCESS;
    } else {
        rec_pmpi_MPI_Free_mem(c, a);
    }
    struct log_rec rec;
    if (rec_frame_MPI_Free_mem(c, a, &rec, 0, 0))
        rec_end(&rec);
}

/* ---- synchronization ----------------------------------------------------- */

/* A call on window argument WIN completing DONE (an expression of a). */
#define SYNC(NAME, DONE)                                                     \
    void rec_##NAME(struct rec_call *c, struct args_##NAME *a)               \
    {                                                                        \
        rec_pmpi_##NAME(c, a);                                               \
        struct sync k = {a->win, DONE, 0, NULL};                             \
        SYNC_LOG(NAME, &k);                                                  \
    }
SYNC(MPI_Win_fence, DONE_ALL)
SYNC(MPI_Win_complete, DONE_ALL)
SYNC(MPI_Win_wait, DONE_NONE)
SYNC(MPI_Win_sync, DONE_NONE)
SYNC(MPI_Win_lock, DONE_NONE)
SYNC(MPI_Win_lock_all, DONE_NONE)
SYNC(MPI_Win_unlock_all, DONE_ALL)
SYNC(MPI_Win_unlock, a->rank)
SYNC(MPI_Win_flush, a->rank)
SYNC(MPI_Win_flush_local, a->rank)
SYNC(MPI_Win_flush_all, DONE_ALL)
SYNC(MPI_Win_flush_local_all, DONE_ALL)
SYNC(MPI_Win_post, DONE_NONE)
SYNC(MPI_Win_start, DONE_NONE)

/* An unsuccessful MPI_Win_test is a poll (rec_poll); a successful one ends
 * the exposure epoch: the other ranks' writes are in. */
void rec_MPI_Win_test(struct rec_call *c, struct args_MPI_Win_test *a)
{
    rec_pmpi_MPI_Win_test(c, a);
    if (c->ret == MPI_SUCCESS && !*a->flag) {
        uint8_t img[32];
        struct log_rec rec = {img, img};
        rec_put_args_MPI_Win_test(&rec, a);
        rec_put_raw(&rec, 1, 0, a->flag, 4);
        rec_poll(c->fn, img, (size_t)(rec.p - img), c->t0, c->t1);
        return;
    }
    struct sync k = {a->win, DONE_NONE, 0,
                     c->ret == MPI_SUCCESS ? a->flag : NULL};
    SYNC_LOG(MPI_Win_test, &k);
}

/* Other ranks' passive-target writes into this process's windows are
 * visible after a barrier that follows their completion. */
void rec_MPI_Barrier(struct rec_call *c, struct args_MPI_Barrier *a)
{
    rec_pmpi_MPI_Barrier(c, a);
    struct sync k = {MPI_WIN_NULL, DONE_NONE, 1, NULL};
    SYNC_LOG(MPI_Barrier, &k);
}

/* ---- operations ---------------------------------------------------------- */

/* The origin data of an accumulate with MPI_NO_OP is not read (the buffer
 * may be NULL). */
#define SEND_OP(A, B, N, T) {A, (B), (a->op) == MPI_NO_OP ? 0 : (N), T}

#define GET(NAME)                                                            \
    void rec_##NAME(struct rec_call *c, struct args_##NAME *a)               \
    {                                                                        \
        rec_pmpi_##NAME(c, a);                                               \
        if (c->ret == MPI_SUCCESS && a->target_rank != MPI_PROC_NULL)        \
            result_add(c->fn, a->win, a->target_rank, a->origin_addr,        \
                       a->origin_count, a->origin_datatype);                 \
        OP_LOG(NAME, NULL, 0, 0, NULL);                                      \
    }
REC_TWINS_MPI_Get(GET)

#define GET_ACCUMULATE(NAME)                                                 \
    void rec_##NAME(struct rec_call *c, struct args_##NAME *a)               \
    {                                                                        \
        rec_pmpi_##NAME(c, a);                                               \
        const struct send s[] = {SEND_OP(0, a->origin_addr,                  \
                                         a->origin_count,                    \
                                         a->origin_datatype)};               \
        if (c->ret == MPI_SUCCESS && a->target_rank != MPI_PROC_NULL)        \
            result_add(c->fn, a->win, a->target_rank, a->result_addr,        \
                       a->result_count, a->result_datatype);                 \
        OP_LOG(NAME, s, 1, 0, NULL);                                         \
    }
REC_TWINS_MPI_Get_accumulate(GET_ACCUMULATE)

void rec_MPI_Fetch_and_op(struct rec_call *c, struct args_MPI_Fetch_and_op *a)
{
    rec_pmpi_MPI_Fetch_and_op(c, a);
    const struct send s[] = {SEND_OP(0, a->origin_addr, 1, a->datatype)};
    if (c->ret == MPI_SUCCESS && a->target_rank != MPI_PROC_NULL)
        result_add(c->fn, a->win, a->target_rank, a->result_addr, 1,
                   a->datatype);
    OP_LOG(MPI_Fetch_and_op, s, 1, 0, NULL);
}

void rec_MPI_Compare_and_swap(struct rec_call *c,
                              struct args_MPI_Compare_and_swap *a)
{
    rec_pmpi_MPI_Compare_and_swap(c, a);
    const struct send s[] = {{0, a->origin_addr, 1, a->datatype},
                             {1, a->compare_addr, 1, a->datatype}};
    if (c->ret == MPI_SUCCESS && a->target_rank != MPI_PROC_NULL)
        result_add(c->fn, a->win, a->target_rank, a->result_addr, 1,
                   a->datatype);
    OP_LOG(MPI_Compare_and_swap, s, 2, 0, NULL);
}

/* Request-based: the buffer is logged by the Wait/Test call completing the
 * request, whole (as a collective's). */
#define RGET(NAME)                                                           \
    void rec_##NAME(struct rec_call *c, struct args_##NAME *a)               \
    {                                                                        \
        rec_pmpi_##NAME(c, a);                                               \
        if (c->ret == MPI_SUCCESS)                                           \
            rec_req_coll(a->request, c->fn, a->origin_addr,                 \
                         a->origin_count, a->origin_datatype, 0);            \
        OP_LOG(NAME, NULL, 0, LOG_A_##NAME##_request, a->request);           \
    }
REC_TWINS_MPI_Rget(RGET)

#define RGET_ACCUMULATE(NAME)                                                \
    void rec_##NAME(struct rec_call *c, struct args_##NAME *a)               \
    {                                                                        \
        rec_pmpi_##NAME(c, a);                                               \
        const struct send s[] = {SEND_OP(0, a->origin_addr,                  \
                                         a->origin_count,                    \
                                         a->origin_datatype)};               \
        if (c->ret == MPI_SUCCESS)                                           \
            rec_req_coll(a->request, c->fn, a->result_addr,                 \
                         a->result_count, a->result_datatype, 0);            \
        OP_LOG(NAME, s, 1, LOG_A_##NAME##_request, a->request);              \
    }
REC_TWINS_MPI_Rget_accumulate(RGET_ACCUMULATE)
