/*
 * Collectives the spec cannot size: MPI_Reduce_scatter (this rank's block:
 * recvcounts[rank] x datatype) and the w-variants (a count, a byte
 * displacement and a type per peer). Their records look like generated
 * ones: the by-value arguments, then --send-data's DATA for sendbuf
 * (argument 0), the received DATA (blocking), or the request as RAW
 * (nonblocking and persistent), the receive buffer being registered for
 * the completion to log. The mirror of replayer/rpl-coll.c.
 */
#include "rec.h"

/* One such call after it returned. */
struct coll {
    const struct log_buf *send; /* sendbuf's data (--send-data), or NULL */
    struct log_buf *recv;       /* what the call writes, or NULL */
    MPI_Request *request;       /* nonblocking, persistent: the new request */
    int64_t sbytes, rbytes;
};

/* Room for K's fields; takes the data sizes. */
static size_t coll_room(struct coll *k, int ret)
{
    int ok = ret == MPI_SUCCESS;
    k->sbytes = ok && k->send && rec_send_data ? rec_buf_bytes(k->send, NULL)
                                               : 0;
    k->rbytes = ok && k->recv && !k->request ? rec_buf_bytes(k->recv, NULL)
                                             : 0;
    size_t room = LOG_FIELD_HEAD + 4;
    if (k->sbytes)
        room += rec_buf_room(k->send, k->sbytes);
    if (k->rbytes)
        room += rec_buf_room(k->recv, k->rbytes);
    return room;
}

/* K's fields: the receive buffer is argument RECV_ARG, the request
 * REQ_ARG; a nonblocking call's buffer is registered under its request. */
static void coll_put(struct log_rec *rec, const struct coll *k,
                     const struct rec_call *c, unsigned recv_arg,
                     unsigned req_arg)
{
    if (k->sbytes)
        rec_put_buf(rec, 0, 0, k->send, k->sbytes);
    if (k->rbytes)
        rec_put_buf(rec, recv_arg, 0, k->recv, k->rbytes);
    if (c->ret == MPI_SUCCESS && k->request) {
        rec_put_raw(rec, req_arg, 0, k->request, 4);
        /* registered even with nothing to log, as the stub does (log/buf.h:
         * MPICH's builtin requests pair entries alike on both sides) */
        struct log_buf none = {.shape = LOG_BUF_COLL};
        struct log_buf *b = k->recv ? k->recv : &none;
        b->req = (uint32_t)*k->request;
        b->where = k->request;
        b->fn = (uint16_t)c->fn;
        rec_req_add(b);
    }
}

#define COLL_LOG(NAME, K, RECV_ARG, REQ_ARG)                                 \
    do {                                                                     \
        struct log_rec rec;                                                  \
        if (rec_frame_##NAME(c, a, &rec, 0, coll_room(K, c->ret))) {         \
            coll_put(&rec, K, c, RECV_ARG, REQ_ARG);                         \
            rec_end(&rec);                                                   \
        }                                                                    \
    } while (0)

/* ---- MPI_Reduce_scatter ---------------------------------------------------- */

/* After a successful call: the block this rank gets (RECV), and
 * (intracommunicator, not in place) the whole send vector (SEND). */
static void rs_bufs(struct coll *k, const void *sendbuf, void *recvbuf,
                    const void *counts, size_t csize, MPI_Datatype type,
                    MPI_Comm comm, int persistent, struct log_buf *send,
                    struct log_buf *recv)
{
    int rank = 0, size = 0, inter = 0;
    PMPI_Comm_rank(comm, &rank);
    *recv = (struct log_buf){
        .buf = recvbuf, .type = (uint32_t)type, .shape = LOG_BUF_COLL,
        .flags = persistent ? LOG_BUF_PERSISTENT : 0,
        .n = csize == 8 ? ((const int64_t *)counts)[rank]
                        : ((const int *)counts)[rank]};
    k->recv = recv;
    if (!rec_send_data || sendbuf == MPI_IN_PLACE)
        return;
    /* An intercommunicator's send vector is sized by the remote group's
     * counts, which this process does not know. */
    PMPI_Comm_test_inter(comm, &inter);
    if (inter)
        return;
    PMPI_Comm_size(comm, &size);
    *send = (struct log_buf){.buf = (void *)sendbuf, .type = (uint32_t)type,
                             .shape = LOG_BUF_COLL};
    for (int i = 0; i < size; i++)
        send->n += csize == 8 ? ((const int64_t *)counts)[i]
                              : ((const int *)counts)[i];
    k->send = send;
}

#define RS_HOOK(NAME, PERSISTENT, REQUEST, REQ_ARG)                           \
    void rec_##NAME(struct rec_call *c, struct args_##NAME *a)               \
    {                                                                        \
        struct log_buf s, r;                                                 \
        struct coll k = {NULL, NULL, REQUEST, 0, 0};                         \
        rec_pmpi_##NAME(c, a);                                               \
        if (c->ret == MPI_SUCCESS)                                           \
            rs_bufs(&k, a->sendbuf, a->recvbuf, a->recvcounts,               \
                    sizeof(*a->recvcounts), a->datatype, a->comm,            \
                    PERSISTENT, &s, &r);                                     \
        COLL_LOG(NAME, &k, LOG_A_##NAME##_recvbuf, REQ_ARG);                 \
    }
#define RS_IHOOK(NAME) RS_HOOK(NAME, 0, a->request, LOG_A_##NAME##_request)
#define RS_PHOOK(NAME) RS_HOOK(NAME, 1, a->request, LOG_A_##NAME##_request)
/* Each for its large-count twin too (REC_TWINS_NAME: rec_hooks.h). */
REC_TWINS_MPI_Reduce_scatter(RS_HOOK, 0, NULL, 0)
REC_TWINS_MPI_Ireduce_scatter(RS_IHOOK)
REC_TWINS_MPI_Reduce_scatter_init(RS_PHOOK)

/* ---- the w-variants -------------------------------------------------------- */

/* After the call: RECV per peer (the topology's sources in a
 * neighbourhood collective), SEND likewise (its destinations) when the
 * send data is logged. */
static void w_bufs(struct coll *k, const struct rec_call *c, MPI_Comm comm,
                   const void *sendbuf, const void *scounts,
                   const void *sdispls, const MPI_Datatype *stypes,
                   void *recvbuf, const void *rcounts, const void *rdispls,
                   const MPI_Datatype *rtypes, unsigned csize, unsigned dsize,
                   int persistent, struct log_buf *send,
                   struct log_buf *recv)
{
    if (c->ret != MPI_SUCCESS)
        return;
    struct rec_topo t = {0, 0, 0, 0};
    int neighbor = (log_func_by_id(c->fn)->roles & LOG_R_NEIGHBOR) != 0;
    if (neighbor)
        rec_topo_get(&t, comm, 1); /* asked once for both sides */
    *recv = (struct log_buf){
        .buf = recvbuf, .counts = rcounts, .displs = rdispls,
        .types = (const uint32_t *)rtypes, .shape = LOG_BUF_WCOLL,
        .flags = (uint8_t)((persistent ? LOG_BUF_PERSISTENT : 0) |
                           log_buf_sizes(csize, dsize)),
        .peers = neighbor ? t.in : rec_peers(comm)};
    k->recv = recv;
    if (rec_send_data && sendbuf != MPI_IN_PLACE) {
        *send = *recv;
        send->buf = (void *)sendbuf;
        send->counts = scounts;
        send->displs = sdispls;
        send->types = (const uint32_t *)stypes;
        if (neighbor)
            send->peers = t.out;
        k->send = send;
    }
}

#define W_HOOK(NAME, PERSISTENT, REQUEST, REQ_ARG)                            \
    void rec_##NAME(struct rec_call *c, struct args_##NAME *a)               \
    {                                                                        \
        struct log_buf s, r;                                                 \
        struct coll k = {NULL, NULL, REQUEST, 0, 0};                         \
        rec_pmpi_##NAME(c, a);                                               \
        w_bufs(&k, c, a->comm, a->sendbuf, a->sendcounts, a->sdispls,        \
               a->sendtypes, a->recvbuf, a->recvcounts, a->rdispls,          \
               a->recvtypes, sizeof(*a->sendcounts), sizeof(*a->sdispls),    \
               PERSISTENT, &s, &r);                                          \
        COLL_LOG(NAME, &k, LOG_A_##NAME##_recvbuf, REQ_ARG);                 \
    }
/* The nonblocking and persistent ones register the receive buffer. */
#define W_IHOOK(NAME) W_HOOK(NAME, 0, a->request, LOG_A_##NAME##_request)
#define W_PHOOK(NAME) W_HOOK(NAME, 1, a->request, LOG_A_##NAME##_request)
REC_TWINS_MPI_Alltoallw(W_HOOK, 0, NULL, 0)
REC_TWINS_MPI_Neighbor_alltoallw(W_HOOK, 0, NULL, 0)
REC_TWINS_MPI_Ialltoallw(W_IHOOK)
REC_TWINS_MPI_Ineighbor_alltoallw(W_IHOOK)
REC_TWINS_MPI_Alltoallw_init(W_PHOOK)
REC_TWINS_MPI_Neighbor_alltoallw_init(W_PHOOK)
