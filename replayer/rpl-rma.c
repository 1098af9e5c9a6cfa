/*
 * One-sided communication (RMA): the mirror of recorder/rec-rma.c.
 *
 * The stub keeps the same two tables as the recorder, numbered the same
 * way (the program makes the same calls, and the logged return codes say
 * which succeeded):
 *
 *  - regions: the memory of the program's windows. MPI_Win_create's and
 *    MPI_Win_attach's are the program's own buffers; MPI_Win_allocate's is
 *    allocated here (zeroed, then its creation record's WINDIFF applied),
 *    since the logged address is the recorded process's.
 *  - pending results: the buffers MPI_Get, MPI_Get_accumulate,
 *    MPI_Fetch_and_op and MPI_Compare_and_swap leave to be written when the
 *    operation completes.
 *
 * Any record may then carry (rpl_out_other, for fields no argument owns): DATA
 * with arg LOG_ARG_NONE, a pending result, unpacked into its buffer through
 * the datatype engine, after which the operation is forgotten; WINDIFF, the
 * changed bytes of a region, copied into it. MPI_Rget and
 * MPI_Rget_accumulate register their buffer with the request, as a receive
 * does.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "drdb_mpi_abi.h"
#include "rpl.h"
#include "util.h"

/* ---- the tables --------------------------------------------------------- */

struct region {
    uint64_t id; /* the recorder's number for it: WINDIFF's elem */
    MPI_Win win;
    char *base;
    int64_t size;
    int flavor;  /* MPI_WIN_FLAVOR_CREATE, _ALLOCATE or _DYNAMIC */
    int owned;   /* allocated here: freed with the window */
};

struct result {
    uint64_t seq; /* the operation's number: its DATA field's elem */
    MPI_Win win;
    void *buf;
    int64_t n;
    MPI_Datatype type; /* the program's, or the stub's copy of it */
    int own_type;
};

/* Both in increasing number order: entries are appended. */
static struct region *regions;
static size_t nregions, regions_cap;
static uint64_t next_region;
static struct result *results;
static size_t nresults, results_cap;
static uint64_t next_result;

/* Room for NEED elements in *PP (out of memory: the replay stops). */
static void need(void *pp, size_t *cap, size_t n, size_t esize)
{
    if (util_grow(pp, cap, n, esize) < 0)
        rpl_fail(NULL, RPL_EXIT_SETUP, "out of memory for RMA windows");
}

static struct region *region_add(MPI_Win win, void *base, int64_t size,
                                 int flavor, int owned)
{
    need(&regions, &regions_cap, nregions + 1, sizeof *regions);
    struct region *g = &regions[nregions++];
    g->id = next_region++;
    g->win = win;
    g->base = base;
    g->size = base && size > 0 ? size : 0;
    g->flavor = flavor;
    g->owned = owned;
    return g;
}

static void region_drop(struct region *g)
{
    if (g->owned)
        free(g->base);
    size_t i = (size_t)(g - regions);
    memmove(g, g + 1, (nregions - i - 1) * sizeof *g);
    nregions--;
}

static struct region *region_find(uint64_t id)
{
    size_t lo = 0, hi = nregions;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (regions[mid].id == id)
            return &regions[mid];
        if (regions[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

/* The program may free a derived datatype before the operation completes:
 * the engine keeps a copy under a handle value MPICH never gives out (kind
 * bits 30-31 zero, as only MPI_DATATYPE_NULL has). */
static MPI_Datatype type_copy(MPI_Datatype type, int *own)
{
    static uint32_t next;
    MPI_Datatype copy = (MPI_Datatype)((unsigned)MPI_DATATYPE_NULL |
                                       (1 + next % 0x03ffffffu));
    *own = !DRDB_MPI_HANDLE_BUILTIN(type) && rpl_type_dup(type, copy) == 0;
    if (!*own)
        return type;
    next++;
    return copy;
}

static void result_add(MPI_Win win, int target, void *buf, int64_t n,
                       MPI_Datatype type)
{
    if (target == MPI_PROC_NULL)
        return; /* as the recorder: nothing will be written */
    need(&results, &results_cap, nresults + 1, sizeof *results);
    struct result *r = &results[nresults++];
    *r = (struct result){next_result++, win, buf, n, type, 0};
    r->type = type_copy(type, &r->own_type);
}

static struct result *result_find(uint64_t seq)
{
    size_t lo = 0, hi = nresults;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (results[mid].seq == seq)
            return &results[mid];
        if (results[mid].seq < seq)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

static void result_drop(struct result *r)
{
    if (r->own_type)
        rpl_type_free(r->type);
    size_t i = (size_t)(r - results);
    memmove(r, r + 1, (nresults - i - 1) * sizeof *r);
    nresults--;
}

/* ---- applying the log ------------------------------------------------ */

/* A WINDIFF field: runs of (gap, length, bytes) into the region. */
static void apply_diff(struct rpl_call *c, const struct log_field *f)
{
    struct region *g = region_find(f->elem);
    if (!g)
        rpl_fail(c, RPL_EXIT_DIVERGED,
                 "replay diverged: the log changes RMA window region %" PRIu64
                 ", which the program has not created (or has freed)",
                 f->elem);
    struct log_windiff w;
    uint64_t off, len;
    const uint8_t *bytes;
    int rc;
    log_windiff_init(&w, f, (uint64_t)g->size);
    while ((rc = log_windiff_next(&w, &off, &bytes, &len)) > 0)
        memcpy(g->base + off, bytes, len);
    if (rc < 0)
        rpl_fail(c, RPL_EXIT_SETUP,
                 "malformed record: the changes of RMA window region "
                 "%" PRIu64 " do not fit its %" PRId64 " bytes",
                 f->elem, g->size);
}

/* A DATA field of no argument: the pending result it names (elem), which
 * is then forgotten. */
static void apply_result(struct rpl_call *c, const struct log_field *f)
{
    struct result *r = result_find(f->elem);
    if (!r)
        rpl_fail(c, RPL_EXIT_DIVERGED,
                 "replay diverged: the log completes RMA operation %" PRIu64
                 ", which the program has not started", f->elem);
    rpl_out_data(c, f, r->buf, r->n, r->type);
    result_drop(r);
}

void rpl_out_other(struct rpl_call *c, const struct log_field *f)
{
    if (f->kind == LOG_F_MEMBERS || f->kind == LOG_F_SIZE)
        return;
    if (f->kind == LOG_F_WINDIFF) {
        apply_diff(c, f);
        return;
    }
    if (f->kind == LOG_F_DATA && f->arg == LOG_ARG_NONE) {
        apply_result(c, f);
        return;
    }
    rpl_fail(c, RPL_EXIT_SETUP,
             "the log holds an output (argument %u, kind %u) this replay "
             "does not know where to write", f->arg, f->kind);
}


/* ---- windows ------------------------------------------------------------- */

#define WIN_CREATE(NAME)                                                     \
    int rpl_##NAME(struct args_##NAME *a)                                    \
    {                                                                        \
        int ret = rpl_replay_##NAME(a);                                      \
        if (ret == MPI_SUCCESS)                                              \
            region_add(*a->win, a->base, a->size, MPI_WIN_FLAVOR_CREATE, 0); \
        return ret;                                                          \
    }
WIN_CREATE(MPI_Win_create)
WIN_CREATE(MPI_Win_create_c)

/* The memory is allocated here, zeroed: the record's WINDIFF holds how the
 * recorded process's differed. An address of NULL stays NULL. */
static void win_allocate(struct rpl_call *c, MPI_Aint size, void *baseptr,
                         MPI_Win *win)
{
    struct log_field f;
    struct region *g = NULL;
    while (rpl_field(c, &f)) {
        if (f.arg == 4 && f.kind == LOG_F_RAW && f.len == 8) {
            void *logged, *mem = NULL;
            memcpy(&logged, f.data, 8);
            if (logged) {
                mem = calloc(1, size > 0 ? (size_t)size : 1);
                if (!mem)
                    rpl_fail(c, RPL_EXIT_SETUP, "cannot allocate the %"
                             PRId64 " bytes of an RMA window",
                             (int64_t)size);
            }
            g = region_add(MPI_WIN_NULL, mem, size, MPI_WIN_FLAVOR_ALLOCATE,
                           1);
            memcpy(baseptr, &mem, sizeof mem);
        } else if (f.arg == 5) {
            rpl_out_handle(c, &f, win);
        } else {
            rpl_out_other(c, &f);
        }
    }
    if (g)
        g->win = *win;
}

#define WIN_ALLOCATE(NAME)                                                   \
    int rpl_##NAME(struct args_##NAME *a)                                    \
    {                                                                        \
        struct rpl_call c;                                                   \
        rpl_begin_##NAME(&c, a);                                             \
        win_allocate(&c, a->size, a->baseptr, a->win);                       \
        return rpl_end(&c, a->comm);                                         \
    }
WIN_ALLOCATE(MPI_Win_allocate)
WIN_ALLOCATE(MPI_Win_allocate_c)

int rpl_MPI_Win_attach(struct args_MPI_Win_attach *a)
{
    int ret = rpl_replay_MPI_Win_attach(a);
    if (ret == MPI_SUCCESS)
        region_add(a->win, a->base, a->size, MPI_WIN_FLAVOR_DYNAMIC, 0);
    return ret;
}

/* The record carries the region's last changes: applied before it goes. */
int rpl_MPI_Win_detach(struct args_MPI_Win_detach *a)
{
    int ret = rpl_replay_MPI_Win_detach(a);
    if (ret == MPI_SUCCESS)
        for (size_t i = 0; i < nregions; i++)
            if (regions[i].win == a->win && regions[i].base == a->base) {
                region_drop(&regions[i]);
                break;
            }
    return ret;
}

/* MPI_Win_free runs the delete callbacks of the program's attributes on
 * the window, as MPI did. */
int rpl_MPI_Win_free(struct args_MPI_Win_free *a)
{
    MPI_Win old = *a->win;
    int ret = rpl_replay_MPI_Win_free(a);
    if (ret != MPI_SUCCESS)
        return ret;
    rpl_attrs_drop((int)old);
    for (size_t i = nregions; i-- > 0;)
        if (regions[i].win == old)
            region_drop(&regions[i]);
    for (size_t i = nresults; i-- > 0;)
        if (results[i].win == old)
            result_drop(&results[i]);
    return ret;
}

/* Window attributes: MPI_WIN_BASE is the window's memory in this process
 * (a dynamic window's is the logged MPI_BOTTOM), the other predefined ones
 * are logged values. */
int rpl_MPI_Win_get_attr(struct args_MPI_Win_get_attr *a)
{
    void **base = NULL;
    for (size_t i = 0; i < nregions && !base; i++)
        if (regions[i].win == a->win &&
            regions[i].flavor != MPI_WIN_FLAVOR_DYNAMIC)
            base = (void **)&regions[i].base;
    return rpl_attr_get(LOG_FN_MPI_Win_get_attr, a->win, a->win_keyval,
                        a->attribute_val, a->flag, base);
}

/* ---- operations ---------------------------------------------------------- */

/* An operation that leaves RESULT (N x TYPE at BUF, from TARGET) for a
 * later synchronization to write. */
#define RESULT_OP(NAME, BUF, N, TYPE)                                        \
    int rpl_##NAME(struct args_##NAME *a)                                    \
    {                                                                        \
        int ret = rpl_replay_##NAME(a);                                      \
        if (ret == MPI_SUCCESS)                                              \
            result_add(a->win, a->target_rank, a->BUF, N, a->TYPE);          \
        return ret;                                                          \
    }
RESULT_OP(MPI_Get, origin_addr, a->origin_count, origin_datatype)
RESULT_OP(MPI_Get_c, origin_addr, a->origin_count, origin_datatype)
RESULT_OP(MPI_Get_accumulate, result_addr, a->result_count, result_datatype)
RESULT_OP(MPI_Get_accumulate_c, result_addr, a->result_count,
          result_datatype)
RESULT_OP(MPI_Fetch_and_op, result_addr, 1, datatype)
RESULT_OP(MPI_Compare_and_swap, result_addr, 1, datatype)

/* Request-based: the Wait/Test call completing the request writes the
 * buffer, whole. */
#define REQUEST_OP(NAME, BUF, N, TYPE)                                       \
    int rpl_##NAME(struct args_##NAME *a)                                    \
    {                                                                        \
        int ret = rpl_replay_##NAME(a);                                      \
        if (ret == MPI_SUCCESS)                                              \
            rpl_req_register(*a->request, LOG_FN_##NAME, a->BUF, a->N,       \
                             a->TYPE, 0);                                    \
        return ret;                                                          \
    }
REQUEST_OP(MPI_Rget, origin_addr, origin_count, origin_datatype)
REQUEST_OP(MPI_Rget_c, origin_addr, origin_count, origin_datatype)
REQUEST_OP(MPI_Rget_accumulate, result_addr, result_count, result_datatype)
REQUEST_OP(MPI_Rget_accumulate_c, result_addr, result_count,
           result_datatype)
