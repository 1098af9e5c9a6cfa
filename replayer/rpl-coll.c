/*
 * Collectives the spec cannot size: Reduce_scatter writes this rank's
 * share, recvcounts[rank] elements (the stub does not know its rank in
 * COMM: the logged data is the bound); Alltoallw and its relatives have a
 * type per peer. Their records hold the request (RAW) of a nonblocking or
 * persistent one and, when MPI wrote the buffer, one DATA field
 * (docs/log-format.md). The mirror of recorder/rec-coll.c.
 */
#include "rpl.h"

/* Where such a call writes. */
struct coll_out {
    void *buf;
    MPI_Datatype type;           /* Reduce_scatter */
    const void *counts, *displs; /* Alltoallw: per peer */
    size_t csize, dsize;
    const MPI_Datatype *types;
    int64_t peers;
};

/* The event's fields (begun), REQUEST the new request of a nonblocking or
 * persistent call (else NULL), whose buffer is then registered. */
static int coll(struct rpl_call *c, const struct coll_out *o,
                MPI_Request *request, int persistent, MPI_Comm comm)
{
    struct log_field f;
    while (rpl_field(c, &f)) {
        if (f.kind == LOG_F_RAW && request)
            rpl_out_raw(c, &f, request, 4);
        else if (f.kind == LOG_F_DATA && o->types)
            rpl_out_wdata(c, &f, o->buf, o->counts, o->csize, o->displs,
                          o->dsize, o->types, o->peers);
        else if (f.kind == LOG_F_DATA)
            rpl_out_data(c, &f, o->buf, RPL_MANY, o->type);
        else
            rpl_out_other(c, &f);
    }
    if (request && c->ret == MPI_SUCCESS) {
        if (o->types)
            rpl_req_register_w(request, c->fn, o->buf, o->counts, o->csize,
                               o->displs, o->dsize, o->types, o->peers,
                               persistent);
        else
            rpl_req_register(request, c->fn, o->buf, RPL_MANY, o->type,
                             persistent);
    }
    return rpl_end(c, comm);
}

#define RS_HOOK(NAME, PERSISTENT, REQUEST)                                   \
    int rpl_##NAME(struct args_##NAME *a)                                    \
    {                                                                        \
        struct rpl_call c;                                                   \
        const struct coll_out o = {a->recvbuf, a->datatype, NULL, NULL,      \
                                   0, 0, NULL, 0};                           \
        rpl_begin_##NAME(&c, a);                                             \
        return coll(&c, &o, REQUEST, PERSISTENT, a->comm);                   \
    }
/* Each for its large-count twin too (RPL_TWINS_NAME: rpl_hooks.h). */
RPL_TWINS_MPI_Reduce_scatter(RS_HOOK, 0, NULL)
RPL_TWINS_MPI_Ireduce_scatter(RS_HOOK, 0, a->request)
RPL_TWINS_MPI_Reduce_scatter_init(RS_HOOK, 1, a->request)

/* The peers: the communicator's, or, for a neighbourhood collective, its
 * topology's neighbours, which the stub does not track (the logged data
 * bounds the copy). */
#define W_HOOK(NAME, PERSISTENT, REQUEST)                                    \
    int rpl_##NAME(struct args_##NAME *a)                                    \
    {                                                                        \
        struct rpl_call c;                                                   \
        rpl_begin_##NAME(&c, a);                                             \
        int neighbor = (c.ev.desc->roles & LOG_R_NEIGHBOR) != 0;             \
        const struct coll_out o = {                                          \
            a->recvbuf, MPI_DATATYPE_NULL, a->recvcounts, a->rdispls,        \
            sizeof *a->recvcounts, sizeof *a->rdispls, a->recvtypes,         \
            neighbor ? RPL_MANY_PEERS : rpl_comm_peers(a->comm)};            \
        return coll(&c, &o, REQUEST, PERSISTENT, a->comm);                   \
    }
RPL_TWINS_MPI_Alltoallw(W_HOOK, 0, NULL)
RPL_TWINS_MPI_Neighbor_alltoallw(W_HOOK, 0, NULL)
RPL_TWINS_MPI_Ialltoallw(W_HOOK, 0, a->request)
RPL_TWINS_MPI_Ineighbor_alltoallw(W_HOOK, 0, a->request)
RPL_TWINS_MPI_Alltoallw_init(W_HOOK, 1, a->request)
RPL_TWINS_MPI_Neighbor_alltoallw_init(W_HOOK, 1, a->request)
