/*
 * Shared-memory windows (MPI_Win_allocate_shared, MPI_Win_shared_query):
 * the node's segment, replayed in a private allocation laid out as the
 * recorded one, its parts at the same offsets (the mirror of
 * recorder/rec-shm.c; docs/log-format.md, "Shared-memory windows").
 *
 * The segment is a region of rpl-win.c's table: the WINDIFF fields the
 * recorder appends to every synchronizing record (what the other ranks
 * stored, and this one's own stores again) are applied to it there, by
 * rpl_out_other. Addresses the recorded process got (its own part's
 * baseptr, MPI_Win_shared_query's) are turned into the same offsets in
 * this allocation.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "rpl.h"

/* At the recorded segment's address when it is free here (rpl-mem.c),
 * else page-aligned, as MPICH's mapping is, so the parts have the
 * alignment they had. */
static char *segment_alloc(struct rpl_call *c, uint64_t recorded,
                           uint64_t size)
{
    if (!size)
        return NULL;
    if (size > (uint64_t)INT64_MAX)
        rpl_fail(c, RPL_EXIT_SETUP, "cannot allocate the %" PRIu64
                 " bytes of a shared-memory window", size);
    return rpl_mem_alloc(c, recorded, (size_t)size);
}

/* The address in this replay of LOGGED, an address in G's segment in the
 * recorded process (NULL stays NULL). */
static void *translate(struct rpl_call *c, const struct rpl_region *g,
                       uint64_t logged)
{
    if (!logged)
        return NULL;
    if (logged < g->logged || logged - g->logged > (uint64_t)g->size)
        rpl_fail(c, RPL_EXIT_SETUP,
                 "malformed record: the address %#" PRIx64 " is not in the "
                 "shared-memory window's segment (%#" PRIx64 ", %" PRId64
                 " bytes)", logged, g->logged, g->size);
    return g->base + (logged - g->logged);
}

/* The fields (rec-shm.c): baseptr (RAW arg 4), win (HANDLE arg 5), the
 * segment (RAW arg LOG_ARG_NONE: recorded address, length), then the
 * segments' changes. */
static void allocate_shared(struct rpl_call *c, void *baseptr, MPI_Win *win)
{
    struct log_field f;
    uint64_t own = 0;
    int have_own = 0;
    struct rpl_region *g = NULL; /* nothing adds regions meanwhile */
    while (rpl_field(c, &f)) {
        if (f.arg == 4 && f.kind == LOG_F_RAW && f.len == 8) {
            memcpy(&own, f.data, 8);
            have_own = 1;
        } else if (f.arg == 5) {
            rpl_out_handle(c, &f, win);
        } else if (f.arg == LOG_ARG_NONE && f.kind == LOG_F_RAW &&
                   f.len == 16 && !g) {
            uint64_t span[2];
            memcpy(span, f.data, 16);
            if (span[1] > (uint64_t)INT64_MAX)
                rpl_fail(c, RPL_EXIT_SETUP, "malformed record: a "
                         "shared-memory segment of %" PRIu64 " bytes",
                         span[1]);
            g = rpl_win_region_add(
                *win, segment_alloc(c, span[0], span[1]), (int64_t)span[1],
                MPI_WIN_FLAVOR_SHARED, 1);
            g->logged = span[0];
        } else {
            rpl_out_other(c, &f);
        }
    }
    if (c->ret != MPI_SUCCESS)
        return;
    if (!g || !have_own)
        rpl_fail(c, RPL_EXIT_SETUP, "malformed record: a shared-memory "
                 "window without its segment");
    g->win = *win;
    g->mine = translate(c, g, own);
    memcpy(baseptr, &g->mine, sizeof g->mine);
}

#define WIN_ALLOCATE_SHARED(NAME)                                            \
    int rpl_##NAME(struct args_##NAME *a)                                    \
    {                                                                        \
        struct rpl_call c;                                                   \
        rpl_begin_##NAME(&c, a);                                             \
        allocate_shared(&c, a->baseptr, a->win);                             \
        return rpl_end(&c, a->comm);                                         \
    }
RPL_TWINS_MPI_Win_allocate_shared(WIN_ALLOCATE_SHARED)

/* The logged size and displacement unit; the logged address of the part,
 * turned into this replay's segment. */
#define WIN_SHARED_QUERY(NAME)                                               \
    int rpl_##NAME(struct args_##NAME *a)                                    \
    {                                                                        \
        struct rpl_call c;                                                   \
        rpl_begin_##NAME(&c, a);                                             \
        rpl_fields_##NAME(&c, a);                                            \
        if (c.ret == MPI_SUCCESS) {                                          \
            const struct rpl_region *g = rpl_win_shared(a->win);             \
            uint64_t logged;                                                 \
            memcpy(&logged, a->baseptr, 8);                                  \
            if (!g && logged)                                                \
                rpl_fail(&c, RPL_EXIT_DIVERGED, "replay diverged: "          \
                         "MPI_Win_shared_query on a window that is not "     \
                         "a shared-memory window here");                     \
            void *p = g ? translate(&c, g, logged) : NULL;                   \
            memcpy(a->baseptr, &p, sizeof p);                                \
        }                                                                    \
        return rpl_end(&c, MPI_COMM_WORLD);                                  \
    }
RPL_TWINS_MPI_Win_shared_query(WIN_SHARED_QUERY)
