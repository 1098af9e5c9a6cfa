/*
 * The libc side stream's writer (log-sys-writer.h): the slow path (any
 * size, growing the file, a full disk) and the SEAL records. Runs inside
 * the recorded process, on the thread that owns the stream.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "log-sys-writer.h"
#include "util.h"

/* Kept after a record's end (limit): a SEAL, a TRUNC and its SEAL. */
#define RESERVE 32

static void set_limit(struct log_sys_writer *s)
{
    size_t room = s->w.map_size - RESERVE, full = s->block + LOG_SYS_BLOCK;
    s->limit = s->w.failed || s->ended ? 0 : room < full ? room : full;
}

int log_sys_writer_openat(struct log_sys_writer *s, int dirfd,
                          const char *name, const struct log_file_header *hdr)
{
    memset(s, 0, sizeof *s);
    int rc = log_writer_openat_version(&s->w, dirfd, name, hdr,
                                       LOG_SYS_VERSION);
    if (rc < 0)
        return rc;
    s->block = s->w.off;
    set_limit(s);
    return 0;
}

/* A framing record of kind KIND with BODY (N bytes) at the end: there is
 * always room for it (RESERVE). */
static void put_frame(struct log_sys_writer *s, int kind, const void *body,
                      size_t n)
{
    uint8_t *p = s->w.map + s->w.off;
    memcpy(p + 1, body, n);
    p[1 + n] = (uint8_t)kind;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    p[0] = (uint8_t)(n + 1);
    s->w.off += n + 2;
}

void log_sys_seal(struct log_sys_writer *s)
{
    if (s->w.off > s->block) {
        uint32_t crc = util_crc32c(0, s->w.map + s->block,
                                   s->w.off - s->block);
        put_frame(s, LOG_SYS_SEAL, &crc, 4);
        s->block = s->w.off;
    }
    set_limit(s);
}

static void stop(struct log_sys_writer *s, int err)
{
    uint8_t body[10], *end = log_sys_varint(body, (uint64_t)err << 1);
    s->w.failed = 1;
    set_limit(s);
    log_writer_set_flags(&s->w, LOG_HDR_TRUNCATED);
    log_sys_seal(s);
    put_frame(s, LOG_SYS_TRUNC, body, (size_t)(end - body));
    log_sys_seal(s);
    char msg[200];
    int n = snprintf(msg, sizeof msg,
                     "drdb-record: warning: rank %d: cannot extend a libc "
                     "stream (%s); its results stop at byte %zu, the "
                     "program goes on\n",
                     ((struct log_file_header *)s->w.map)->rank,
                     strerror(err), s->w.off);
    if (write(2, msg, (size_t)n) < 0) {
        /* nothing else to do */
    }
}

void log_sys_append(struct log_sys_writer *s, int kind, int64_t ret, int err,
                    int64_t arg, const void *data, size_t len)
{
    if (s->w.failed)
        return;
    size_t max = 5 + 10 + 2 * 10 + len + 1;
    if (len > UINT32_MAX - 64) {
        stop(s, EFBIG); /* a length the layout cannot hold */
        return;
    }
    if (s->w.off > s->block && s->w.off + max > s->block + LOG_SYS_BLOCK)
        log_sys_seal(s); /* the block is full */
    if (s->w.off + max + RESERVE > s->w.map_size) {
        int rc = log_writer_reserve(&s->w, s->w.off + max + RESERVE);
        if (rc < 0) {
            stop(s, -rc);
            return;
        }
        set_limit(s);
    }
    uint8_t *start = s->w.map + s->w.off;
    /* The body goes after a u32 length when it may not fit in n. */
    uint8_t *p = start + (max > LOG_SYS_SHORT_MAX ? 5 : 1);
    if (kind == LOG_SYS_CLOCK_GETTIME && !err) {
        int64_t t[2];
        if (len != sizeof t || ret != 0 || !log_sys_clock_logged(arg))
            return; /* not a clock_gettime's result: the caller's bug */
        memcpy(t, data, sizeof t);
        log_sys_done(s, start, log_sys_clock_body(s, p, (int)arg, t[0], t[1]));
        if (s->ended)
            log_sys_seal(s);
        return;
    }
    if (err) {
        p = log_sys_varint(p, ((uint64_t)(int64_t)err << 1) ^
                                  (uint64_t)((int64_t)err >> 63));
        kind |= LOG_SYS_FAILED;
    }
    p = log_sys_body(p, kind, ret, arg, data, len);
    size_t n = (size_t)(p - start);
    if (max > LOG_SYS_SHORT_MAX) {
        uint32_t n32 = (uint32_t)(n - 5);
        memcpy(start + 1, &n32, 4);
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
        start[0] = LOG_SYS_LARGE;
        s->w.off += n;
        log_sys_seal(s); /* large records are never unverified */
        return;
    }
    log_sys_done(s, start, p);
    if (s->ended)
        log_sys_seal(s);
}

void log_sys_writer_end(struct log_sys_writer *s)
{
    s->ended = 1;
    if (!s->w.failed)
        log_sys_seal(s);
    set_limit(s);
    log_writer_set_flags(&s->w, LOG_HDR_COMPLETE);
}
