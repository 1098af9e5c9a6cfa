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
/* Whether this process is the root of a rooted collective. */
int rec_is_root(MPI_Comm comm, int root);
/* Packed bytes of N elements of TYPE. */
int64_t rec_data_bytes(int64_t n, MPI_Datatype type);
/* Bytes a receive of at most N x TYPE got, from its status. */
int64_t rec_status_bytes(const MPI_Status *st, int64_t n, MPI_Datatype type);
/* Room to reserve to pack BYTES of TYPE (one element of slack). */
size_t rec_pack_room(int64_t bytes, MPI_Datatype type);
/* Appends a DATA field: the first BYTES packed bytes of N x TYPE at BUF. */
void rec_put_data(struct log_rec *rec, unsigned arg, const void *buf,
                  int64_t n, MPI_Datatype type, int64_t bytes);
/* v-variants: per-peer COUNTS[i] x TYPE at BUF + DISPLS[i] * extent. */
int64_t rec_vdata_bytes(const void *counts, size_t csize, MPI_Datatype type,
                        MPI_Comm comm);
void rec_put_vdata(struct log_rec *rec, unsigned arg, const void *buf,
                   const void *counts, size_t csize, const void *displs,
                   size_t dsize, MPI_Datatype type, MPI_Comm comm,
                   int64_t bytes);
/* A new communicator's members as MPI_COMM_WORLD ranks. */
size_t rec_members_room(MPI_Comm comm);
void rec_put_members(struct log_rec *rec, MPI_Comm comm);

/* The request-to-buffer table: a nonblocking or persistent receive's buffer,
 * logged when the request completes. */
void rec_req_register(MPI_Request req, int fn, void *buf, int64_t n,
                      MPI_Datatype type, MPI_Comm comm, int persistent);

#endif
