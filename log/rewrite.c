/*
 * Rewriting a finished log record by record (log-rewrite.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "log-rewrite.h"
#include "util.h"

int log__obuf_room(struct log__obuf *b, size_t more)
{
    if (b->len + more <= b->cap)
        return 0;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + more)
        cap *= 2;
    uint8_t *np = realloc(b->p, cap);
    if (!np)
        return -ENOMEM;
    b->p = np;
    b->cap = cap;
    return 0;
}

void log__obuf_varint(struct log__obuf *b, uint64_t v)
{
    while (v >= 0x80) {
        b->p[b->len++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    b->p[b->len++] = (uint8_t)v;
}

void log__obuf_field(struct log__obuf *b, unsigned arg, unsigned kind,
                     uint64_t elem, uint64_t len)
{
    b->p[b->len++] = (uint8_t)arg;
    b->p[b->len++] = (uint8_t)kind;
    log__obuf_varint(b, elem);
    log__obuf_varint(b, len);
}

int log__rewrite_record(const struct log_rank *r, uint64_t n,
                        struct log__obuf *out, log__field_fn fn, void *ctx,
                        char *err, size_t errlen)
{
    struct log_event ev;
    if (log_rank_event(r, n, &ev, err, errlen) < 0)
        return -EINVAL;
    return log__rewrite_event(r, &ev, log_rank_offset(r, n), out, fn, ctx,
                              err, errlen);
}

int log__rewrite_event(const struct log_rank *r, const struct log_event *ev,
                       uint64_t off, struct log__obuf *out, log__field_fn fn,
                       void *ctx, char *err, size_t errlen)
{
    const uint8_t *rec = r->map + off;
    uint64_t rsize;
    unsigned fixed;
    int rc, changed = 0;
    log_rec_size(rec, r->size - off, &rsize, &fixed);
    if (ev->cycle) {
        /* A polling cycle: polls and timers log no data; as it is. */
        if (log__obuf_room(out, rsize) < 0)
            return -ENOMEM;
        memcpy(out->p + out->len, rec, rsize);
        out->len += rsize;
        return 0;
    }
    size_t head = (size_t)(ev->fields - rec); /* fixed part + varints + args */
    size_t start = out->len;
    if (log__obuf_room(out, head) < 0)
        return -ENOMEM;
    memcpy(out->p + out->len, rec, head);
    out->len += head;
    size_t cur = 0, prev = 0;
    struct log_field f;
    while ((rc = log_event_next_stored(ev, &cur, &f)) == 1) {
        rc = fn(ctx, r, ev->index, &f, out);
        if (rc < 0)
            return rc;
        changed |= rc;
        if (rc == 0) {
            if (log__obuf_room(out, cur - prev) < 0)
                return -ENOMEM;
            memcpy(out->p + out->len, ev->fields + prev, cur - prev);
            out->len += cur - prev;
        }
        prev = cur;
    }
    if (rc < 0) {
        log_errf(err, errlen, "malformed field in event %llu",
                 (unsigned long long)ev->index);
        return -EINVAL;
    }
    if (!changed && out->len - start == rsize)
        return 0; /* the record as it was, its frame and CRC included */
    /* Frame it again: the size and the CRC of what follows them. The head
     * was copied as it was: a large record stays large (rewrites only
     * shrink, so a small one stays under 4 GiB). */
    uint64_t size64 = (uint64_t)(out->len - start);
    uint32_t size = (uint32_t)size64;
    if (fixed == LOG_REC_FIXED_LARGE) {
        size = LOG_REC_LARGE;
        memcpy(out->p + start + LOG_REC_FIXED, &size64, 8);
    }
    uint32_t crc = util_crc32c(0, out->p + start + 8, size64 - 8);
    memcpy(out->p + start, &size, 4);
    memcpy(out->p + start + 4, &crc, 4);
    return 0;
}
