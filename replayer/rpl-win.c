/*
 * One-sided communication (RMA), the state: the windows' memory and the
 * pending results, and the fields that apply the log to them (the hooks
 * are in rpl-rma.c; together the mirror of recorder/rec-rma.c).
 *
 * The stub keeps the same two tables as the recorder, numbered the same
 * way (the program makes the same calls, and the logged return codes say
 * which succeeded):
 *
 *  - regions: the memory of the program's windows. MPI_Win_create's and
 *    MPI_Win_attach's are the program's own buffers; MPI_Win_allocate's is
 *    allocated here (zeroed, then its creation record's WINDIFF applied),
 *    since the logged address is the recorded process's; a shared-memory
 *    window's segment is allocated by rpl-shm.c.
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

struct result {
    uint64_t seq; /* the operation's number: its DATA field's elem */
    MPI_Win win;
    void *buf;
    int64_t n;
    MPI_Datatype type; /* the program's, or the stub's copy of it */
    int own_type;
};

/* Both in increasing number order: entries are appended. */
static struct rpl_region *regions;
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

struct rpl_region *rpl_win_region_add(MPI_Win win, void *base, int64_t size,
                                      int flavor, int owned)
{
    need(&regions, &regions_cap, nregions + 1, sizeof *regions);
    struct rpl_region *g = &regions[nregions++];
    g->id = next_region++;
    g->win = win;
    g->base = base;
    g->size = base && size > 0 ? size : 0;
    g->flavor = flavor;
    g->owned = owned;
    g->mine = NULL;
    g->logged = 0;
    return g;
}

static void region_drop(struct rpl_region *g)
{
    if (g->owned)
        rpl_mem_free(g->base);
    size_t i = (size_t)(g - regions);
    memmove(g, g + 1, (nregions - i - 1) * sizeof *g);
    nregions--;
}

static struct rpl_region *region_find(uint64_t id)
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

void rpl_win_result_add(MPI_Win win, int target, void *buf, int64_t n,
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
    struct rpl_region *g = region_find(f->elem);
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
    /* MEMBERS and SIZE inform readers only; so do the handle a freeing
     * call freed (REQUEST of no argument: docs/log-format.md), a call
     * site's object (LOG_F_OBJECT) and the inputs the checks read
     * (LOG_F_ARRAY, LOG_F_NEIGHBORS, LOG_F_FRAME): they describe the
     * recording, not an output. */
    if (f->kind == LOG_F_MEMBERS || f->kind == LOG_F_SIZE ||
        f->kind == LOG_F_OBJECT || f->kind == LOG_F_ARRAY ||
        f->kind == LOG_F_NEIGHBORS || f->kind == LOG_F_FRAME ||
        (f->kind == LOG_F_REQUEST && f->arg == LOG_ARG_NONE))
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

/* The region MPI_Win_detach names, gone (its last changes were in the
 * record). */
void rpl_win_detach(MPI_Win win, const void *base)
{
    for (size_t i = 0; i < nregions; i++)
        if (regions[i].win == win && regions[i].base == base) {
            region_drop(&regions[i]);
            return;
        }
}

/* Everything of a freed window: its regions and its pending results. */
void rpl_win_drop(MPI_Win win)
{
    for (size_t i = nregions; i-- > 0;)
        if (regions[i].win == win)
            region_drop(&regions[i]);
    for (size_t i = nresults; i-- > 0;)
        if (results[i].win == win)
            result_drop(&results[i]);
}

/* Where the base address of WIN's memory is kept (MPI_Win_create's
 * buffer, MPI_Win_allocate's allocation, this rank's part of a shared
 * segment), NULL for an unknown or dynamic window. */
void *const *rpl_win_base(MPI_Win win)
{
    for (size_t i = 0; i < nregions; i++)
        if (regions[i].win == win &&
            regions[i].flavor != MPI_WIN_FLAVOR_DYNAMIC)
            return regions[i].flavor == MPI_WIN_FLAVOR_SHARED
                       ? (void *const *)&regions[i].mine
                       : (void *const *)&regions[i].base;
    return NULL;
}

const struct rpl_region *rpl_win_shared(MPI_Win win)
{
    for (size_t i = 0; i < nregions; i++)
        if (regions[i].win == win &&
            regions[i].flavor == MPI_WIN_FLAVOR_SHARED)
            return &regions[i];
    return NULL;
}
