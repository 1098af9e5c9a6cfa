/*
 * A log's copy without its message data (log-strip.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "log-rewrite.h"
#include "log-strip.h"

struct strip {
    uint64_t min_bytes, elided, kept;
    struct log__obuf out;
};

/* The stripper's per-field step (log__field_fn). */
static int strip_field(void *ctx, const struct log_rank *r, uint64_t n,
                       const struct log_field *f, struct log__obuf *out)
{
    struct strip *s = ctx;
    uint64_t len;
    (void)n;
    if (f->kind == LOG_F_WINDIFF)
        len = f->len;
    else if (!log_field_data_len(f, &len) || f->kind == LOG_F_ELIDED)
        return 0;
    if (f->len < s->min_bytes) {
        s->kept += f->len;
        return 0;
    }
    uint8_t body[40];
    struct log__obuf b = {body, 0, sizeof body};
    log__obuf_varint(&b, f->kind);
    log__obuf_varint(&b, len);
    log__obuf_varint(&b, f->len);
    log__obuf_varint(&b, (uint64_t)(f->data - r->map));
    if (log__obuf_room(out, 22 + b.len) < 0)
        return -ENOMEM;
    log__obuf_field(out, f->arg, LOG_F_ELIDED, f->elem, b.len);
    memcpy(out->p + out->len, body, b.len);
    out->len += b.len;
    s->elided += f->len;
    return 1;
}

/* The copy's header, R's with the flag LOG_HDR_STRIPPED, first in S->out,
 * with room for about R's size after it: 0 or -ENOMEM. */
static int put_header(struct strip *s, const struct log_rank *r)
{
    struct log_file_header hdr = r->hdr;
    if (log__obuf_room(&s->out, LOG_HEADER_SIZE + r->size) < 0)
        return -ENOMEM;
    hdr.flags |= LOG_HDR_STRIPPED;
    hdr.hdr_crc = log_header_crc(&hdr);
    memset(s->out.p, 0, LOG_HEADER_SIZE);
    memcpy(s->out.p, &hdr, sizeof hdr);
    s->out.len = LOG_HEADER_SIZE;
    return 0;
}

/* Each record as the log is opened (log__visit_fn): into the copy. */
static int strip_record(void *ctx, const struct log_rank *r,
                        const struct log_event *ev, uint64_t off, char *err,
                        size_t errlen)
{
    struct strip *s = ctx;
    int rc = s->out.len ? 0 : put_header(s, r);
    if (rc == 0)
        rc = log__rewrite_event(r, ev, off, &s->out, strip_field, s, err,
                                errlen);
    if (rc == -ENOMEM)
        log_errf(err, errlen, "out of memory stripping a log");
    return rc;
}

int log_strip_open(struct log_rank *r, const char *path, uint64_t min_bytes,
                   uint8_t **image, size_t *size, uint64_t *elided,
                   uint64_t *kept, char *err, size_t errlen)
{
    struct strip s = {min_bytes ? min_bytes : 1, 0, 0, {0}};
    int rc = log__rank_open_visit(r, path, strip_record, &s, err, errlen);
    if (rc == 0 && !s.out.len && (rc = put_header(&s, r)) < 0) {
        log_errf(err, errlen, "out of memory stripping a log");
        log_rank_release(r);
    }
    if (rc < 0) {
        free(s.out.p);
        return rc;
    }
    *image = s.out.p;
    *size = s.out.len;
    if (elided)
        *elided = s.elided;
    if (kept)
        *kept = s.kept;
    return 0;
}
