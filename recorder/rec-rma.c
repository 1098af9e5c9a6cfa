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
 * Shared-memory windows (MPI_Win_allocate_shared) are not tracked: other
 * processes load and store into them directly, and the replay refuses them.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

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
};

struct result {
    struct rec_buf b; /* REC_COLL: b.n x b.type at b.buf */
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

/* Room for NEED elements in *PP (out of memory: abort). */
static void need(void *pp, size_t *cap, size_t n, size_t esize)
{
    if (util_grow(pp, cap, n, esize) < 0) {
        fputs("drdb-record: out of memory for the RMA window table\n",
              stderr);
        abort();
    }
}

/* A new region of WIN at BASE. Its shadow starts as a copy of the memory
 * (the program's own buffer: the replay has the same bytes), as SHADOW
 * when given (a copy taken before the call: taken over), or as zeros for
 * MPI_Win_allocate's memory (the replay allocates zeroed memory; the
 * creation record then logs the difference). */
static struct region *region_add_shadow(MPI_Win win, void *base, size_t size,
                                        int allocated, uint8_t *shadow)
{
    need(&regions, &regions_cap, nregions + 1, sizeof *regions);
    struct region *g = &regions[nregions++];
    g->base = base;
    g->size = base ? size : 0;
    g->shadow = NULL;
    g->id = next_region++;
    g->win = win;
    g->allocated = allocated;
    if (g->size && shadow) {
        g->shadow = shadow;
    } else if (g->size) {
        g->shadow = allocated ? calloc(1, g->size) : malloc(g->size);
        if (!g->shadow) {
            fputs("drdb-record: out of memory for an RMA window's shadow "
                  "copy\n", stderr);
            abort();
        }
        if (!allocated)
            memcpy(g->shadow, base, g->size);
    }
    return g;
}

static struct region *region_add(MPI_Win win, void *base, size_t size,
                                 int allocated)
{
    return region_add_shadow(win, base, size, allocated, NULL);
}

static void region_drop(struct region *g)
{
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
static void result_add(MPI_Win win, int target, void *buf, int64_t n,
                       MPI_Datatype type)
{
    need(&results, &results_cap, nresults + 1, sizeof *results);
    struct result *r = &results[nresults++];
    MPI_Datatype copy;
    r->own_type = !DRDB_MPI_HANDLE_BUILTIN(type) &&
                  PMPI_Type_contiguous(1, type, &copy) == MPI_SUCCESS &&
                  PMPI_Type_commit(&copy) == MPI_SUCCESS;
    r->b = (struct rec_buf){.buf = buf, .n = n,
                            .type = r->own_type ? copy : type,
                            .req = MPI_REQUEST_NULL, .shape = REC_COLL};
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

static size_t varint_len(uint64_t v)
{
    size_t n = 1;
    for (; v >= 0x80; v >>= 7)
        n++;
    return n;
}

/* A run's gap and length take at most this many bytes in G's WINDIFF. */
static size_t run_head(const struct region *g)
{
    return 2 * varint_len(g->size);
}

/* Room G's WINDIFF can take, header included. Runs are cut only at a gap of
 * at least run_head() unchanged bytes, which pays for the next run's head:
 * the body never exceeds the region's size plus one head. */
static size_t diff_room(const struct region *g)
{
    return g->size ? LOG_FIELD_HEAD + g->size + run_head(g) : 0;
}

/* The first byte at or after I where G's memory differs from its shadow,
 * or its size. Other ranks may be writing the memory meanwhile: a chunk
 * memcmp saw differ may look equal byte by byte, hence the bound. */
static size_t first_diff(const struct region *g, size_t i)
{
    enum { CHUNK = 256 };
    while (i < g->size) {
        size_t n = g->size - i < CHUNK ? g->size - i : CHUNK;
        if (memcmp(g->base + i, g->shadow + i, n) != 0)
            for (size_t k = 0; k < n; k++)
                if (g->base[i + k] != (char)g->shadow[i + k])
                    return i + k;
        i += n;
    }
    return g->size;
}

/* Appends G's changes as one WINDIFF field (nothing when it has none) and
 * makes the logged bytes its shadow. The body is built after room for the
 * field's header, then moved up behind the header once its length is
 * known. */
static void put_diff(struct log_rec *rec, struct region *g)
{
    size_t i = first_diff(g, 0), prev = 0, head = run_head(g);
    if (i == g->size)
        return;
    uint8_t *field = rec->p, *body = field + LOG_FIELD_HEAD;
    rec->p = body;
    while (i < g->size) {
        /* The run goes on until HEAD unchanged bytes in a row, which the
         * next run's search skips (should another rank change them
         * meanwhile, the next synchronization logs it): so a run's head
         * never costs more than the gap before it. */
        size_t end = i + 1, same = 0;
        for (size_t k = end; k < g->size && same < head; k++) {
            if (g->base[k] != (char)g->shadow[k]) {
                end = k + 1;
                same = 0;
            } else {
                same++;
            }
        }
        log_put_varint(rec, i - prev);
        log_put_varint(rec, end - i);
        /* One read of the memory: what is logged is what the shadow
         * keeps, even if another rank writes meanwhile. */
        memcpy(rec->p, g->base + i, end - i);
        memcpy(g->shadow + i, rec->p, end - i);
        rec->p += end - i;
        prev = end;
        i = first_diff(g, end + same);
    }
    size_t len = (size_t)(rec->p - body);
    struct log_rec h = {field, field};
    log_put_field(&h, LOG_ARG_NONE, LOG_F_WINDIFF, g->id, len);
    memmove(h.p, body, len);
    rec->p = h.p + len;
}

/* The by-value arguments VALS of FN, in prototype order, by the function
 * table's encodings. */
static void put_args(struct log_rec *rec, int fn, const int64_t *vals)
{
    const struct log_func_desc *d = log_func_by_id(fn);
    for (int i = 0, k = 0; d && i < d->nargs; i++)
        if (d->args[i].enc)
            log_put_arg(rec, d->args[i].enc, vals[k++]);
}

static size_t args_room(int fn)
{
    const struct log_func_desc *d = log_func_by_id(fn);
    return d ? (size_t)d->nargs * LOG_ARG_ROOM64 : 0;
}

/* Room for the pending results of WIN that DONE completes. */
static size_t results_room(MPI_Win win, int done)
{
    size_t room = 0;
    for (size_t i = 0; i < nresults; i++)
        if (completes(&results[i], win, done))
            room += LOG_FIELD_HEAD +
                    rec_pack_room(rec_buf_bytes(&results[i].b, NULL),
                                  results[i].b.type);
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
        if (r->own_type)
            PMPI_Type_free(&r->b.type);
    }
    nresults = k;
}

/* Room for the WINDIFFs of WIN's regions (every window's: ALL). */
static size_t diffs_room(MPI_Win win, int all)
{
    size_t room = 0;
    for (size_t i = 0; i < nregions; i++)
        if (all || regions[i].win == win)
            room += diff_room(&regions[i]);
    return room;
}

static void put_diffs(struct log_rec *rec, MPI_Win win, int all)
{
    for (size_t i = 0; i < nregions; i++)
        if (all || regions[i].win == win)
            put_diff(rec, &regions[i]);
}

/*
 * The record of a synchronization call FN (by-value arguments VALS) on WIN,
 * after it returned: the output FLAG (MPI_Win_test, argument 1) if any, the
 * pending results it completed (DONE), and the changes of WIN's regions
 * (every window's when ALL: MPI_Barrier).
 */
static int sync_log(int fn, int ret, uint64_t t0, uint64_t t1,
                    const int64_t *vals, MPI_Win win, int done, int all,
                    const int *flag)
{
    if (ret != MPI_SUCCESS)
        done = DONE_NONE;
    size_t room = args_room(fn) + (flag ? LOG_FIELD_HEAD + 4 : 0) +
                  results_room(win, done) + diffs_room(win, all);
    struct log_rec rec;
    if (!rec_begin(&rec, fn, 0, ret, t0, t1, room))
        return ret;
    put_args(&rec, fn, vals);
    if (flag)
        rec_put_raw(&rec, 1, 0, flag, 4);
    put_results(&rec, win, done);
    put_diffs(&rec, win, all);
    rec_end(&rec);
    return ret;
}

/* An input buffer logged with --send-data (argument ARG). */
struct send {
    unsigned arg;
    const void *buf;
    int64_t n;
    MPI_Datatype type;
};

static int op_log(int fn, int ret, uint64_t t0, uint64_t t1,
                  const int64_t *vals, const struct send *send, int nsend,
                  unsigned req_arg, const MPI_Request *request);

/* ---- windows ------------------------------------------------------------- */

#define WIN_CREATE(NAME, DU_T)                                               \
    int NAME(void *base, MPI_Aint size, DU_T disp_unit, MPI_Info info,      \
             MPI_Comm comm, MPI_Win *win)                                    \
    {                                                                        \
        if (!rec_on)                                                         \
            return P##NAME(base, size, disp_unit, info, comm, win);          \
        /* The memory before the call: another rank may put into it as     \
         * soon as its own MPI_Win_create returns, while this one's is     \
         * still running; the first synchronization then logs that. */     \
        size_t bytes = base && size > 0 ? (size_t)size : 0;                  \
        uint8_t *before = bytes ? malloc(bytes) : NULL;                      \
        if (before)                                                          \
            memcpy(before, base, bytes);                                     \
        uint64_t t0 = rec_now();                                             \
        int ret = P##NAME(base, size, disp_unit, info, comm, win);           \
        uint64_t t1 = rec_now();                                             \
        struct log_rec rec;                                                  \
        const int64_t v[] = {size, disp_unit, (uint32_t)info,               \
                             (uint32_t)comm};                                \
        if (ret == MPI_SUCCESS)                                              \
            region_add_shadow(*win, base, bytes, 0, before);                 \
        else                                                                 \
            free(before);                                                    \
        if (!rec_begin(&rec, LOG_FN_##NAME, 0, ret, t0, t1,                  \
                       args_room(LOG_FN_##NAME) + LOG_HANDLE_ROOM))          \
            return ret;                                                      \
        put_args(&rec, LOG_FN_##NAME, v);                                    \
        if (ret == MPI_SUCCESS)                                              \
            log_put_handle(&rec, 5, LOG_F_HANDLE, 0, (uint32_t)*win);        \
        rec_end(&rec);                                                       \
        return ret;                                                          \
    }
WIN_CREATE(MPI_Win_create, int)
WIN_CREATE(MPI_Win_create_c, MPI_Aint)

/* MPI_Win_allocate: the memory is MPI's; the record also logs how it
 * differs from zeros (the replay allocates zeroed memory). */
#define WIN_ALLOCATE(NAME, DU_T)                                             \
    int NAME(MPI_Aint size, DU_T disp_unit, MPI_Info info, MPI_Comm comm,   \
             void *baseptr, MPI_Win *win)                                    \
    {                                                                        \
        if (!rec_on)                                                         \
            return P##NAME(size, disp_unit, info, comm, baseptr, win);       \
        uint64_t t0 = rec_now();                                             \
        int ret = P##NAME(size, disp_unit, info, comm, baseptr, win);        \
        uint64_t t1 = rec_now();                                             \
        struct log_rec rec;                                                  \
        struct region *g = NULL;                                             \
        const int64_t v[] = {size, disp_unit, (uint32_t)info,               \
                             (uint32_t)comm};                                \
        if (ret == MPI_SUCCESS)                                              \
            g = region_add(*win, *(void **)baseptr,                          \
                           size > 0 ? (size_t)size : 0, 1);                  \
        if (!rec_begin(&rec, LOG_FN_##NAME, 0, ret, t0, t1,                  \
                       args_room(LOG_FN_##NAME) + LOG_FIELD_HEAD + 8 +       \
                           LOG_HANDLE_ROOM + (g ? diff_room(g) : 0)))        \
            return ret;                                                      \
        put_args(&rec, LOG_FN_##NAME, v);                                    \
        if (ret == MPI_SUCCESS) {                                            \
            rec_put_raw(&rec, 4, 0, baseptr, 8);                             \
            log_put_handle(&rec, 5, LOG_F_HANDLE, 0, (uint32_t)*win);        \
            put_diff(&rec, g);                                               \
        }                                                                    \
        rec_end(&rec);                                                       \
        return ret;                                                          \
    }
WIN_ALLOCATE(MPI_Win_allocate, int)
WIN_ALLOCATE(MPI_Win_allocate_c, MPI_Aint)

int MPI_Win_attach(MPI_Win win, void *base, MPI_Aint size)
{
    if (!rec_on)
        return PMPI_Win_attach(win, base, size);
    uint64_t t0 = rec_now();
    int ret = PMPI_Win_attach(win, base, size);
    uint64_t t1 = rec_now();
    if (ret == MPI_SUCCESS)
        region_add(win, base, size > 0 ? (size_t)size : 0, 0);
    const int64_t v[] = {(uint32_t)win, size};
    return op_log(LOG_FN_MPI_Win_attach, ret, t0, t1, v, NULL, 0, 0, NULL);
}

/* The region's last changes go with the MPI_Win_detach record. */
int MPI_Win_detach(MPI_Win win, const void *base)
{
    if (!rec_on)
        return PMPI_Win_detach(win, base);
    uint64_t t0 = rec_now();
    int ret = PMPI_Win_detach(win, base);
    uint64_t t1 = rec_now();
    struct region *g = NULL;
    for (size_t i = 0; i < nregions && !g; i++)
        if (regions[i].win == win && regions[i].base == base)
            g = &regions[i];
    struct log_rec rec;
    const int64_t v[] = {(uint32_t)win};
    if (rec_begin(&rec, LOG_FN_MPI_Win_detach, 0, ret, t0, t1,
                  args_room(LOG_FN_MPI_Win_detach) + (g ? diff_room(g) : 0))) {
        put_args(&rec, LOG_FN_MPI_Win_detach, v);
        if (g)
            put_diff(&rec, g);
        rec_end(&rec);
    }
    if (g && ret == MPI_SUCCESS)
        region_drop(g);
    return ret;
}

/*
 * MPI_Win_free: every operation has completed (MPI requires it), and the
 * other ranks' last writes have landed once the collective returns. The
 * program's own buffers (MPI_Win_create, attached ones) are still there and
 * logged after the call; MPI_Win_allocate's memory is gone, and no program
 * can read it any more.
 */
int MPI_Win_free(MPI_Win *win)
{
    if (!rec_on)
        return PMPI_Win_free(win);
    MPI_Win old = *win;
    uint64_t t0 = rec_now();
    int ret = PMPI_Win_free(win);
    uint64_t t1 = rec_now();
    size_t room = LOG_HANDLE_ROOM + results_room(old, DONE_ALL);
    for (size_t i = 0; i < nregions; i++)
        if (regions[i].win == old && !regions[i].allocated)
            room += diff_room(&regions[i]);
    struct log_rec rec;
    if (rec_begin(&rec, LOG_FN_MPI_Win_free, 0, ret, t0, t1, room)) {
        if (ret == MPI_SUCCESS)
            log_put_handle(&rec, 0, LOG_F_HANDLE, 0, (uint32_t)*win);
        put_results(&rec, old, ret == MPI_SUCCESS ? DONE_ALL : DONE_NONE);
        for (size_t i = 0; i < nregions; i++)
            if (regions[i].win == old && !regions[i].allocated)
                put_diff(&rec, &regions[i]);
        rec_end(&rec);
    }
    if (ret == MPI_SUCCESS)
        for (size_t i = nregions; i-- > 0;)
            if (regions[i].win == old)
                region_drop(&regions[i]);
    return ret;
}

/* ---- synchronization ----------------------------------------------------- */

#define SYNC_WIN(NAME, DONE)                                                 \
    int NAME(MPI_Win win)                                                    \
    {                                                                        \
        if (!rec_on)                                                         \
            return P##NAME(win);                                             \
        uint64_t t0 = rec_now();                                             \
        int ret = P##NAME(win);                                              \
        uint64_t t1 = rec_now();                                             \
        const int64_t v[] = {(uint32_t)win};                                 \
        return sync_log(LOG_FN_##NAME, ret, t0, t1, v, win, DONE, 0, NULL);  \
    }
#define SYNC_INT_WIN(NAME, A, DONE)                                          \
    int NAME(int A, MPI_Win win)                                             \
    {                                                                        \
        if (!rec_on)                                                         \
            return P##NAME(A, win);                                          \
        uint64_t t0 = rec_now();                                             \
        int ret = P##NAME(A, win);                                           \
        uint64_t t1 = rec_now();                                             \
        const int64_t v[] = {A, (uint32_t)win};                              \
        return sync_log(LOG_FN_##NAME, ret, t0, t1, v, win, DONE, 0, NULL);  \
    }
#define SYNC_GROUP(NAME)                                                     \
    int NAME(MPI_Group group, int assert, MPI_Win win)                       \
    {                                                                        \
        if (!rec_on)                                                         \
            return P##NAME(group, assert, win);                              \
        uint64_t t0 = rec_now();                                             \
        int ret = P##NAME(group, assert, win);                               \
        uint64_t t1 = rec_now();                                             \
        const int64_t v[] = {(uint32_t)group, assert, (uint32_t)win};        \
        return sync_log(LOG_FN_##NAME, ret, t0, t1, v, win, DONE_NONE, 0,    \
                        NULL);                                               \
    }

SYNC_INT_WIN(MPI_Win_fence, assert, DONE_ALL)
SYNC_WIN(MPI_Win_complete, DONE_ALL)
SYNC_WIN(MPI_Win_wait, DONE_NONE)
SYNC_WIN(MPI_Win_sync, DONE_NONE)
SYNC_INT_WIN(MPI_Win_lock_all, assert, DONE_NONE)
SYNC_WIN(MPI_Win_unlock_all, DONE_ALL)
SYNC_INT_WIN(MPI_Win_unlock, rank, rank)
SYNC_INT_WIN(MPI_Win_flush, rank, rank)
SYNC_INT_WIN(MPI_Win_flush_local, rank, rank)
SYNC_WIN(MPI_Win_flush_all, DONE_ALL)
SYNC_WIN(MPI_Win_flush_local_all, DONE_ALL)
SYNC_GROUP(MPI_Win_post)
SYNC_GROUP(MPI_Win_start)

int MPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win)
{
    if (!rec_on)
        return PMPI_Win_lock(lock_type, rank, assert, win);
    uint64_t t0 = rec_now();
    int ret = PMPI_Win_lock(lock_type, rank, assert, win);
    uint64_t t1 = rec_now();
    const int64_t v[] = {lock_type, rank, assert, (uint32_t)win};
    return sync_log(LOG_FN_MPI_Win_lock, ret, t0, t1, v, win, DONE_NONE, 0,
                    NULL);
}

/* An unsuccessful MPI_Win_test is a poll (rec_poll); a successful one ends
 * the exposure epoch: the other ranks' writes are in. */
int MPI_Win_test(MPI_Win win, int *flag)
{
    if (!rec_on)
        return PMPI_Win_test(win, flag);
    uint64_t t0 = rec_now();
    int ret = PMPI_Win_test(win, flag);
    uint64_t t1 = rec_now();
    if (ret == MPI_SUCCESS && !*flag) {
        uint8_t img[32];
        struct log_rec rec = {img, img};
        log_put_arg_handle(&rec, (uint32_t)win);
        rec_put_raw(&rec, 1, 0, flag, 4);
        rec_poll(LOG_FN_MPI_Win_test, img, (size_t)(rec.p - img), t0, t1);
        return ret;
    }
    const int64_t v[] = {(uint32_t)win};
    return sync_log(LOG_FN_MPI_Win_test, ret, t0, t1, v, win, DONE_NONE, 0,
                    ret == MPI_SUCCESS ? flag : NULL);
}

/* Other ranks' passive-target writes into this process's windows are
 * visible after a barrier that follows their completion. */
int MPI_Barrier(MPI_Comm comm)
{
    if (!rec_on)
        return PMPI_Barrier(comm);
    uint64_t t0 = rec_now();
    int ret = PMPI_Barrier(comm);
    uint64_t t1 = rec_now();
    const int64_t v[] = {(uint32_t)comm};
    return sync_log(LOG_FN_MPI_Barrier, ret, t0, t1, v, MPI_WIN_NULL,
                    DONE_NONE, 1, NULL);
}

/* ---- operations ---------------------------------------------------------- */

/*
 * The record of a call starting an operation: its by-value arguments VALS,
 * the input buffers SEND[0..NSEND) with --send-data, and the new request
 * (argument REQ_ARG of the request-based calls, REQUEST non-NULL).
 */
static int op_log(int fn, int ret, uint64_t t0, uint64_t t1,
                  const int64_t *vals, const struct send *send, int nsend,
                  unsigned req_arg, const MPI_Request *request)
{
    int64_t bytes[2] = {0, 0};
    size_t room = args_room(fn) + (request ? LOG_HANDLE_ROOM : 0);
    for (int i = 0; i < nsend && rec_send_data && ret == MPI_SUCCESS; i++) {
        bytes[i] = rec_data_bytes(send[i].n, send[i].type);
        if (bytes[i])
            room += LOG_FIELD_HEAD + rec_pack_room(bytes[i], send[i].type);
    }
    struct log_rec rec;
    if (!rec_begin(&rec, fn, 0, ret, t0, t1, room))
        return ret;
    put_args(&rec, fn, vals);
    for (int i = 0; i < nsend; i++)
        if (bytes[i])
            rec_put_data(&rec, send[i].arg, send[i].buf, send[i].n,
                         send[i].type, bytes[i]);
    if (request && ret == MPI_SUCCESS)
        log_put_handle(&rec, req_arg, LOG_F_HANDLE, 0, (uint32_t)*request);
    rec_end(&rec);
    return ret;
}

/* The origin data of an accumulate with MPI_NO_OP is not read (the buffer
 * may be NULL). */
#define SEND_OP(A, B, N, T) {A, (B), (op) == MPI_NO_OP ? 0 : (N), T}

#define GET(NAME, CT)                                                        \
    int NAME(void *origin_addr, CT origin_count,                             \
             MPI_Datatype origin_datatype, int target_rank,                  \
             MPI_Aint target_disp, CT target_count,                          \
             MPI_Datatype target_datatype, MPI_Win win)                      \
    {                                                                        \
        if (!rec_on)                                                         \
            return P##NAME(origin_addr, origin_count, origin_datatype,       \
                           target_rank, target_disp, target_count,           \
                           target_datatype, win);                            \
        uint64_t t0 = rec_now();                                             \
        int ret = P##NAME(origin_addr, origin_count, origin_datatype,        \
                          target_rank, target_disp, target_count,            \
                          target_datatype, win);                             \
        uint64_t t1 = rec_now();                                             \
        const int64_t v[] = {origin_count, (uint32_t)origin_datatype,        \
                             target_rank,  target_disp,   target_count,      \
                             (uint32_t)target_datatype,   (uint32_t)win};    \
        if (ret == MPI_SUCCESS && target_rank != MPI_PROC_NULL)              \
            result_add(win, target_rank, origin_addr, origin_count,          \
                       origin_datatype);                                     \
        return op_log(LOG_FN_##NAME, ret, t0, t1, v, NULL, 0, 0, NULL);      \
    }
GET(MPI_Get, int)
GET(MPI_Get_c, MPI_Count)

#define GET_ACCUMULATE(NAME, CT)                                             \
    int NAME(const void *origin_addr, CT origin_count,                       \
             MPI_Datatype origin_datatype, void *result_addr,                \
             CT result_count, MPI_Datatype result_datatype,                  \
             int target_rank, MPI_Aint target_disp, CT target_count,         \
             MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)           \
    {                                                                        \
        if (!rec_on)                                                         \
            return P##NAME(origin_addr, origin_count, origin_datatype,       \
                           result_addr, result_count, result_datatype,       \
                           target_rank, target_disp, target_count,           \
                           target_datatype, op, win);                        \
        uint64_t t0 = rec_now();                                             \
        int ret = P##NAME(origin_addr, origin_count, origin_datatype,        \
                          result_addr, result_count, result_datatype,        \
                          target_rank, target_disp, target_count,            \
                          target_datatype, op, win);                         \
        uint64_t t1 = rec_now();                                             \
        const int64_t v[] = {origin_count,  (uint32_t)origin_datatype,       \
                             result_count,  (uint32_t)result_datatype,       \
                             target_rank,   target_disp,                     \
                             target_count,  (uint32_t)target_datatype,       \
                             (uint32_t)op,  (uint32_t)win};                  \
        const struct send s[] = {                                            \
            SEND_OP(0, origin_addr, origin_count, origin_datatype)};         \
        if (ret == MPI_SUCCESS && target_rank != MPI_PROC_NULL)              \
            result_add(win, target_rank, result_addr, result_count,          \
                       result_datatype);                                     \
        return op_log(LOG_FN_##NAME, ret, t0, t1, v, s, 1, 0, NULL);         \
    }
GET_ACCUMULATE(MPI_Get_accumulate, int)
GET_ACCUMULATE(MPI_Get_accumulate_c, MPI_Count)

int MPI_Fetch_and_op(const void *origin_addr, void *result_addr,
                     MPI_Datatype datatype, int target_rank,
                     MPI_Aint target_disp, MPI_Op op, MPI_Win win)
{
    if (!rec_on)
        return PMPI_Fetch_and_op(origin_addr, result_addr, datatype,
                                 target_rank, target_disp, op, win);
    uint64_t t0 = rec_now();
    int ret = PMPI_Fetch_and_op(origin_addr, result_addr, datatype,
                                target_rank, target_disp, op, win);
    uint64_t t1 = rec_now();
    const int64_t v[] = {(uint32_t)datatype, target_rank, target_disp,
                         (uint32_t)op, (uint32_t)win};
    const struct send s[] = {SEND_OP(0, origin_addr, 1, datatype)};
    if (ret == MPI_SUCCESS && target_rank != MPI_PROC_NULL)
        result_add(win, target_rank, result_addr, 1, datatype);
    return op_log(LOG_FN_MPI_Fetch_and_op, ret, t0, t1, v, s, 1, 0, NULL);
}

int MPI_Compare_and_swap(const void *origin_addr, const void *compare_addr,
                         void *result_addr, MPI_Datatype datatype,
                         int target_rank, MPI_Aint target_disp, MPI_Win win)
{
    if (!rec_on)
        return PMPI_Compare_and_swap(origin_addr, compare_addr, result_addr,
                                     datatype, target_rank, target_disp,
                                     win);
    uint64_t t0 = rec_now();
    int ret = PMPI_Compare_and_swap(origin_addr, compare_addr, result_addr,
                                    datatype, target_rank, target_disp, win);
    uint64_t t1 = rec_now();
    const int64_t v[] = {(uint32_t)datatype, target_rank, target_disp,
                         (uint32_t)win};
    const struct send s[] = {{0, origin_addr, 1, datatype},
                             {1, compare_addr, 1, datatype}};
    if (ret == MPI_SUCCESS && target_rank != MPI_PROC_NULL)
        result_add(win, target_rank, result_addr, 1, datatype);
    return op_log(LOG_FN_MPI_Compare_and_swap, ret, t0, t1, v, s, 2, 0,
                  NULL);
}

/* Request-based: the buffer is logged by the Wait/Test call completing the
 * request, whole (as a collective's). */
#define RGET(NAME, CT)                                                       \
    int NAME(void *origin_addr, CT origin_count,                             \
             MPI_Datatype origin_datatype, int target_rank,                  \
             MPI_Aint target_disp, CT target_count,                          \
             MPI_Datatype target_datatype, MPI_Win win,                      \
             MPI_Request *request)                                           \
    {                                                                        \
        if (!rec_on)                                                         \
            return P##NAME(origin_addr, origin_count, origin_datatype,       \
                           target_rank, target_disp, target_count,           \
                           target_datatype, win, request);                   \
        uint64_t t0 = rec_now();                                             \
        int ret = P##NAME(origin_addr, origin_count, origin_datatype,        \
                          target_rank, target_disp, target_count,            \
                          target_datatype, win, request);                    \
        uint64_t t1 = rec_now();                                             \
        const int64_t v[] = {origin_count, (uint32_t)origin_datatype,        \
                             target_rank,  target_disp,   target_count,      \
                             (uint32_t)target_datatype,   (uint32_t)win};    \
        if (ret == MPI_SUCCESS)                                              \
            rec_req_coll(*request, LOG_FN_##NAME, origin_addr, origin_count, \
                         origin_datatype, 0);                                \
        return op_log(LOG_FN_##NAME, ret, t0, t1, v, NULL, 0, 8, request);   \
    }
RGET(MPI_Rget, int)
RGET(MPI_Rget_c, MPI_Count)

#define RGET_ACCUMULATE(NAME, CT)                                            \
    int NAME(const void *origin_addr, CT origin_count,                       \
             MPI_Datatype origin_datatype, void *result_addr,                \
             CT result_count, MPI_Datatype result_datatype,                  \
             int target_rank, MPI_Aint target_disp, CT target_count,         \
             MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,           \
             MPI_Request *request)                                           \
    {                                                                        \
        if (!rec_on)                                                         \
            return P##NAME(origin_addr, origin_count, origin_datatype,       \
                           result_addr, result_count, result_datatype,       \
                           target_rank, target_disp, target_count,           \
                           target_datatype, op, win, request);               \
        uint64_t t0 = rec_now();                                             \
        int ret = P##NAME(origin_addr, origin_count, origin_datatype,        \
                          result_addr, result_count, result_datatype,        \
                          target_rank, target_disp, target_count,            \
                          target_datatype, op, win, request);                \
        uint64_t t1 = rec_now();                                             \
        const int64_t v[] = {origin_count,  (uint32_t)origin_datatype,       \
                             result_count,  (uint32_t)result_datatype,       \
                             target_rank,   target_disp,                     \
                             target_count,  (uint32_t)target_datatype,       \
                             (uint32_t)op,  (uint32_t)win};                  \
        const struct send s[] = {                                            \
            SEND_OP(0, origin_addr, origin_count, origin_datatype)};         \
        if (ret == MPI_SUCCESS)                                              \
            rec_req_coll(*request, LOG_FN_##NAME, result_addr, result_count, \
                         result_datatype, 0);                                \
        return op_log(LOG_FN_##NAME, ret, t0, t1, v, s, 1, 12, request);     \
    }
RGET_ACCUMULATE(MPI_Rget_accumulate, int)
RGET_ACCUMULATE(MPI_Rget_accumulate_c, MPI_Count)
