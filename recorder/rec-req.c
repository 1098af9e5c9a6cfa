/*
 * The request-to-buffer table (rec.h, log/buf.h): entries are 56 bytes,
 * keyed by the request handle; the table grows (rarely) by doubling, its
 * only allocation. A receive's entry goes when its request completes; a
 * persistent request's (LOG_BUF_PERSISTENT) stays until MPI_Request_free,
 * and each completion logs the buffer again. MPI_Type_free of a type a
 * pending request still uses (legal: MPI keeps the type until the request
 * completes) gives the entry a copy of its own. The mirror of
 * replayer/rpl-req.c.
 */
#include <stdlib.h>

#include "drdb_mpi_abi.h"
#include "rec.h"

_Static_assert(sizeof(struct log_buf) <= 64, "keep table entries small");
static struct util_htab reqs = LOG_BUFS_INIT(MPI_REQUEST_NULL);

/* The recorder's copies of types the program freed while requests used
 * them (buf.h): contiguous(1, TYPE), the same type map and extent, made
 * before the program's handle goes. */
static int type_copy(uint32_t type, uint32_t *copy)
{
    MPI_Datatype t;
    if (DRDB_MPI_HANDLE_BUILTIN(type) ||
        PMPI_Type_contiguous(1, (MPI_Datatype)type, &t) != MPI_SUCCESS)
        return -1;
    if (PMPI_Type_commit(&t) != MPI_SUCCESS) {
        PMPI_Type_free(&t);
        return -1;
    }
    *copy = (uint32_t)t;
    return 0;
}

static void type_free(uint32_t type)
{
    MPI_Datatype t = (MPI_Datatype)type;
    PMPI_Type_free(&t);
}

static const struct log_buf_types own_types = {type_copy, type_free};

static struct log_bufs_builtin builtin; /* buf.h */

struct log_buf *rec_req_pick(MPI_Request req, const MPI_Request *where,
                             const uint32_t *skip, unsigned nskip)
{
    return log_bufs_find(&reqs, &builtin, (uint32_t)req, where, skip, nskip);
}

void rec_req_done(struct log_buf *b, int force)
{
    log_bufs_done(&reqs, &builtin, b, force, &own_types);
}

void rec_req_add(const struct log_buf *b)
{
    if (log_bufs_put(&reqs, &builtin, b) < 0)
        rec_fail(b->fn, "out of memory for the request table" REC_NO_MEMORY);
}

void rec_req_recv(MPI_Request *request, int fn, void *buf, int64_t n,
                  MPI_Datatype type, int persistent)
{
    struct log_buf e = {.buf = buf, .n = n, .type = (uint32_t)type,
                        .where = request, .req = (uint32_t)*request,
                        .fn = (uint16_t)fn,
                        .shape = LOG_BUF_RECV,
                        .flags = persistent ? LOG_BUF_PERSISTENT : 0};
    rec_req_add(&e);
}

void rec_req_parts(MPI_Request *request, int fn, void *buf, int partitions,
                   MPI_Count count, MPI_Datatype type)
{
    struct log_buf e = {.buf = buf, .n = (int64_t)partitions * count,
                        .type = (uint32_t)type, .peers = partitions,
                        .where = request, .req = (uint32_t)*request,
                        .fn = (uint16_t)fn,
                        .shape = LOG_BUF_RECV, .flags = LOG_BUF_PERSISTENT};
    rec_req_add(&e);
}

/* A partition that arrived (MPI_Parrived's flag 1): its data, logged as
 * the call's request argument's DATA (the stub writes it there). */
void rec_MPI_Parrived(struct rec_call *c, struct args_MPI_Parrived *a)
{
    rec_pmpi_MPI_Parrived(c, a);
    const struct log_buf *e = c->ret == MPI_SUCCESS && a->flag && *a->flag
        ? rec_req_find(a->request, NULL) : NULL;
    int64_t per = 0, bytes = 0;
    MPI_Aint lb, extent = 0;
    char *at = NULL;
    if (e && e->peers > 0 && a->partition >= 0 && a->partition < e->peers &&
        PMPI_Type_get_extent((MPI_Datatype)e->type, &lb, &extent) ==
            MPI_SUCCESS) {
        per = e->n / e->peers;
        at = (char *)e->buf + (int64_t)a->partition * per * extent;
        bytes = rec_data_bytes(per, (MPI_Datatype)e->type);
    }
    struct log_rec rec;
    if (!rec_frame_MPI_Parrived(c, a, &rec, 0,
                                LOG_FIELD_HEAD + 4 +
                                (bytes > 0 ? LOG_FIELD_HEAD +
                                 rec_pack_room(bytes, (MPI_Datatype)e->type)
                                           : 0)))
        return;
    if (a->flag)
        rec_put_raw(&rec, 2, 0, a->flag, 4);
    if (bytes > 0)
        rec_put_data(&rec, 0, at, per, (MPI_Datatype)e->type, bytes);
    rec_end(&rec);
}

void rec_req_coll(MPI_Request *request, int fn, void *buf, int64_t n,
                  MPI_Datatype type, int persistent)
{
    struct log_buf e = {.buf = buf, .n = n, .type = (uint32_t)type,
                        .where = request, .req = (uint32_t)*request,
                        .fn = (uint16_t)fn,
                        .shape = LOG_BUF_COLL,
                        .flags = persistent ? LOG_BUF_PERSISTENT : 0};
    if (e.n < 0)
        e.n = 0;
    rec_req_add(&e);
}

void rec_req_vcoll(MPI_Request *request, int fn, void *buf, int peers,
                   const void *counts, size_t csize, const void *displs,
                   size_t dsize, MPI_Datatype type, int persistent)
{
    struct log_buf e = {
        .buf = buf, .counts = counts, .displs = displs,
        .type = (uint32_t)type, .peers = peers, .where = request,
        .req = (uint32_t)*request,
        .fn = (uint16_t)fn, .shape = LOG_BUF_VCOLL,
        .flags = (uint8_t)((persistent ? LOG_BUF_PERSISTENT : 0) |
                           log_buf_sizes((unsigned)csize, (unsigned)dsize))};
    if (e.peers < 0)
        e.peers = 0;
    rec_req_add(&e);
}

/* The handle after (MPI_DATATYPE_NULL), as the generated wrapper logged
 * it. */
void rec_MPI_Type_free(struct rec_call *c, struct args_MPI_Type_free *a)
{
    /* A walk over the pending requests, at MPI_Type_free only: nothing
     * on the per-message path. */
    if (reqs.used && !DRDB_MPI_HANDLE_BUILTIN(*a->datatype))
        log_bufs_keep_type(&reqs, (uint32_t)*a->datatype, &own_types);
    uint32_t freed = (uint32_t)*a->datatype;
    rec_pmpi_MPI_Type_free(c, a);
    struct log_rec rec;
    if (rec_frame_MPI_Type_free(c, a, &rec, 0, 2 * LOG_HANDLE_ROOM)) {
        if (c->ret == MPI_SUCCESS) {
            log_put_handle(&rec, 0, LOG_F_HANDLE, 0, (uint32_t)*a->datatype);
            /* the type freed (docs/log-format.md: REQUEST) */
            log_put_handle(&rec, LOG_ARG_NONE, LOG_F_REQUEST, 0, freed);
        }
        rec_end(&rec);
    }
}

/* The request (REQUEST, the handle before) and what MPI left in it. */
void rec_MPI_Request_free(struct rec_call *c, struct args_MPI_Request_free *a)
{
    rec_req_done(rec_req_find(*a->request, a->request), 1);
    rec_pending_free(*a->request);
    MPI_Request before = *a->request;
    rec_pmpi_MPI_Request_free(c, a);
    struct log_rec rec;
    if (rec_frame_MPI_Request_free(c, a, &rec, 0,
                                   LOG_HANDLE_ROOM + LOG_FIELD_HEAD + 4)) {
        log_put_handle(&rec, 0, LOG_F_REQUEST, 0, (uint32_t)before);
        rec_put_raw(&rec, 0, 0, a->request, 4);
        rec_end(&rec);
    }
}

/* ---- split collectives (log/buf.h) ------------------------------------- */

static struct log_splits splits;

void rec_split_begin(MPI_File fh, void *buf, int64_t n, MPI_Datatype type)
{
    struct log_buf e = {.buf = buf, .n = n, .type = (uint32_t)type,
                        .shape = LOG_BUF_RECV};
    log_splits_put(&splits, (uint64_t)(uintptr_t)fh, &e);
}

struct log_buf *rec_split_end(MPI_File fh)
{
    return log_splits_take(&splits, (uint64_t)(uintptr_t)fh);
}
