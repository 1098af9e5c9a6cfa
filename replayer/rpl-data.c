/*
 * Writing logged outputs back into the program's arguments: raw bytes,
 * handles, strings, statuses, message data (plain, per peer, per peer and
 * type: through the datatype engine), the checks of logged inputs, and the
 * sizes of communicators (from the members the recorder logged) that bound
 * per-peer outputs (rpl.h). The mirror of recorder/rec-data.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "rpl.h"

static void want_kind(struct rpl_call *c, const struct log_field *f,
                      unsigned kind)
{
    if (f->kind != kind)
        rpl_fail(c, RPL_EXIT_SETUP,
                 "malformed record: field of kind %u for argument %u, "
                 "expected kind %u", f->kind, f->arg, kind);
}

void rpl_out_raw(struct rpl_call *c, const struct log_field *f, void *p,
                 int64_t max)
{
    want_kind(c, f, LOG_F_RAW);
    if (!p)
        return;
    if ((int64_t)f->len > max && max >= 0)
        rpl_fail(c, RPL_EXIT_DIVERGED,
                 "replay diverged: the log holds %" PRIu64 " bytes for "
                 "argument %u, the program's argument has room for %" PRId64,
                 f->len, f->arg, max);
    memcpy(p, f->data, f->len);
}

uint32_t rpl_field_handle(struct rpl_call *c, const struct log_field *f)
{
    uint32_t v;
    if ((f->kind != LOG_F_HANDLE && f->kind != LOG_F_REQUEST) ||
        log_field_handle(f, &v) < 0)
        rpl_fail(c, RPL_EXIT_SETUP, "malformed handle in the log (argument "
                 "%u, kind %u)", f->arg, f->kind);
    return v;
}

void rpl_out_handle(struct rpl_call *c, const struct log_field *f, void *p)
{
    want_kind(c, f, LOG_F_HANDLE);
    uint32_t v = rpl_field_handle(c, f);
    if (p)
        memcpy(p, &v, 4);
}

void rpl_out_string(struct rpl_call *c, const struct log_field *f, char *p,
                    int64_t cap)
{
    want_kind(c, f, LOG_F_STRING);
    if (!p || cap <= 0)
        return;
    size_t n = f->len < (uint64_t)cap - 1 ? f->len : (size_t)cap - 1;
    memcpy(p, f->data, n);
    p[n] = '\0';
}

void rpl_out_status(struct rpl_call *c, const struct log_field *f,
                    MPI_Status *st)
{
    int32_t v[LOG_ST_N];
    want_kind(c, f, LOG_F_STATUS);
    if (st == MPI_STATUS_IGNORE || st == MPI_STATUSES_IGNORE)
        return;
    if (log_field_status(f, v) < 0)
        rpl_fail(c, RPL_EXIT_SETUP, "malformed status in the log");
    log_status_to_mpi(v, st);
}

/* Unpacks a DATA field into COUNT x TYPE at BUF; all of it must fit. */
static void unpack(struct rpl_call *c, const struct log_field *f, void *buf,
                   int64_t count, MPI_Datatype type)
{
    int64_t got = rpl_type_unpack(f->data, (int64_t)f->len, buf, count, type);
    if (got == -EINVAL)
        rpl_fail(c, RPL_EXIT_SETUP,
                 "datatype %#x is unknown to the replay (created by a call "
                 "the stub does not replay?)", (unsigned)type);
    if (got != (int64_t)f->len)
        rpl_fail(c, RPL_EXIT_DIVERGED,
                 "replay diverged: the logged message has %" PRIu64 " bytes, "
                 "more than %" PRId64 " x datatype %#x holds", f->len, count,
                 (unsigned)type);
}

void rpl_out_data(struct rpl_call *c, const struct log_field *f, void *buf,
                  int64_t count, MPI_Datatype type)
{
    want_kind(c, f, LOG_F_DATA);
    if (f->len)
        unpack(c, f, buf, count, type);
}

static int64_t elem_at(const void *arr, size_t esize, int64_t i)
{
    if (esize == 8)
        return ((const int64_t *)arr)[i];
    return ((const int *)arr)[i];
}

void rpl_out_vdata(struct rpl_call *c, const struct log_field *f, void *buf,
                   const void *counts, size_t csize, const void *displs,
                   size_t dsize, MPI_Datatype type, int64_t peers)
{
    struct rpl_type_info ti;
    want_kind(c, f, LOG_F_DATA);
    if (!f->len)
        return;
    if (rpl_type_get(type, &ti) < 0 || !counts || !displs)
        rpl_fail(c, RPL_EXIT_SETUP, "datatype %#x is unknown to the replay",
                 (unsigned)type);
    /* The recorder packed peer after peer; a peer's block is counts[i]
     * elements at displs[i] extents. */
    struct log_field part = *f;
    for (int64_t i = 0; part.len > 0 && i < peers; i++) {
        int64_t n = elem_at(counts, csize, i), bytes = n * ti.size;
        if (n <= 0)
            continue;
        if ((uint64_t)bytes > part.len)
            bytes = (int64_t)part.len;
        struct log_field one = part;
        one.len = (uint64_t)bytes;
        unpack(c, &one, (char *)buf + elem_at(displs, dsize, i) * ti.extent, n,
               type);
        part.data += bytes;
        part.len -= (uint64_t)bytes;
    }
}

void rpl_out_wdata(struct rpl_call *c, const struct log_field *f, void *buf,
                   const void *counts, size_t csize, const void *displs,
                   size_t dsize, const MPI_Datatype *types, int64_t peers)
{
    struct log_field part = *f;
    want_kind(c, f, LOG_F_DATA);
    for (int64_t i = 0; part.len > 0 && i < peers; i++) {
        struct rpl_type_info ti;
        int64_t n = elem_at(counts, csize, i);
        if (n <= 0)
            continue;
        if (rpl_type_get(types[i], &ti) < 0)
            rpl_fail(c, RPL_EXIT_SETUP, "datatype %#x is unknown to the "
                     "replay", (unsigned)types[i]);
        int64_t bytes = n * ti.size;
        if ((uint64_t)bytes > part.len)
            bytes = (int64_t)part.len;
        struct log_field one = part;
        one.len = (uint64_t)bytes;
        unpack(c, &one, (char *)buf + elem_at(displs, dsize, i), n, types[i]);
        part.data += bytes;
        part.len -= (uint64_t)bytes;
    }
}

void rpl_out_sent(struct rpl_call *c, const struct log_field *f)
{
    want_kind(c, f, LOG_F_DATA);
}

void rpl_out_noted(struct rpl_call *c, const struct log_field *f)
{
    want_kind(c, f, LOG_F_RAW);
}

void rpl_check_raw(struct rpl_call *c, const struct log_field *f,
                   const void *p, int64_t len)
{
    want_kind(c, f, LOG_F_RAW);
    if ((int64_t)f->len != len || (len && memcmp(p, f->data, f->len)))
        rpl_fail(c, RPL_EXIT_DIVERGED,
                 "replay diverged: argument %u differs from the recorded "
                 "one (%" PRIu64 " bytes logged)", f->arg, f->len);
}

void rpl_check_sent(struct rpl_call *c, const struct log_field *f,
                    const void *buf, int64_t count, MPI_Datatype type)
{
    want_kind(c, f, LOG_F_DATA);
    if (buf == MPI_IN_PLACE || !f->len)
        return;
    uint8_t *tmp = malloc(f->len);
    if (!tmp)
        return;
    int64_t got = rpl_type_pack(buf, count, type, tmp, (int64_t)f->len);
    if (got >= 0) {
        for (uint64_t i = 0; i < f->len && i < (uint64_t)got; i++)
            if (tmp[i] != f->data[i]) {
                unsigned now = tmp[i], then = f->data[i];
                free(tmp);
                rpl_fail(c, RPL_EXIT_DIVERGED,
                         "replay diverged: the program sends other data "
                         "than recorded (argument %u, byte %" PRIu64 " of %"
                         PRIu64 ": recorded %#04x, now %#04x)", f->arg, i,
                         f->len, then, now);
            }
        if ((uint64_t)got != f->len) {
            free(tmp);
            rpl_fail(c, RPL_EXIT_DIVERGED,
                     "replay diverged: the program sends %" PRId64 " bytes, "
                     "the recorded message had %" PRIu64, got, f->len);
        }
    }
    free(tmp);
}

/* ---- communicators ------------------------------------------------------ */

/* Sizes of the communicators the program created (their members were
 * logged); a communicator freed and its handle reused gets the new one's. */
struct comm_size {
    int comm; /* MPI_COMM_NULL: a free slot */
    int size, remote;
};
static struct util_htab comms = UTIL_HTAB_INIT(struct comm_size, comm, MPI_COMM_NULL);

void rpl_comm_new(struct rpl_call *c, MPI_Comm comm)
{
    struct log_field f;
    int size = -1, remote = -1;
    size_t cur = c->cursor;
    c->cursor = 0;
    while (rpl_field(c, &f))
        if (f.kind == LOG_F_MEMBERS) {
            if (f.elem == 0)
                size = (int)(f.len / 4);
            else
                remote = (int)(f.len / 4);
        }
    c->cursor = cur;
    if (size < 0 || comm == MPI_COMM_NULL)
        return;
    struct comm_size e = {(int)comm, size, remote};
    if (util_htab_put(&comms, &e) < 0)
        rpl_fail(c, RPL_EXIT_SETUP, "out of memory for communicators");
}

static int comm_lookup(MPI_Comm comm, int remote)
{
    if (comm == MPI_COMM_WORLD)
        return rpl_world_size;
    if (comm == MPI_COMM_SELF)
        return 1;
    const struct comm_size *e = util_htab_find(&comms, (int)comm);
    if (e)
        return remote && e->remote >= 0 ? e->remote : e->size;
    /* Unknown: the logged data's length still bounds every copy. */
    return RPL_MANY_PEERS;
}

int rpl_comm_size(MPI_Comm comm)
{
    return comm_lookup(comm, 0);
}

int rpl_comm_peers(MPI_Comm comm)
{
    if (comm == MPI_COMM_NULL)
        return RPL_MANY_PEERS;
    return comm_lookup(comm, 1);
}

