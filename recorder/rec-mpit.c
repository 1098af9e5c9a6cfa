/*
 * The tool information interface's reads (MPI_T_cvar_read,
 * MPI_T_pvar_read, MPI_T_pvar_readreset): the value a read gives is
 * `count` elements (MPI_T_*_handle_alloc's output) of the variable's
 * datatype (MPI_T_*_get_info's), so the recorder keeps each handle's
 * variable and count from its allocation to its free and logs the
 * read's buffer whole (RAW, the buffer's argument). The mirror of
 * replayer/rpl-local.c's MPI_T reads. docs/replaying.md.
 */
#include <stdlib.h>

#include "rec.h"

/* A handle allocated and not freed: its variable (PVAR: a performance
 * variable, else a control one) and the elements a read gives. */
struct mpit_handle {
    void *h;
    int pvar, index, count;
};
static struct mpit_handle *handles;
static size_t nhandles, handles_cap;

static void handle_add(void *h, int pvar, int index, int count)
{
    if (!h)
        return;
    if (util_grow(&handles, &handles_cap, nhandles + 1, sizeof *handles) < 0)
        rec_fail(LOG_FN_MPI_T_cvar_handle_alloc,
                 "out of memory for MPI_T handles" REC_NO_MEMORY);
    handles[nhandles++] = (struct mpit_handle){h, pvar, index, count};
}

static struct mpit_handle *handle_find(const void *h)
{
    for (size_t i = 0; i < nhandles; i++)
        if (handles[i].h == h)
            return &handles[i];
    return NULL;
}

static void handle_drop(const void *h)
{
    struct mpit_handle *e = handle_find(h);
    if (e)
        *e = handles[--nhandles];
}

/* The bytes a read of H gives: -1 when not known. MPI 4.0 15.3.5: a
 * variable's datatype is one of a few predefined ones. */
static int64_t read_bytes(const void *h)
{
    const struct mpit_handle *e = handle_find(h);
    MPI_Datatype t = MPI_DATATYPE_NULL;
    int rc, size = 0, zero = 0, i;
    MPI_T_enum en;
    if (!e)
        return -1;
    if (e->pvar)
        rc = PMPI_T_pvar_get_info(e->index, NULL, &zero, &i, &i, &t, &en,
                                  NULL, &zero, &i, &i, &i, &i);
    else
        rc = PMPI_T_cvar_get_info(e->index, NULL, &zero, &i, &t, &en, NULL,
                                  &zero, &i, &i);
    if (rc != MPI_SUCCESS)
        return -1;
    if (t == MPI_INT || t == MPI_UNSIGNED)
        size = 4;
    else if (t == MPI_UNSIGNED_LONG || t == MPI_UNSIGNED_LONG_LONG ||
             t == MPI_COUNT || t == MPI_DOUBLE)
        size = 8;
    else if (t == MPI_CHAR)
        size = 1;
    else if (PMPI_Type_size(t, &size) != MPI_SUCCESS)
        return -1;
    return (int64_t)size * (e->count > 0 ? e->count : 0);
}

void rec_MPI_T_cvar_handle_alloc(struct rec_call *c,
                                 struct args_MPI_T_cvar_handle_alloc *a)
{
    rec_pmpi_MPI_T_cvar_handle_alloc(c, a);
    if (c->ret == MPI_SUCCESS && a->handle && a->count)
        handle_add(*a->handle, 0, a->cvar_index, *a->count);
    struct log_rec rec;
    if (rec_frame_MPI_T_cvar_handle_alloc(c, a, &rec, 0,
                                          2 * LOG_FIELD_HEAD + 12)) {
        if (a->handle)
            rec_put_raw(&rec, 2, 0, a->handle, sizeof *a->handle);
        if (a->count)
            rec_put_raw(&rec, 3, 0, a->count, 4);
        rec_end(&rec);
    }
}

void rec_MPI_T_pvar_handle_alloc(struct rec_call *c,
                                 struct args_MPI_T_pvar_handle_alloc *a)
{
    rec_pmpi_MPI_T_pvar_handle_alloc(c, a);
    if (c->ret == MPI_SUCCESS && a->handle && a->count)
        handle_add(*a->handle, 1, a->pvar_index, *a->count);
    struct log_rec rec;
    if (rec_frame_MPI_T_pvar_handle_alloc(c, a, &rec, 0,
                                          2 * LOG_FIELD_HEAD + 12)) {
        if (a->handle)
            rec_put_raw(&rec, 3, 0, a->handle, sizeof *a->handle);
        if (a->count)
            rec_put_raw(&rec, 4, 0, a->count, 4);
        rec_end(&rec);
    }
}

void rec_MPI_T_cvar_handle_free(struct rec_call *c,
                                struct args_MPI_T_cvar_handle_free *a)
{
    void *h = a->handle ? *a->handle : NULL;
    rec_pmpi_MPI_T_cvar_handle_free(c, a);
    if (c->ret == MPI_SUCCESS)
        handle_drop(h);
    struct log_rec rec;
    if (rec_frame_MPI_T_cvar_handle_free(c, a, &rec, 0, LOG_FIELD_HEAD + 8)) {
        if (a->handle)
            rec_put_raw(&rec, 0, 0, a->handle, sizeof *a->handle);
        rec_end(&rec);
    }
}

void rec_MPI_T_pvar_handle_free(struct rec_call *c,
                                struct args_MPI_T_pvar_handle_free *a)
{
    void *h = a->handle ? *a->handle : NULL;
    rec_pmpi_MPI_T_pvar_handle_free(c, a);
    if (c->ret == MPI_SUCCESS)
        handle_drop(h);
    struct log_rec rec;
    if (rec_frame_MPI_T_pvar_handle_free(c, a, &rec, 0, LOG_FIELD_HEAD + 8)) {
        if (a->handle)
            rec_put_raw(&rec, 1, 0, a->handle, sizeof *a->handle);
        rec_end(&rec);
    }
}

/* A read (its buffer: argument ARG): the value whole, or the record
 * PARTIAL when the handle's size is not known. */
#define MPIT_READ(NAME, ARG)                                                 \
    void rec_##NAME(struct rec_call *c, struct args_##NAME *a)               \
    {                                                                        \
        rec_pmpi_##NAME(c, a);                                               \
        int64_t bytes = c->ret == MPI_SUCCESS ? read_bytes(a->handle) : 0;   \
        struct log_rec rec;                                                  \
        if (!rec_frame_##NAME(c, a, &rec,                                    \
                              bytes < 0 ? LOG_REC_PARTIAL : 0,               \
                              bytes > 0 ? LOG_FIELD_HEAD + (size_t)bytes     \
                                        : 0))                                \
            return;                                                          \
        if (bytes > 0 && a->buf)                                             \
            rec_put_raw(&rec, ARG, 0, a->buf, (size_t)bytes);                \
        rec_end(&rec);                                                       \
    }
MPIT_READ(MPI_T_cvar_read, 1)
MPIT_READ(MPI_T_pvar_read, 2)
MPIT_READ(MPI_T_pvar_readreset, 2)
