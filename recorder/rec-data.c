/*
 * What the recorder logs of message data and communicators: sizes, the
 * packing of data (plain, per peer, per peer and type), the peers of a
 * collective and where its buffers count, and the members of a new
 * communicator (rec.h). The mirror of replayer/rpl-data.c.
 */
#include <stdlib.h>
#include <string.h>

#include "drdb_mpi_abi.h"
#include "rec.h"

int rec_peers(MPI_Comm comm)
{
    int inter = 0, n = 0;
    PMPI_Comm_test_inter(comm, &inter);
    if (inter)
        PMPI_Comm_remote_size(comm, &n);
    else
        PMPI_Comm_size(comm, &n);
    return n;
}

int rec_comm_size(MPI_Comm comm)
{
    int n = 0;
    PMPI_Comm_size(comm, &n);
    return n;
}

void rec_topo_get(struct rec_topo *t, MPI_Comm comm, int ok)
{
    int topo = MPI_UNDEFINED, rank = 0, weighted = 0;
    *t = (struct rec_topo){0, 0, 0, 0};
    if (!ok || PMPI_Topo_test(comm, &topo) != MPI_SUCCESS)
        return;
    switch (topo) {
    case MPI_CART:
        if (PMPI_Cartdim_get(comm, &t->ndims) == MPI_SUCCESS) {
            t->kind = LOG_TOPO_CART;
            t->in = t->out = 2 * t->ndims;
        }
        break;
    case MPI_GRAPH:
        PMPI_Comm_rank(comm, &rank);
        if (PMPI_Graph_neighbors_count(comm, rank, &t->in) == MPI_SUCCESS) {
            t->kind = LOG_TOPO_GRAPH;
            t->out = t->in;
        }
        break;
    case MPI_DIST_GRAPH:
        if (PMPI_Dist_graph_neighbors_count(comm, &t->in, &t->out,
                                            &weighted) == MPI_SUCCESS)
            t->kind = LOG_TOPO_DIST_GRAPH;
        break;
    }
}

/* The neighbours a field holds: a Cartesian or graph topology's
 * out-neighbours are its in-neighbours (log-format.h). */
static int topo_listed(const struct rec_topo *t)
{
    return t->kind == LOG_TOPO_DIST_GRAPH ? t->in + t->out : t->in;
}

/* The field's most (head, in-degree, the neighbours) and the scratch the
 * neighbours are asked for into (lists and weights, aligned). */
size_t rec_topo_room(const struct rec_topo *t)
{
    size_t n = (size_t)t->in + (size_t)t->out;
    return t->kind ? LOG_FIELD_HEAD + LOG_ARG_ROOM32 +
                         (size_t)topo_listed(t) * LOG_ARG_ROOM32 + 8 + 8 * n
                   : 0;
}

void rec_put_topo(struct log_rec *rec, MPI_Comm comm,
                  const struct rec_topo *t)
{
    if (!t->kind)
        return;
    int listed = topo_listed(t), rank = 0, ok = 1;
    uint8_t *head = rec->p, *body = head + LOG_FIELD_HEAD;
    /* Past the most the encoded neighbours take: written before read. */
    uintptr_t scratch = (uintptr_t)(body + LOG_ARG_ROOM32 +
                                    (size_t)listed * LOG_ARG_ROOM32);
    int *nb = (int *)((scratch + 7) & ~(uintptr_t)7);
    int *w = nb + t->in + t->out;
    switch (t->kind) {
    case LOG_TOPO_CART:
        for (int k = 0; k < t->ndims && ok; k++)
            ok = PMPI_Cart_shift(comm, k, 1, &nb[2 * k], &nb[2 * k + 1]) ==
                 MPI_SUCCESS;
        break;
    case LOG_TOPO_GRAPH:
        PMPI_Comm_rank(comm, &rank);
        ok = PMPI_Graph_neighbors(comm, rank, t->in, nb) == MPI_SUCCESS;
        break;
    default:
        /* Weights asked for too: MPI_UNWEIGHTED as an output is not the
         * standard's. */
        ok = PMPI_Dist_graph_neighbors(comm, t->in, nb, w, t->out,
                                       nb + t->in, w + t->in) == MPI_SUCCESS;
        break;
    }
    if (!ok)
        return;
    struct log_rec b = {body, body};
    log_put_varint(&b, (uint64_t)t->in);
    for (int i = 0; i < listed; i++)
        log_put_arg_int(&b, nb[i] == MPI_PROC_NULL ? -1 : nb[i]);
    size_t len = (size_t)(b.p - body);
    struct log_rec h = {head, head};
    log_put_field(&h, LOG_ARG_NONE, LOG_F_NEIGHBORS, (uint64_t)t->kind, len);
    memmove(h.p, body, len);
    rec->p = h.p + len;
}

int rec_coll_writes(MPI_Comm comm, int root, enum rec_side side)
{
    int inter = 0, rank = -1;
    PMPI_Comm_test_inter(comm, &inter);
    if (inter)
        return side == REC_AT_ROOT ? root == MPI_ROOT : root >= 0;
    if (side == REC_AT_ALL)
        return 1;
    PMPI_Comm_rank(comm, &rank);
    return (rank == root) == (side == REC_AT_ROOT);
}

static int64_t type_size(MPI_Datatype type)
{
    MPI_Count sz = 0;
    if (PMPI_Type_size_x(type, &sz) != MPI_SUCCESS || sz < 0)
        return 0;
    return (int64_t)sz;
}

int64_t rec_data_bytes(int64_t n, MPI_Datatype type)
{
    return n > 0 ? n * type_size(type) : 0;
}

int64_t rec_status_bytes(const MPI_Status *st, int64_t n, MPI_Datatype type)
{
    MPI_Count bytes = 0;
    if (PMPI_Get_elements_x(st, MPI_BYTE, &bytes) != MPI_SUCCESS ||
        bytes == MPI_UNDEFINED || bytes < 0)
        return 0;
    int64_t max = rec_data_bytes(n, type);
    return bytes < max ? (int64_t)bytes : max;
}

size_t rec_pack_room(int64_t bytes, MPI_Datatype type)
{
    return (size_t)bytes + (size_t)type_size(type);
}

/* A builtin datatype: contiguous. */
static int builtin_type(MPI_Datatype type)
{
    return DRDB_MPI_HANDLE_BUILTIN(type);
}

/* Where MPI_BOTTOM data is packed from (any aligned non-null address). */
#define BOTTOM_BASE ((uintptr_t)4096)

/* MPI_BOTTOM (a type of absolute displacements): MPICH's MPI_Pack refuses
 * a null buffer, so the same type map is packed from BOTTOM_BASE through
 * a copy of TYPE moved down by as much. Off the common path. */
static __attribute__((noinline)) void pack_bottom(void *out, MPI_Count elems,
                                                  MPI_Datatype type,
                                                  MPI_Count len)
{
    MPI_Datatype moved;
    MPI_Count pos = 0;
    int one = 1;
    MPI_Aint down = -(MPI_Aint)BOTTOM_BASE;
    if (PMPI_Type_create_hindexed(1, &one, &down, type, &moved) !=
        MPI_SUCCESS) {
        memset(out, 0, (size_t)len);
        return;
    }
    if (PMPI_Type_commit(&moved) == MPI_SUCCESS)
        PMPI_Pack_c((const void *)BOTTOM_BASE, elems, moved, out, len, &pos,
                    MPI_COMM_SELF);
    else
        memset(out, 0, (size_t)len);
    PMPI_Type_free(&moved);
}

/* A large payload of a derived TYPE (BYTES of N elements at BUF), as
 * the writer's pwrite takes it (log_writer_put_big): straight from BUF when
 * the elements lie end to end, else packed into the bounce buffer a piece
 * of whole elements at a time. 0, or -1 to pack into the record as usual
 * (an element larger than the bounce buffer). Records are built under the
 * recorder's lock: one bounce buffer. */
static int pack_big(struct log_rec *rec, const void *buf, int64_t n,
                    MPI_Datatype type, int64_t bytes, int64_t esz)
{
    enum { BOUNCE = 1 << 20 };
    static uint8_t *bounce;
    MPI_Count lb, ext, tlb, text;
    if (PMPI_Type_get_extent_c(type, &lb, &ext) == MPI_SUCCESS &&
        PMPI_Type_get_true_extent_c(type, &tlb, &text) == MPI_SUCCESS &&
        ext == esz && text == esz && lb == tlb) {
        rec_put_big(rec, (const uint8_t *)buf + tlb, (size_t)bytes);
        return 0;
    }
    if (esz > BOUNCE || (!bounce && !(bounce = malloc(BOUNCE))))
        return -1;
    int64_t per = BOUNCE / esz, done = 0;
    for (int64_t first = 0; first < n && done < bytes; first += per) {
        int64_t k = n - first < per ? n - first : per;
        MPI_Count pos = 0;
        PMPI_Pack_c((const uint8_t *)buf + first * ext, (MPI_Count)k, type,
                    bounce, (MPI_Count)BOUNCE, &pos, MPI_COMM_SELF);
        int64_t len = k * esz < bytes - done ? k * esz : bytes - done;
        rec_put_big(rec, bounce, (size_t)len);
        done += len;
    }
    return 0;
}

/* Packs BYTES of N x TYPE at BUF into the record at rec->p. */
static void pack(struct log_rec *rec, const void *buf, int64_t n,
                 MPI_Datatype type, int64_t bytes)
{
    int big = bytes >= (int64_t)log_writer_big_from;
    if (builtin_type(type)) {
        /* (a small one copied here: no call on the per-message path) */
        if (big)
            rec_put_big(rec, buf, (size_t)bytes);
        else
            log_put_bytes(rec, buf, (size_t)bytes);
        return;
    }
    int64_t esz = type_size(type);
    int64_t elems = esz ? (bytes + esz - 1) / esz : 0;
    if (elems > n)
        elems = n;
    if (big && buf && esz && pack_big(rec, buf, elems, type, bytes, esz) == 0)
        return;
    MPI_Count pos = 0;
    /* The record has room for one element of slack: packing a whole last
     * element is safe, only BYTES of it are kept. */
    if (buf)
        PMPI_Pack_c(buf, (MPI_Count)elems, type, rec->p,
                    (MPI_Count)(elems * esz), &pos, MPI_COMM_SELF);
    else if (elems > 0)
        pack_bottom(rec->p, (MPI_Count)elems, type, (MPI_Count)(elems * esz));
    rec->p += bytes;
}

static void put_data(struct log_rec *rec, unsigned arg, uint64_t elem,
                     const void *buf, int64_t n, MPI_Datatype type,
                     int64_t bytes)
{
    log_put_field(rec, arg, LOG_F_DATA, elem, (uint64_t)bytes);
    pack(rec, buf, n, type, bytes);
}

void rec_put_data(struct log_rec *rec, unsigned arg, const void *buf,
                  int64_t n, MPI_Datatype type, int64_t bytes)
{
    put_data(rec, arg, 0, buf, n, type, bytes);
}

static int64_t elem_at(const void *arr, size_t esize, int i)
{
    if (esize == 8)
        return ((const int64_t *)arr)[i];
    return ((const int *)arr)[i];
}

int64_t rec_vdata_bytes(int peers, const void *counts, size_t csize,
                        MPI_Datatype type)
{
    int64_t total = 0, esz = type_size(type);
    for (int i = 0; i < peers; i++) {
        int64_t c = elem_at(counts, csize, i);
        if (c > 0)
            total += c * esz;
    }
    return total;
}

/* The v- and w-shapes' body: PEERS blocks, packed back to back. TYPES NULL:
 * TYPE for every peer, DISPLS in its extents; else DISPLS in bytes. */
static void put_blocks(struct log_rec *rec, unsigned arg, uint64_t elem,
                       const void *buf, int peers, const void *counts,
                       size_t csize, const void *displs, size_t dsize,
                       MPI_Datatype type, const MPI_Datatype *types,
                       int64_t bytes)
{
    MPI_Aint lb, extent = 1;
    int64_t esz = 0;
    if (!types) {
        PMPI_Type_get_extent(type, &lb, &extent);
        esz = type_size(type);
    }
    log_put_field(rec, arg, LOG_F_DATA, elem, (uint64_t)bytes);
    for (int i = 0; i < peers; i++) {
        int64_t c = elem_at(counts, csize, i);
        if (c <= 0)
            continue;
        MPI_Datatype t = types ? types[i] : type;
        if (types)
            esz = type_size(t);
        pack(rec, (const char *)buf + elem_at(displs, dsize, i) * extent, c,
             t, c * esz);
    }
}

void rec_put_vdata(struct log_rec *rec, unsigned arg, const void *buf,
                   int peers, const void *counts, size_t csize,
                   const void *displs, size_t dsize, MPI_Datatype type,
                   int64_t bytes)
{
    put_blocks(rec, arg, 0, buf, peers, counts, csize, displs, dsize, type,
               NULL, bytes);
}

/* The w-variants' bytes: a type per peer. */
static int64_t wdata_bytes(int peers, const void *counts, size_t csize,
                           const MPI_Datatype *types)
{
    int64_t total = 0;
    for (int i = 0; i < peers; i++) {
        int64_t c = elem_at(counts, csize, i);
        if (c > 0)
            total += c * type_size(types[i]);
    }
    return total;
}

/* ---- buffers described by a struct log_buf ------------------------------ */

int64_t rec_buf_bytes(const struct log_buf *b, const MPI_Status *st)
{
    size_t cs = b->flags & LOG_BUF_COUNTS64 ? 8 : 4;
    switch (b->shape) {
    case LOG_BUF_RECV:
        return st ? rec_status_bytes(st, b->n, (MPI_Datatype)b->type) : 0;
    case LOG_BUF_COLL:
        return rec_data_bytes(b->n, (MPI_Datatype)b->type);
    case LOG_BUF_VCOLL:
        return rec_vdata_bytes(b->peers, b->counts, cs,
                               (MPI_Datatype)b->type);
    case LOG_BUF_WCOLL:
        return wdata_bytes(b->peers, b->counts, cs,
                           (const MPI_Datatype *)b->types);
    }
    return 0;
}

size_t rec_buf_room(const struct log_buf *b, int64_t bytes)
{
    if (bytes <= 0)
        return 0;
    /* v- and w-shapes pack whole elements: no slack needed. */
    if (b->shape == LOG_BUF_VCOLL || b->shape == LOG_BUF_WCOLL)
        return LOG_FIELD_HEAD + (size_t)bytes;
    return LOG_FIELD_HEAD + rec_pack_room(bytes, (MPI_Datatype)b->type);
}

void rec_put_buf(struct log_rec *rec, unsigned arg, uint64_t elem,
                 const struct log_buf *b, int64_t bytes)
{
    size_t cs = b->flags & LOG_BUF_COUNTS64 ? 8 : 4;
    size_t ds = b->flags & LOG_BUF_DISPLS64 ? 8 : 4;
    if (bytes <= 0)
        return;
    if (b->shape == LOG_BUF_RECV || b->shape == LOG_BUF_COLL)
        put_data(rec, arg, elem, b->buf, b->n, (MPI_Datatype)b->type, bytes);
    else
        put_blocks(rec, arg, elem, b->buf, b->peers, b->counts, cs,
                   b->displs, ds, (MPI_Datatype)b->type,
                   b->shape == LOG_BUF_WCOLL ? (const MPI_Datatype *)b->types
                                             : NULL, bytes);
}

size_t rec_members_room(MPI_Comm comm)
{
    int local = 0, inter = 0;
    if (comm == MPI_COMM_NULL)
        return 0;
    PMPI_Comm_size(comm, &local);
    PMPI_Comm_test_inter(comm, &inter);
    return 2 * LOG_FIELD_HEAD +
           4 * (size_t)(local + (inter ? rec_peers(comm) : 0));
}

/* The group MEMBERS are numbered in: MPI_COMM_WORLD's, or in the Sessions
 * model the process set "mpi://WORLD" of the session that made it. */
static MPI_Group world = MPI_GROUP_NULL;
static MPI_Session world_session = MPI_SESSION_NULL;

void rec_session_world(MPI_Session s, int up)
{
    int init = 0;
    if (up && world == MPI_GROUP_NULL && PMPI_Initialized(&init) == 0 &&
        !init) {
        if (PMPI_Group_from_session_pset(s, "mpi://WORLD", &world) ==
            MPI_SUCCESS)
            world_session = s;
        else
            world = MPI_GROUP_NULL;
    } else if (!up && s == world_session) {
        PMPI_Group_free(&world);
        world = MPI_GROUP_NULL;
        world_session = MPI_SESSION_NULL;
    }
}

/* World ranks of GROUP as one MEMBERS field (elem 0 local, 1 remote). */
static void put_group(struct log_rec *rec, MPI_Group group, unsigned elem)
{
    int n = 0;
    if (world == MPI_GROUP_NULL)
        PMPI_Comm_group(MPI_COMM_WORLD, &world);
    PMPI_Group_size(group, &n);
    log_put_field(rec, LOG_ARG_NONE, LOG_F_MEMBERS, elem, 4 * (uint64_t)n);
    int in[256], out[256];
    for (int i = 0; i < n; i += 256) {
        int k = n - i < 256 ? n - i : 256;
        for (int j = 0; j < k; j++)
            in[j] = i + j;
        PMPI_Group_translate_ranks(group, k, in, world, out);
        log_put_bytes(rec, out, 4 * (size_t)k);
    }
}

void rec_put_members(struct log_rec *rec, MPI_Comm comm)
{
    MPI_Group g;
    int inter = 0;
    if (comm == MPI_COMM_NULL)
        return;
    PMPI_Comm_group(comm, &g);
    put_group(rec, g, 0);
    PMPI_Group_free(&g);
    PMPI_Comm_test_inter(comm, &inter);
    if (inter) {
        PMPI_Comm_remote_group(comm, &g);
        put_group(rec, g, 1);
        PMPI_Group_free(&g);
    }
}
