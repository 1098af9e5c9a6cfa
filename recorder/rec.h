/*
 * rec.h - the recorder's runtime, shared by the generated wrappers
 * (rec_wrappers.c) and the hand-written ones (rec-manual.c).
 *
 * Runs inside the recorded process: no allocation on the per-call path, no
 * locks unless the program asked for MPI_THREAD_MULTIPLE.
 */
#ifndef DRDB_REC_H
#define DRDB_REC_H

#include <mpi.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "drdb_mpi_protos.h"
#include "log-codec.h"
#include "log.h"

extern int rec_on;          /* recording this rank */
extern uint64_t rec_t0;     /* CLOCK_MONOTONIC ns at log open */
extern int rec_send_data;   /* log the data of sends too (--send-data) */

static inline uint64_t rec_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec - rec_t0;
}

/* Starts a record with ROOM bytes of arguments and fields; 0 when logging
 * has stopped (the caller just returns). */
int rec_begin(struct log_rec *rec, int fn, unsigned flags, int ret,
              uint64_t t0, uint64_t t1, size_t room);
void rec_end(struct log_rec *rec);

static inline void rec_put_field(struct log_rec *rec, unsigned arg,
                                 unsigned kind, uint64_t elem, const void *p,
                                 size_t len)
{
    log_put_field(rec, arg, kind, elem, len);
    log_put_bytes(rec, p, len);
}
static inline void rec_put_raw(struct log_rec *rec, unsigned arg,
                               uint64_t elem, const void *p, size_t len)
{
    rec_put_field(rec, arg, LOG_F_RAW, elem, p, len);
}

/*
 * Polling loops: an unsuccessful MPI_Iprobe or MPI_Test identical to the
 * previous one (same function, arguments and outputs) is not logged on its
 * own: the run is logged as one LOG_REC_REPEAT record when something else
 * happens. IMG holds the record's argument block and fields.
 */
void rec_poll(int fn, const void *img, size_t len, uint64_t t0, uint64_t t1);

/* Peers of a collective on COMM: the remote group of an intercommunicator. */
int rec_peers(MPI_Comm comm);
/* Neighbours of a neighbourhood collective on COMM's topology: sources
 * (in-degree) and destinations (out-degree). Cartesian: 2 * ndims (the
 * MPI_PROC_NULL ones included); graph: MPI_Graph_neighbors_count; distributed
 * graph: MPI_Dist_graph_neighbors_count. 0 without a topology. */
int rec_in_degree(MPI_Comm comm);
int rec_out_degree(MPI_Comm comm);
/* Which processes a rooted collective's buffer is significant at. */
enum rec_side {
    REC_AT_ROOT,    /* Gather(v), Reduce: recvbuf; Scatter(v): sendbuf */
    REC_AT_NONROOT, /* Bcast: buffer (written) */
    REC_AT_ALL,     /* Scatter(v): recvbuf; Gather(v), Reduce: sendbuf */
};
/* Whether this process's buffer on SIDE is significant in a collective
 * rooted at ROOT. Intercommunicators: the root passes MPI_ROOT (only
 * REC_AT_ROOT holds), the rest of its group MPI_PROC_NULL (nothing holds),
 * the other group the root's rank (REC_AT_NONROOT and REC_AT_ALL hold). */
int rec_coll_writes(MPI_Comm comm, int root, enum rec_side side);
/* Packed bytes of N elements of TYPE. */
int64_t rec_data_bytes(int64_t n, MPI_Datatype type);
/* Bytes a receive of at most N x TYPE got, from its status. */
int64_t rec_status_bytes(const MPI_Status *st, int64_t n, MPI_Datatype type);
/* Room to reserve to pack BYTES of TYPE (one element of slack). */
size_t rec_pack_room(int64_t bytes, MPI_Datatype type);
/* Appends a DATA field: the first BYTES packed bytes of N x TYPE at BUF. */
void rec_put_data(struct log_rec *rec, unsigned arg, const void *buf,
                  int64_t n, MPI_Datatype type, int64_t bytes);
/*
 * v-variants: for each of PEERS peers i in order, COUNTS[i] x TYPE at
 * BUF + DISPLS[i] * extent(TYPE), packed, as one DATA field. CSIZE and
 * DSIZE are the arrays' element sizes (4: int; 8: MPI_Count, MPI_Aint).
 */
int64_t rec_vdata_bytes(int peers, const void *counts, size_t csize,
                        MPI_Datatype type);
void rec_put_vdata(struct log_rec *rec, unsigned arg, const void *buf,
                   int peers, const void *counts, size_t csize,
                   const void *displs, size_t dsize, MPI_Datatype type,
                   int64_t bytes);
/* A new communicator's members as MPI_COMM_WORLD ranks. */
size_t rec_members_room(MPI_Comm comm);
void rec_put_members(struct log_rec *rec, MPI_Comm comm);

/*
 * What a call writes into the program's memory, described well enough to
 * log it later: the request-to-buffer table's entry (rec-manual.c), also
 * used by hand-written blocking collectives. Fixed size, no allocation: the
 * v- and w-shapes keep pointers to the program's count, displacement and
 * type arrays, which MPI requires to stay unmodified until the request
 * completes (persistent requests: until it is freed).
 */
enum rec_shape {
    REC_RECV = 1, /* a receive: N x TYPE at most, as many as its status says */
    REC_COLL,     /* a collective: exactly N x TYPE */
    REC_VCOLL,    /* PEERS x (COUNTS[i] x TYPE at DISPLS[i] * extent): v */
    REC_WCOLL,    /* PEERS x (COUNTS[i] x TYPES[i] at DISPLS[i] bytes): w */
};
enum {
    REC_PERSISTENT = 1, /* stays registered until MPI_Request_free */
    REC_COUNTS64 = 2,   /* COUNTS are 8 bytes (MPI_Count), else int */
    REC_DISPLS64 = 4,   /* DISPLS are 8 bytes (MPI_Aint), else int */
};
struct rec_buf {
    void *buf;
    int64_t n;                 /* REC_RECV, REC_COLL */
    const void *counts;        /* REC_VCOLL, REC_WCOLL */
    const void *displs;
    const MPI_Datatype *types; /* REC_WCOLL */
    MPI_Datatype type;         /* REC_RECV, REC_COLL, REC_VCOLL */
    int peers;                 /* REC_VCOLL, REC_WCOLL */
    MPI_Request req;           /* table key; MPI_REQUEST_NULL: free slot */
    uint16_t fn;               /* the call that started the request */
    uint8_t shape;             /* enum rec_shape */
    uint8_t flags;             /* REC_PERSISTENT, REC_COUNTS64, ... */
};
/* Packed bytes B describes (REC_RECV: what status ST says arrived). */
int64_t rec_buf_bytes(const struct rec_buf *b, const MPI_Status *st);
/* Room a DATA field of BYTES of B takes, header included (0 for 0). */
size_t rec_buf_room(const struct rec_buf *b, int64_t bytes);
/* Appends B's BYTES as one DATA field (nothing for 0 bytes). */
void rec_put_buf(struct log_rec *rec, unsigned arg, uint64_t elem,
                 const struct rec_buf *b, int64_t bytes);

/*
 * The request-to-buffer table: a nonblocking or persistent call's receive
 * buffer, logged by the Wait/Test call that completes the request.
 * rec_req_add copies B (B->req is the key; an entry under the same handle
 * is replaced). The short forms are what the generated wrappers call.
 */
void rec_req_add(const struct rec_buf *b);
void rec_req_recv(MPI_Request req, int fn, void *buf, int64_t n,
                  MPI_Datatype type, int persistent);
void rec_req_coll(MPI_Request req, int fn, void *buf, int64_t n,
                  MPI_Datatype type, int persistent);
void rec_req_vcoll(MPI_Request req, int fn, void *buf, int peers,
                   const void *counts, size_t csize, const void *displs,
                   size_t dsize, MPI_Datatype type, int persistent);

#endif
