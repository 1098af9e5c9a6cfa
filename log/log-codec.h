/*
 * log-codec.h - the per-family codecs: for one family of records, how it
 * stores what it stores, with the encoder the recorder uses, the decoder the
 * replay stub and the front end use, and the facts derived from the decoded
 * values, in one place so that the sides cannot disagree.
 *
 *   statuses (codec-status.c): an MPI_Status in a LOG_F_STATUS field;
 *   completions (codec-completion.c): the Wait and Test families' (and
 *     MPI_Request_free's) records: per completed request, in element order,
 *     a REQUEST field (the handle before the call), its STATUS unless MPI
 *     left the status alone, and the DATA the request delivered, all with
 *     the request's index in the call's arrays as elem;
 *   window diffs (codec-windiff.c): one-sided communication: a WINDIFF
 *     field per window region whose bytes changed since they were last
 *     logged, as runs of (gap, length, bytes);
 *   callback entries (inline, below): MPI ran a program callback.
 *
 * Small encoders are inline (the recorder's hot path) and need only the
 * format; the window-diff encoder is in the writer's library; decoders are
 * in the reader's library, but for the window diff's, inline: the replay
 * stub and the printer both read it, and the completions' as stored: the
 * event index reads every completion of a run.
 */
#ifndef DRDB_LOG_CODEC_H
#define DRDB_LOG_CODEC_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#include "drdb_mpi_abi.h"
#include "log-format.h"
#include "log-reader.h"

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
    uint64_t elem;    /* its index in the call's request array */
    uint32_t request; /* its handle before the call */
    int has_status;   /* the STATUS was logged (else MPI left it alone but
                       * for a zero count) */
    int32_t status[LOG_ST_N];
    int has_data;     /* the DATA it delivered */
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

/* A completion's DATA as stored: plain, compressed, or elided (a stripped
 * copy's). */
static inline int log__done_data(unsigned kind)
{
    return kind == LOG_F_DATA || kind == LOG_F_DATA_ZSTD ||
           kind == LOG_F_ELIDED;
}
/* Takes field F, peeked at *CURSOR: as log_event_take() does (a
 * compressed DATA inflated, an elided one fetched), or as STORED (the
 * cursor past it, where log_event_next_stored() leaves it). */
static inline int log__done_take(const struct log_event *ev, size_t *cursor,
                                 struct log_field *f, int stored)
{
    if (!stored)
        return log_event_take(ev, cursor, f);
    *cursor = (size_t)(f->data + f->len - ev->fields);
    return 1;
}
/* log_done_next(), and with STORED log_done_next_stored(). */
static inline __attribute__((always_inline)) int
log__done_next(const struct log_event *ev, size_t *cursor, unsigned arg,
               struct log_done *done, struct log_field *other, int stored)
{
    struct log_field f;
    int rc = log_event_peek(ev, *cursor, &f);
    if (rc > 0)
        rc = log__done_take(ev, cursor, &f, stored);
    if (rc <= 0)
        return rc;
    if (f.arg != arg || (f.kind != LOG_F_REQUEST && f.kind != LOG_F_STATUS &&
                         !log__done_data(f.kind))) {
        *other = f;
        return 2;
    }
    if (f.kind != LOG_F_REQUEST || log_field_handle(&f, &done->request) < 0)
        return -EINVAL;
    done->elem = f.elem;
    done->has_status = done->has_data = 0;
    /* Its STATUS and DATA follow, with its elem; nothing after its DATA.
     * Peeking does not inflate: the next completion's data never
     * overwrites this one's. */
    while (!done->has_data && log_event_peek(ev, *cursor, &f) == 1 &&
           f.arg == arg && f.elem == done->elem &&
           ((f.kind == LOG_F_STATUS && !done->has_status) ||
            log__done_data(f.kind))) {
        if (log__done_take(ev, cursor, &f, stored) != 1)
            return -EINVAL;
        if (f.kind == LOG_F_STATUS) {
            if (log_field_status(&f, done->status) < 0)
                return -EINVAL;
            done->has_status = 1;
        } else {
            done->data = f;
            done->has_data = 1;
        }
    }
    return 1;
}

/* As log_done_next(), with every field as it is stored: a compressed or
 * elided DATA neither inflated nor fetched (for readers that want no
 * message data: the event index, which reads every completion of a run,
 * so inline). */
static inline int log_done_next_stored(const struct log_event *ev,
                                       size_t *cursor, unsigned arg,
                                       struct log_done *done,
                                       struct log_field *other)
{
    return log__done_next(ev, cursor, arg, done, other, 1);
}

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

/* Reading a WINDIFF field's runs: log_windiff_init(), then
 * log_windiff_next() until it returns 0 (the end) or -EINVAL (a malformed
 * field, or a run past the end of the region of LIMIT bytes). */
struct log_windiff {
    const uint8_t *p, *end;
    uint64_t limit; /* the region's size */
    uint64_t at;    /* where the last run ended */
};
static inline void log_windiff_init(struct log_windiff *w,
                                    const struct log_field *f, uint64_t limit)
{
    w->p = f->data;
    w->end = f->data + f->len;
    w->limit = limit;
    w->at = 0;
}
/* 1 with the next run: *LEN bytes at *BYTES to store at offset *OFF. */
static inline int log_windiff_next(struct log_windiff *w, uint64_t *off,
                                   const uint8_t **bytes, uint64_t *len)
{
    uint64_t gap, n;
    if (w->p >= w->end)
        return 0;
    if (log_get_varint(&w->p, w->end, &gap) < 0 ||
        log_get_varint(&w->p, w->end, &n) < 0 ||
        n > (uint64_t)(w->end - w->p) || gap > w->limit - w->at ||
        n > w->limit - w->at - gap)
        return -EINVAL;
    *off = w->at + gap;
    *bytes = w->p;
    *len = n;
    w->p += n;
    w->at = *off + n;
    return 1;
}

/* ---- callback entries ------------------------------------------------------ */

/*
 * A callback entry (LOG_REC_CALLBACK with LOG_CB_ENTRY) says that MPI ran
 * one of the program's callbacks, inside the call whose record follows the
 * entries and the calls they make. Its function is the constructor that
 * registered the callback (MPI_Comm_create_keyval, MPI_Type_create_keyval,
 * MPI_Win_create_keyval for attribute callbacks; MPI_Comm_, MPI_Win_,
 * MPI_File_ or MPI_Session_create_errhandler for error handlers;
 * MPI_Op_create or MPI_Op_create_c for a user reduction operator;
 * MPI_Grequest_start for a generalized request's functions), whose
 * by-value arguments it has; one RAW field of LOG_ARG_NONE, elem 0,
 * LOG_CB_BYTES bytes: what (i32), handle (i32: the keyval, the error
 * handler, the operator, the request), object (i64: the communicator,
 * datatype, window, file or session MPI passed; an operator's len),
 * code (i32: an error handler's error code; an operator's datatype; a
 * cancel function's `complete`; else 0), zero (i32).
 *
 * An operator's entry has three more RAW fields of LOG_ARG_NONE: elem
 * LOG_CB_OP_GEOM, 16 bytes: lo (i64: where the logged bytes start,
 * relative to invec and inoutvec: the datatype's true lower bound), span
 * (i64: the bytes the len elements cover from there); elem LOG_CB_OP_IN
 * and LOG_CB_OP_INOUT: the first bytes of that span at invec and at
 * inoutvec as MPI passed them (all of it, or the recorder's limit:
 * docs/log-format.md).
 */
enum log_cb_what {
    LOG_CB_COPY = 1,
    LOG_CB_DELETE = 2,
    LOG_CB_ERRHANDLER = 3,
    LOG_CB_OP = 4,          /* a user reduction operator */
    LOG_CB_GREQ_QUERY = 5,  /* a generalized request's query function */
    LOG_CB_GREQ_FREE = 6,   /* its free function */
    LOG_CB_GREQ_CANCEL = 7, /* its cancel function */
    LOG_CB_LAST = LOG_CB_GREQ_CANCEL,
};
struct log_cb {
    int32_t what, handle;
    int64_t obj;
    int32_t code;
};
#define LOG_CB_BYTES 24
enum { LOG_CB_OP_IN = 1, LOG_CB_OP_INOUT = 2, LOG_CB_OP_GEOM = 3 };
#define LOG_CB_OP_GEOM_BYTES 16

static inline void log_put_cb(struct log_rec *r, const struct log_cb *cb)
{
    uint8_t b[LOG_CB_BYTES] = {0};
    __builtin_memcpy(b, &cb->what, 4);
    __builtin_memcpy(b + 4, &cb->handle, 4);
    __builtin_memcpy(b + 8, &cb->obj, 8);
    __builtin_memcpy(b + 16, &cb->code, 4);
    log_put_field(r, LOG_ARG_NONE, LOG_F_RAW, 0, LOG_CB_BYTES);
    log_put_bytes(r, b, LOG_CB_BYTES);
}

/* The entry's callback out of EV: 0, or -1 when it is not one. */
static inline int log_event_cb(const struct log_event *ev, struct log_cb *cb)
{
    struct log_field f;
    size_t cur = 0;
    if (!(ev->flags & LOG_REC_CALLBACK) || !ev->cb_entry)
        return -1;
    while (log_event_field(ev, &cur, &f) > 0) {
        if (f.arg != LOG_ARG_NONE || f.kind != LOG_F_RAW || f.elem != 0 ||
            f.len != LOG_CB_BYTES)
            continue;
        __builtin_memcpy(&cb->what, f.data, 4);
        __builtin_memcpy(&cb->handle, f.data + 4, 4);
        __builtin_memcpy(&cb->obj, f.data + 8, 8);
        __builtin_memcpy(&cb->code, f.data + 16, 4);
        return cb->what >= LOG_CB_COPY && cb->what <= LOG_CB_LAST ? 0 : -1;
    }
    return -1;
}

/* An operator entry's geometry and bytes (an absent field: NULL, 0); -1
 * when malformed. */
struct log_cb_op {
    int64_t lo, span;
    const uint8_t *in, *inout;
    size_t in_len, inout_len;
};
static inline int log_event_cb_op(const struct log_event *ev,
                                  struct log_cb_op *op)
{
    struct log_field f;
    size_t cur = 0;
    int geom = 0;
    *op = (struct log_cb_op){0, 0, 0, 0, 0, 0};
    while (log_event_field(ev, &cur, &f) > 0) {
        if (f.arg != LOG_ARG_NONE || f.kind != LOG_F_RAW)
            continue;
        if (f.elem == LOG_CB_OP_GEOM && f.len == LOG_CB_OP_GEOM_BYTES) {
            __builtin_memcpy(&op->lo, f.data, 8);
            __builtin_memcpy(&op->span, f.data + 8, 8);
            geom = 1;
        } else if (f.elem == LOG_CB_OP_IN) {
            op->in = f.data;
            op->in_len = f.len;
        } else if (f.elem == LOG_CB_OP_INOUT) {
            op->inout = f.data;
            op->inout_len = f.len;
        }
    }
    if (!geom || op->span < 0 || (uint64_t)op->in_len > (uint64_t)op->span ||
        (uint64_t)op->inout_len > (uint64_t)op->span)
        return -1;
    return 0;
}

#endif
