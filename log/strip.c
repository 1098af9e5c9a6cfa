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

int log_strip(const struct log_rank *r, uint64_t min_bytes, uint8_t **image,
              size_t *size, uint64_t *elided, uint64_t *kept, char *err,
              size_t errlen)
{
    struct strip s = {min_bytes ? min_bytes : 1, 0, 0};
    struct log__obuf out = {0};
    struct log_file_header hdr = r->hdr;
    int rc = log__obuf_room(&out, LOG_HEADER_SIZE);
    if (rc == 0) {
        hdr.flags |= LOG_HDR_STRIPPED;
        hdr.hdr_crc = log_header_crc(&hdr);
        memset(out.p, 0, LOG_HEADER_SIZE);
        memcpy(out.p, &hdr, sizeof hdr);
        out.len = LOG_HEADER_SIZE;
    }
    for (uint64_t n = 0; rc == 0 && n < r->nevents; n++)
        rc = log__rewrite_record(r, n, &out, strip_field, &s, err, errlen);
    if (rc < 0) {
        if (rc == -ENOMEM)
            log_errf(err, errlen, "out of memory stripping a log");
        free(out.p);
        return rc;
    }
    *image = out.p;
    *size = out.len;
    if (elided)
        *elided = s.elided;
    if (kept)
        *kept = s.kept;
    return 0;
}
