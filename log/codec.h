/*
 * codec.h - the record layouts of the irregular call families, written by
 * the recorder and read back by the replay stub and the event index through
 * this one code (docs/log-format.md):
 *
 *  - completions (the Wait and Test families, MPI_Request_free): per
 *    completed request, in element order, a REQUEST field (the handle
 *    before the call), its STATUS unless MPI left the status alone, and
 *    the DATA the request delivered, all with the request's index in the
 *    call's arrays as elem;
 *  - window diffs (one-sided communication): a WINDIFF field per window
 *    region whose bytes changed since they were last logged, as runs of
 *    (gap, length, bytes).
 *
 * The encoders run inside the recorded process: no allocation.
 */
#ifndef DRDB_LOG_CODEC_H
#define DRDB_LOG_CODEC_H

#include <stddef.h>
#include <stdint.h>

#include "log.h"

/* ---- completions --------------------------------------------------------- */

/* Room a completion's REQUEST and STATUS take (its DATA not included). */
#define LOG_DONE_ROOM (LOG_HANDLE_ROOM + LOG_STATUS_ROOM)

/* Writes the REQUEST field of request REQ (elem ELEM of argument ARG) and,
 * unless STATUS is NULL, its STATUS; the caller then writes its DATA. */
static inline void log_put_done(struct log_rec *r, unsigned arg,
                                uint64_t elem, uint32_t req,
                                const void *status)
{
    log_put_handle(r, arg, LOG_F_REQUEST, elem, req);
    if (status)
        log_put_status(r, arg, elem, status);
}

/* One completed request, as a completion record holds it. */
struct log_done {
    uint64_t elem;      /* its index in the call's request array */
    uint32_t request;   /* its handle before the call */
    int has_status;     /* the STATUS was logged (else MPI left it alone
                         * but for a zero count) */
    int32_t status[5];
    int has_data;       /* the DATA it delivered */
    struct log_field data;
};

/*
 * Reads a completion record of EV from *CURSOR (0 to start): 1 with the
 * next completed request of argument ARG in *DONE (its REQUEST, STATUS and
 * DATA fields taken together), 2 with any other field in *OTHER (the
 * requests after the call, a flag or an index, another argument's field),
 * 0 at the end, -EINVAL for a malformed record (a STATUS or DATA that
 * follows no REQUEST of its elem). A compressed DATA comes back inflated,
 * valid until the next call.
 */
int log_done_next(const struct log_event *ev, size_t *cursor, unsigned arg,
                  struct log_done *done, struct log_field *other);

/* ---- window diffs -------------------------------------------------------- */

/* Room the WINDIFF of a region of SIZE bytes can take, header included. */
size_t log_windiff_room(uint64_t size);

/*
 * Appends how BASE[0, SIZE) differs from SHADOW as one WINDIFF field for
 * region ID (nothing when it does not), and copies what it logged into
 * SHADOW, so SHADOW is then the logged state. Other processes may write
 * BASE meanwhile (one-sided communication): each byte is read once, and
 * what is logged is what SHADOW keeps.
 */
void log_put_windiff(struct log_rec *rec, uint64_t id, const void *base,
                     void *shadow, uint64_t size);

/* Reading a WINDIFF field's runs. */
struct log_windiff {
    const uint8_t *p, *end;
    uint64_t limit; /* the region's size */
    uint64_t at;    /* where the last run ended */
};
/* Starts reading field F of a region of LIMIT bytes. */
void log_windiff_init(struct log_windiff *w, const struct log_field *f,
                      uint64_t limit);
/* 1 with the next run: *LEN bytes at *BYTES to store at offset *OFF of the
 * region; 0 at the end; -EINVAL when the field is malformed or a run ends
 * past the region's end. */
int log_windiff_next(struct log_windiff *w, uint64_t *off,
                     const uint8_t **bytes, uint64_t *len);

#endif
