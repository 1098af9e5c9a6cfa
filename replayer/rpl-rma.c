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
 * Any record may then carry (rpl_rma_field, through rpl_out_other): DATA
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

#pragma GCC diagnostic ignored "-Wmissing-prototypes"

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

static int get_varint(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
    *v = 0;
    for (int shift = 0; *p < end && shift < 64; shift += 7) {
        uint8_t b = *(*p)++;
        *v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            return 0;
    }
    return -1;
}

/* A WINDIFF field: runs of (gap, length, bytes) into the region. */
static void apply_diff(struct rpl_call *c, const struct rpl_field *f)
{
    struct region *g = region_find(f->elem);
    if (!g)
        rpl_fail(c, RPL_EXIT_DIVERGED,
                 "replay diverged: the log changes RMA window region %" PRIu64
                 ", which the program has not created (or has freed)",
                 f->elem);
    const uint8_t *p = f->data, *end = f->data + f->len;
    uint64_t off = 0, size = (uint64_t)g->size;
    while (p < end) {
        uint64_t gap, len;
        if (get_varint(&p, end, &gap) < 0 || get_varint(&p, end, &len) < 0 ||
            len > (uint64_t)(end - p) || gap > size - off ||
            len > size - off - gap)
            rpl_fail(c, RPL_EXIT_SETUP,
                     "malformed record: the changes of RMA window region "
                     "%" PRIu64 " do not fit its %" PRIu64 " bytes",
                     f->elem, size);
        off += gap;
        memcpy(g->base + off, p, len);
        p += len;
        off += len;
    }
}

void rpl_rma_field(struct rpl_call *c, const struct rpl_field *f)
{
    if (f->kind == LOG_F_WINDIFF) {
        apply_diff(c, f);
        return;
    }
    struct result *r = result_find(f->elem);
    if (!r)
        rpl_fail(c, RPL_EXIT_DIVERGED,
                 "replay diverged: the log completes RMA operation %" PRIu64
                 ", which the program has not started", f->elem);
    rpl_out_data(c, f, r->buf, r->n, r->type);
    result_drop(r);
}

int rpl_win_base(MPI_Win win, void **base)
{
    for (size_t i = 0; i < nregions; i++)
        if (regions[i].win == win &&
            regions[i].flavor != MPI_WIN_FLAVOR_DYNAMIC) {
            *base = regions[i].base;
            return 1;
        }
    return 0;
}

/* ---- windows ------------------------------------------------------------- */

#define WIN_CREATE(NAME, DU_T)                                             \
    int P##NAME(void *base, MPI_Aint size, DU_T disp_unit, MPI_Info info, \
                MPI_Comm comm, MPI_Win *win)                               \
    {                                                                      \
        int ret = rpl__auto_##NAME(base, size, disp_unit, info, comm,      \
                                   win);                                   \
        if (ret == MPI_SUCCESS)                                            \
            region_add(*win, base, size, MPI_WIN_FLAVOR_CREATE, 0);        \
        return ret;                                                        \
    }
WIN_CREATE(MPI_Win_create, int)
WIN_CREATE(MPI_Win_create_c, MPI_Aint)

/* The memory is allocated here, zeroed: the record's WINDIFF holds how the
 * recorded process's differed. An address of NULL stays NULL. */
static int win_allocate(int fn, MPI_Aint size, int64_t disp_unit,
                        MPI_Info info, MPI_Comm comm, void *baseptr,
                        MPI_Win *win)
{
    struct rpl_call c;
    struct rpl_field f;
    const int64_t v[] = {(int64_t)size, disp_unit, (int64_t)(int32_t)info,
                         (int64_t)(int32_t)comm};
    struct region *g = NULL;
    rpl_begin(&c, fn, v, 4, 0);
    while (rpl_field(&c, &f)) {
        if (f.arg == 4 && f.kind == LOG_F_RAW && f.len == 8) {
            void *logged, *mem = NULL;
            memcpy(&logged, f.data, 8);
            if (logged) {
                mem = calloc(1, size > 0 ? (size_t)size : 1);
                if (!mem)
                    rpl_fail(&c, RPL_EXIT_SETUP, "cannot allocate the %"
                             PRId64 " bytes of an RMA window",
                             (int64_t)size);
            }
            g = region_add(MPI_WIN_NULL, mem, size, MPI_WIN_FLAVOR_ALLOCATE,
                           1);
            memcpy(baseptr, &mem, sizeof mem);
        } else if (f.arg == 5) {
            rpl_out_handle(&c, &f, win);
        } else {
            rpl_out_other(&c, &f);
        }
    }
    if (g)
        g->win = *win;
    return rpl_end(&c, comm);
}

int PMPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info,
                      MPI_Comm comm, void *baseptr, MPI_Win *win)
{
    return win_allocate(LOG_FN_MPI_Win_allocate, size, disp_unit, info, comm,
                        baseptr, win);
}

int PMPI_Win_allocate_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info,
                        MPI_Comm comm, void *baseptr, MPI_Win *win)
{
    return win_allocate(LOG_FN_MPI_Win_allocate_c, size, disp_unit, info,
                        comm, baseptr, win);
}

int PMPI_Win_attach(MPI_Win win, void *base, MPI_Aint size)
{
    int ret = rpl__auto_MPI_Win_attach(win, base, size);
    if (ret == MPI_SUCCESS)
        region_add(win, base, size, MPI_WIN_FLAVOR_DYNAMIC, 0);
    return ret;
}

/* The record carries the region's last changes: applied before it goes. */
int PMPI_Win_detach(MPI_Win win, const void *base)
{
    int ret = rpl__auto_MPI_Win_detach(win, base);
    if (ret == MPI_SUCCESS)
        for (size_t i = 0; i < nregions; i++)
            if (regions[i].win == win && regions[i].base == base) {
                region_drop(&regions[i]);
                break;
            }
    return ret;
}

int PMPI_Win_free(MPI_Win *win)
{
    MPI_Win old = *win;
    int ret = rpl__auto_MPI_Win_free(win);
    if (ret != MPI_SUCCESS)
        return ret;
    rpl_win_attrs_drop(old);
    for (size_t i = nregions; i-- > 0;)
        if (regions[i].win == old)
            region_drop(&regions[i]);
    for (size_t i = nresults; i-- > 0;)
        if (results[i].win == old)
            result_drop(&results[i]);
    return ret;
}

/* ---- operations ---------------------------------------------------------- */

#define GET(NAME, CT)                                                      \
    int P##NAME(void *origin_addr, CT origin_count,                        \
                MPI_Datatype origin_datatype, int target_rank,             \
                MPI_Aint target_disp, CT target_count,                     \
                MPI_Datatype target_datatype, MPI_Win win)                 \
    {                                                                      \
        int ret = rpl__auto_##NAME(origin_addr, origin_count,              \
                                   origin_datatype, target_rank,           \
                                   target_disp, target_count,              \
                                   target_datatype, win);                  \
        if (ret == MPI_SUCCESS)                                            \
            result_add(win, target_rank, origin_addr, origin_count,        \
                       origin_datatype);                                   \
        return ret;                                                        \
    }
GET(MPI_Get, int)
GET(MPI_Get_c, MPI_Count)

#define GET_ACCUMULATE(NAME, CT)                                           \
    int P##NAME(const void *origin_addr, CT origin_count,                  \
                MPI_Datatype origin_datatype, void *result_addr,           \
                CT result_count, MPI_Datatype result_datatype,             \
                int target_rank, MPI_Aint target_disp, CT target_count,    \
                MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)      \
    {                                                                      \
        int ret = rpl__auto_##NAME(origin_addr, origin_count,              \
                                   origin_datatype, result_addr,           \
                                   result_count, result_datatype,          \
                                   target_rank, target_disp, target_count, \
                                   target_datatype, op, win);              \
        if (ret == MPI_SUCCESS)                                            \
            result_add(win, target_rank, result_addr, result_count,        \
                       result_datatype);                                   \
        return ret;                                                        \
    }
GET_ACCUMULATE(MPI_Get_accumulate, int)
GET_ACCUMULATE(MPI_Get_accumulate_c, MPI_Count)

int PMPI_Fetch_and_op(const void *origin_addr, void *result_addr,
                      MPI_Datatype datatype, int target_rank,
                      MPI_Aint target_disp, MPI_Op op, MPI_Win win)
{
    int ret = rpl__auto_MPI_Fetch_and_op(origin_addr, result_addr, datatype,
                                         target_rank, target_disp, op, win);
    if (ret == MPI_SUCCESS)
        result_add(win, target_rank, result_addr, 1, datatype);
    return ret;
}

int PMPI_Compare_and_swap(const void *origin_addr, const void *compare_addr,
                          void *result_addr, MPI_Datatype datatype,
                          int target_rank, MPI_Aint target_disp, MPI_Win win)
{
    int ret = rpl__auto_MPI_Compare_and_swap(origin_addr, compare_addr,
                                             result_addr, datatype,
                                             target_rank, target_disp, win);
    if (ret == MPI_SUCCESS)
        result_add(win, target_rank, result_addr, 1, datatype);
    return ret;
}

/* Request-based: the Wait/Test call completing the request writes the
 * buffer, whole. */
#define RGET(NAME, CT)                                                     \
    int P##NAME(void *origin_addr, CT origin_count,                        \
                MPI_Datatype origin_datatype, int target_rank,             \
                MPI_Aint target_disp, CT target_count,                     \
                MPI_Datatype target_datatype, MPI_Win win,                 \
                MPI_Request *request)                                      \
    {                                                                      \
        int ret = rpl__auto_##NAME(origin_addr, origin_count,              \
                                   origin_datatype, target_rank,           \
                                   target_disp, target_count,              \
                                   target_datatype, win, request);         \
        if (ret == MPI_SUCCESS)                                            \
            rpl_req_register(*request, LOG_FN_##NAME, origin_addr,         \
                             origin_count, origin_datatype,                \
                             MPI_COMM_NULL, 0);                            \
        return ret;                                                        \
    }
RGET(MPI_Rget, int)
RGET(MPI_Rget_c, MPI_Count)

#define RGET_ACCUMULATE(NAME, CT)                                          \
    int P##NAME(const void *origin_addr, CT origin_count,                  \
                MPI_Datatype origin_datatype, void *result_addr,           \
                CT result_count, MPI_Datatype result_datatype,             \
                int target_rank, MPI_Aint target_disp, CT target_count,    \
                MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,      \
                MPI_Request *request)                                      \
    {                                                                      \
        int ret = rpl__auto_##NAME(origin_addr, origin_count,              \
                                   origin_datatype, result_addr,           \
                                   result_count, result_datatype,          \
                                   target_rank, target_disp, target_count, \
                                   target_datatype, op, win, request);     \
        if (ret == MPI_SUCCESS)                                            \
            rpl_req_register(*request, LOG_FN_##NAME, result_addr,         \
                             result_count, result_datatype,                \
                             MPI_COMM_NULL, 0);                            \
        return ret;                                                        \
    }
RGET_ACCUMULATE(MPI_Rget_accumulate, int)
RGET_ACCUMULATE(MPI_Rget_accumulate_c, MPI_Count)
