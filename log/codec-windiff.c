/* Window diffs: the encoder (log-codec.h). */
#include <string.h>

#include "log-codec.h"

static size_t varint_len(uint64_t v)
{
    size_t n = 1;
    for (; v >= 0x80; v >>= 7)
        n++;
    return n;
}

/* A run's gap and length take at most this many bytes in a WINDIFF of a
 * region of SIZE bytes. */
static size_t run_head(uint64_t size)
{
    return 2 * varint_len(size);
}

/* Runs are cut only at a gap of at least run_head() unchanged bytes, which
 * pays for the next run's head: the body never exceeds the region's size
 * plus one head. */
size_t log_windiff_room(uint64_t size)
{
    return size ? LOG_FIELD_HEAD + size + run_head(size) : 0;
}

/* The first byte at or after I where BASE differs from SHADOW, or SIZE.
 * Unchanged stretches go by in large memcmps (a big window with a few
 * changed bytes), a stretch that differs is narrowed down by small ones.
 * Other ranks may be writing the memory meanwhile: a chunk memcmp saw
 * differ may look equal byte by byte, hence the bounds. */
static uint64_t first_diff(const char *base, const uint8_t *shadow,
                           uint64_t size, uint64_t i)
{
    enum { BIG = 65536, CHUNK = 256 };
    while (i < size) {
        uint64_t end = size - i < BIG ? size : i + BIG;
        if (memcmp(base + i, shadow + i, end - i) != 0)
            for (; i < end; i += CHUNK) {
                uint64_t n = end - i < CHUNK ? end - i : CHUNK;
                if (memcmp(base + i, shadow + i, n) != 0)
                    for (uint64_t k = 0; k < n; k++)
                        if (base[i + k] != (char)shadow[i + k])
                            return i + k;
            }
        i = end;
    }
    return size;
}

/* The body is built after room for the field's header, then moved up
 * behind the header once its length is known. */
void log_put_windiff(struct log_rec *rec, uint64_t id, const void *base_,
                     void *shadow_, uint64_t size)
{
    const char *base = base_;
    uint8_t *shadow = shadow_;
    uint64_t i = first_diff(base, shadow, size, 0), prev = 0;
    uint64_t head = run_head(size);
    if (i == size)
        return;
    uint8_t *field = rec->p, *body = field + LOG_FIELD_HEAD;
    rec->p = body;
    while (i < size) {
        /* The run goes on until HEAD unchanged bytes in a row, which the
         * next run's search skips (should another rank change them
         * meanwhile, the next synchronization logs it): so a run's head
         * never costs more than the gap before it. */
        uint64_t end = i + 1, same = 0;
        for (uint64_t k = end; k < size && same < head; k++) {
            if (base[k] != (char)shadow[k]) {
                end = k + 1;
                same = 0;
            } else {
                same++;
            }
        }
        log_put_varint(rec, i - prev);
        log_put_varint(rec, end - i);
        /* One read of the memory: what is logged is what the shadow
         * keeps, even if another rank writes meanwhile. */
        memcpy(rec->p, base + i, end - i);
        memcpy(shadow + i, rec->p, end - i);
        rec->p += end - i;
        prev = end;
        i = first_diff(base, shadow, size, end + same);
    }
    size_t len = (size_t)(rec->p - body);
    struct log_rec h = {field, field};
    log_put_field(&h, LOG_ARG_NONE, LOG_F_WINDIFF, id, len);
    memmove(h.p, body, len);
    rec->p = h.p + len;
}
