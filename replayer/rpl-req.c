/*
 * The request-to-buffer table (rpl.h, log/buf.h): the buffer a nonblocking
 * or persistent call gave MPI, written from the log by the completion of
 * its request; and MPI_Request_free. The mirror of recorder/rec-req.c.
 */
#include <inttypes.h>

#include "drdb_mpi_abi.h"
#include "rpl.h"

static struct util_htab reqs = LOG_BUFS_INIT(MPI_REQUEST_NULL);

/* The handles of the table's own type copies: MPICH's handle kind 0
 * (invalid) in bits 30-31, as MPI_DATATYPE_NULL (the base itself, never
 * used), so no handle of the program's run is one. */
#define OWN_TYPE_BASE 0x0c000000u

/* The recorder's copies (rec-req.c) are mirrored by dups under handles of
 * the stub's own, so a later constructor reusing the freed handle value
 * (MPICH does once the requests complete) cannot change them. */
static int type_copy(uint32_t type, uint32_t *copy)
{
    static uint32_t next;
    *copy = OWN_TYPE_BASE | (1 + next++ % 0xffffffu);
    return rpl_type_dup((MPI_Datatype)type, (MPI_Datatype)*copy) < 0 ? -1 : 0;
}

static void type_free(uint32_t type)
{
    rpl_type_free((MPI_Datatype)type);
}

static const struct log_buf_types own_types = {type_copy, type_free};

static struct log_bufs_builtin builtin; /* log/buf.h */

/* REQ's entry, completed through the program's variable at WHERE (NULL:
 * not known; log/buf.h: MPICH's builtin requests), or NULL. */
static struct log_buf *req_find(MPI_Request req, const MPI_Request *where)
{
    return log_bufs_find(&reqs, &builtin, (uint32_t)req, where, NULL, 0);
}

static void req_put(const struct log_buf *b)
{
    if (log_bufs_put(&reqs, &builtin, b) < 0)
        rpl_fail(NULL, RPL_EXIT_SETUP, "out of memory for requests");
}

static uint8_t persistent_flag(int persistent)
{
    return persistent ? LOG_BUF_PERSISTENT : 0;
}

void rpl_req_register(MPI_Request *request, int fn, void *buf, int64_t n,
                      MPI_Datatype type, int persistent)
{
    struct log_buf e = {.buf = buf, .n = n, .type = (uint32_t)type,
                        .where = request, .req = (uint32_t)*request,
                        .fn = (uint16_t)fn,
                        .shape = LOG_BUF_COLL,
                        .flags = persistent_flag(persistent)};
    req_put(&e);
}

void rpl_req_register_parts(MPI_Request *request, int fn, void *buf,
                            int partitions, MPI_Count count,
                            MPI_Datatype type)
{
    struct log_buf e = {.buf = buf, .n = (int64_t)partitions * count,
                        .type = (uint32_t)type, .peers = partitions,
                        .where = request, .req = (uint32_t)*request,
                        .fn = (uint16_t)fn,
                        .shape = LOG_BUF_COLL, .flags = LOG_BUF_PERSISTENT};
    req_put(&e);
}

/* A partition that arrived: its logged data (the request argument's DATA,
 * rec-req.c) written into the partition of the receive's buffer. */
int rpl_MPI_Parrived(struct args_MPI_Parrived *a)
{
    struct rpl_call c;
    struct log_field f;
    rpl_begin_MPI_Parrived(&c, a);
    while (rpl_field(&c, &f)) {
        const struct log_buf *e;
        struct rpl_type_info t;
        if (f.arg == 2) {
            rpl_out_raw(&c, &f, a->flag, 4);
        } else if (f.arg == 0 && f.kind == LOG_F_DATA &&
                   (e = req_find(a->request, NULL)) &&
                   e->peers > 0 && a->partition >= 0 &&
                   a->partition < e->peers &&
                   rpl_type_get((MPI_Datatype)e->type, &t) == 0) {
            int64_t per = e->n / e->peers;
            rpl_out_data(&c, &f, (char *)e->buf + a->partition * per * t.extent,
                         per, (MPI_Datatype)e->type);
        } else if (f.arg == 0 && f.kind == LOG_F_DATA) {
            rpl_fail(&c, RPL_EXIT_DIVERGED, "replay diverged: partition %d "
                     "of request %#x arrived with %" PRIu64 " bytes of data "
                     "but no partitioned receive started it", a->partition,
                     (unsigned)a->request, f.len);
        } else {
            rpl_out_other(&c, &f);
        }
    }
    return rpl_end(&c, MPI_COMM_WORLD);
}

void rpl_req_register_v(MPI_Request *request, int fn, void *buf,
                        const void *counts, size_t csize, const void *displs,
                        size_t dsize, MPI_Datatype type, int64_t peers,
                        int persistent)
{
    struct log_buf e = {
        .buf = buf, .counts = counts, .displs = displs,
        .type = (uint32_t)type, .peers = (int32_t)peers, .where = request,
        .req = (uint32_t)*request, .fn = (uint16_t)fn, .shape = LOG_BUF_VCOLL,
        .flags = (uint8_t)(persistent_flag(persistent) |
                           log_buf_sizes((unsigned)csize, (unsigned)dsize))};
    req_put(&e);
}

void rpl_req_register_w(MPI_Request *request, int fn, void *buf,
                        const void *counts, size_t csize, const void *displs,
                        size_t dsize, const MPI_Datatype *types,
                        int64_t peers, int persistent)
{
    struct log_buf e = {
        .buf = buf, .counts = counts, .displs = displs,
        .types = (const uint32_t *)types, .peers = (int32_t)peers,
        .where = request, .req = (uint32_t)*request, .fn = (uint16_t)fn,
        .shape = LOG_BUF_WCOLL,
        .flags = (uint8_t)(persistent_flag(persistent) |
                           log_buf_sizes((unsigned)csize, (unsigned)dsize))};
    req_put(&e);
}

void rpl_req_data(struct rpl_call *c, MPI_Request req,
                  const MPI_Request *where, const struct log_field *f)
{
    const struct log_buf *e = req_find(req, where);
    if (!e) {
        if (f->len)
            rpl_fail(c, RPL_EXIT_DIVERGED,
                     "replay diverged: request %#x completes with %" PRIu64
                     " bytes of data but no receive started it",
                     (unsigned)req, f->len);
        return;
    }
    size_t cs = e->flags & LOG_BUF_COUNTS64 ? 8 : 4;
    size_t ds = e->flags & LOG_BUF_DISPLS64 ? 8 : 4;
    if (e->shape == LOG_BUF_WCOLL)
        rpl_out_wdata(c, f, e->buf, e->counts, cs, e->displs, ds,
                      (const MPI_Datatype *)e->types, e->peers);
    else if (e->shape == LOG_BUF_VCOLL)
        rpl_out_vdata(c, f, e->buf, e->counts, cs, e->displs, ds,
                      (MPI_Datatype)e->type, e->peers);
    else
        rpl_out_data(c, f, e->buf, e->n, (MPI_Datatype)e->type);
}

void rpl_req_done(MPI_Request req, const MPI_Request *where, int force)
{
    log_bufs_done(&reqs, &builtin, req_find(req, where), force, &own_types);
}

void rpl_req_keep_type(MPI_Datatype type)
{
    if (reqs.used && !DRDB_MPI_HANDLE_BUILTIN(type))
        log_bufs_keep_type(&reqs, (uint32_t)type, &own_types);
}

void rpl_same_request(struct rpl_call *c, MPI_Request logged,
                      MPI_Request prog)
{
    if (logged != prog)
        rpl_fail(c, RPL_EXIT_DIVERGED, "replay diverged: request %#x "
                 "completes in the log, the program's is %#x",
                 (unsigned)logged, (unsigned)prog);
}

/* Checks that the request MPI_Request_free's record names is the
 * program's; what MPI left in it. */
int rpl_MPI_Request_free(struct args_MPI_Request_free *a)
{
    struct rpl_call c;
    struct log_field f;
    MPI_Request before = *a->request;
    rpl_begin_MPI_Request_free(&c, a);
    while (rpl_field(&c, &f)) {
        if (f.kind == LOG_F_REQUEST)
            rpl_same_request(&c, (MPI_Request)rpl_field_handle(&c, &f),
                             before);
        else
            rpl_out_raw(&c, &f, a->request, 4);
    }
    rpl_req_done(before, a->request, 1);
    return rpl_end(&c, MPI_COMM_WORLD);
}

/* ---- split collectives (log/buf.h) ------------------------------------- */

static struct log_splits splits;

void rpl_split_begin(MPI_File fh, void *buf, int64_t n, MPI_Datatype type)
{
    struct log_buf e = {.buf = buf, .n = n, .type = (uint32_t)type,
                        .shape = LOG_BUF_RECV};
    if (log_splits_put(&splits, (uint64_t)(uintptr_t)fh, &e) < 0)
        rpl_fail(NULL, RPL_EXIT_SETUP, "more than %d split collectives at "
                 "once", LOG_SPLITS_MAX);
}

void rpl_split_data(struct rpl_call *c, const struct log_field *f,
                    MPI_File fh)
{
    for (int i = 0; i < LOG_SPLITS_MAX; i++)
        if (splits.fh[i] == (uint64_t)(uintptr_t)fh) {
            rpl_out_data(c, f, splits.b[i].buf, splits.b[i].n,
                         (MPI_Datatype)splits.b[i].type);
            return;
        }
    rpl_fail(c, RPL_EXIT_DIVERGED, "replay diverged: the split collective "
             "ends with %" PRIu64 " bytes of data but none began on file "
             "%p", f->len, (void *)fh);
}

void rpl_split_end(MPI_File fh)
{
    log_splits_take(&splits, (uint64_t)(uintptr_t)fh);
}
