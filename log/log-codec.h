/*
 * log-codec.h - the per-family codecs: for one family of records, how it
 * stores what it stores, with the encoder the recorder uses, the decoder the
 * replay stub and the front end use, and the facts derived from the decoded
 * values, in one place so that the sides cannot disagree.
 *
 *   statuses (codec-status.c): an MPI_Status in a LOG_F_STATUS field.
 *
 * Encoders are inline (the recorder's hot path) and need only the format;
 * decoders are in the reader's library.
 */
#ifndef DRDB_LOG_CODEC_H
#define DRDB_LOG_CODEC_H

#include <stdint.h>

#include "drdb_mpi_abi.h"
#include "log-format.h"

struct log_field;

/* ---- statuses ------------------------------------------------------------ */

/*
 * A STATUS field holds the five 32-bit ints of MPICH's MPI_Status in this
 * order, each as a zigzag varint (most take one byte). Their offsets in
 * MPI_Status come from <mpi.h> (drdb_mpi_abi.h).
 */
enum log_status_int {
    LOG_ST_COUNT_LO, /* bytes received, the low 32 bits */
    LOG_ST_COUNT_HI, /* count_hi_and_cancelled: the high bits of the byte
                      * count shifted left by one, the cancelled bit in 0 */
    LOG_ST_SOURCE,
    LOG_ST_TAG,
    LOG_ST_ERROR,
    LOG_ST_N
};
/* Bytes a STATUS field can take, header included. */
#define LOG_STATUS_ROOM (LOG_FIELD_HEAD + LOG_ST_N * LOG_ARG_ROOM32)

/* The five ints of the MPI_Status at STATUS, in log order. */
static inline void log_status_from_mpi(const void *status,
                                       int32_t st[LOG_ST_N])
{
    const char *s = (const char *)status;
    __builtin_memcpy(&st[LOG_ST_COUNT_LO], s + DRDB_MPI_STATUS_COUNT_LO, 4);
    __builtin_memcpy(&st[LOG_ST_COUNT_HI],
                     s + DRDB_MPI_STATUS_COUNT_HI_AND_CANCELLED, 4);
    __builtin_memcpy(&st[LOG_ST_SOURCE], s + DRDB_MPI_STATUS_SOURCE, 4);
    __builtin_memcpy(&st[LOG_ST_TAG], s + DRDB_MPI_STATUS_TAG, 4);
    __builtin_memcpy(&st[LOG_ST_ERROR], s + DRDB_MPI_STATUS_ERROR, 4);
}

/* A STATUS field for argument ARG, element ELEM, holding the MPI_Status at
 * STATUS (at most LOG_STATUS_ROOM bytes). */
static inline void log_put_status(struct log_rec *r, unsigned arg,
                                  uint64_t elem, const void *status)
{
    int32_t v[LOG_ST_N];
    uint8_t tmp[LOG_ST_N * LOG_ARG_ROOM32];
    struct log_rec body = {tmp, tmp};
    log_status_from_mpi(status, v);
    for (int i = 0; i < LOG_ST_N; i++)
        log_put_arg_int(&body, v[i]);
    log_put_field(r, arg, LOG_F_STATUS, elem, (uint64_t)(body.p - tmp));
    log_put_bytes(r, tmp, (size_t)(body.p - tmp));
}

/* Decodes a STATUS field into its five ints, in log order: 0 or -EINVAL. */
int log_field_status(const struct log_field *f, int32_t st[LOG_ST_N]);
/* Stores the five ints into the MPI_Status at STATUS (what MPI returned). */
void log_status_to_mpi(const int32_t st[LOG_ST_N], void *status);
/* The bytes a status says were received. */
int64_t log_status_bytes(const int32_t st[LOG_ST_N]);
/* Whether a status says its request was cancelled. */
int log_status_cancelled(const int32_t st[LOG_ST_N]);

#endif
