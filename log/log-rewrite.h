/*
 * log-rewrite.h - rewriting a finished log record by record (rewrite.c),
 * internal to log/: compression (compress.c) and stripping (strip.c) copy
 * each record's head and re-encode some of its fields, then frame and
 * checksum it again.
 */
#ifndef DRDB_LOG_REWRITE_H
#define DRDB_LOG_REWRITE_H

#include <stddef.h>
#include <stdint.h>

#include "log-reader.h"

/* A growable byte buffer. */
struct log__obuf {
    uint8_t *p;
    size_t len, cap;
};

/* Room for MORE bytes after len: 0 or -ENOMEM. */
int log__obuf_room(struct log__obuf *b, size_t more);
/* Appends V as a varint (room for 10 bytes must be there). */
void log__obuf_varint(struct log__obuf *b, uint64_t v);
/* Appends a field's header (arg, kind, elem, len): room for 22 bytes. */
void log__obuf_field(struct log__obuf *b, unsigned arg, unsigned kind,
                     uint64_t elem, uint64_t len);

/*
 * The per-field step of a rewrite: F is record N's next field as stored
 * (log_event_next_stored(): a compressed field is not inflated). Appends
 * F's replacement to OUT and returns 1, or returns 0 to have the field
 * copied as it is; -errno on failure.
 */
typedef int (*log__field_fn)(void *ctx, const struct log_rank *r, uint64_t n,
                             const struct log_field *f, struct log__obuf *out);

/* Appends record N of R to OUT with each field passed through FN, framed
 * and checksummed again (a polling cycle, which has no data, and a record
 * whose fields FN all keep are copied as they are). 0, or -errno with a
 * message in ERR. */
int log__rewrite_record(const struct log_rank *r, uint64_t n,
                        struct log__obuf *out, log__field_fn fn, void *ctx,
                        char *err, size_t errlen);
/* As log__rewrite_record(), of EV, the record at offset OFF of R, read
 * already. */
int log__rewrite_event(const struct log_rank *r, const struct log_event *ev,
                       uint64_t off, struct log__obuf *out, log__field_fn fn,
                       void *ctx, char *err, size_t errlen);

/*
 * What log__rank_open_visit() calls with each readable record as it
 * indexes the log: EV (its rank and index set; enter_ns is the delta from
 * the record before), at offset OFF of R's mapping. 0 to go on; -errno,
 * with a message in ERR, ends the opening with that error.
 */
typedef int (*log__visit_fn)(void *ctx, const struct log_rank *r,
                             const struct log_event *ev, uint64_t off,
                             char *err, size_t errlen);
/* log_rank_open() with VISIT (may be NULL) called on each record read:
 * what reads a whole log once reads it as it is opened (strip.c). */
int log__rank_open_visit(struct log_rank *r, const char *path,
                         log__visit_fn visit, void *ctx, char *err,
                         size_t errlen);

#endif
