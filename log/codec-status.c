/* The status codec's decoding side (log-codec.h). */
#include <errno.h>
#include <string.h>

#include "log-codec.h"
#include "log-reader.h"

int log_field_status(const struct log_field *f, int32_t st[LOG_ST_N])
{
    const uint8_t *p = f->data, *end = f->data + f->len;
    if (f->kind != LOG_F_STATUS)
        return -EINVAL;
    for (int i = 0; i < LOG_ST_N; i++) {
        uint64_t v;
        if (log_get_varint(&p, end, &v) || v > UINT32_MAX)
            return -EINVAL;
        st[i] = log_unzigzag32(v);
    }
    return p == end ? 0 : -EINVAL;
}

void log_status_to_mpi(const int32_t st[LOG_ST_N], void *status)
{
    char *s = status;
    memcpy(s + DRDB_MPI_STATUS_COUNT_LO, &st[LOG_ST_COUNT_LO], 4);
    memcpy(s + DRDB_MPI_STATUS_COUNT_HI_AND_CANCELLED, &st[LOG_ST_COUNT_HI],
           4);
    memcpy(s + DRDB_MPI_STATUS_SOURCE, &st[LOG_ST_SOURCE], 4);
    memcpy(s + DRDB_MPI_STATUS_TAG, &st[LOG_ST_TAG], 4);
    memcpy(s + DRDB_MPI_STATUS_ERROR, &st[LOG_ST_ERROR], 4);
}

/* MPICH keeps a status's byte count in count_lo and the upper bits of
 * count_hi_and_cancelled, whose bit 0 is the cancelled flag. */
int64_t log_status_bytes(const int32_t st[LOG_ST_N])
{
    return (int64_t)((uint64_t)(uint32_t)st[LOG_ST_COUNT_LO] |
                     (uint64_t)((uint32_t)st[LOG_ST_COUNT_HI] >> 1) << 32);
}

int log_status_cancelled(const int32_t st[LOG_ST_N])
{
    return st[LOG_ST_COUNT_HI] & 1;
}
