/*
 * Compression of a finished log's message data (log_compress_file): a
 * rewrite of the file, record by record, outside the recorded process.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "log-compress.h"
#include "log-reader.h"
#include "util.h"

/* Smaller fields do not shrink enough to pay for a frame header. */
#define MIN_BYTES 64
#define LEVEL 3

static int fail(char *err, size_t errlen, int rc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return rc;
}

/* A growable byte buffer. */
struct obuf {
    uint8_t *p;
    size_t len, cap;
};

static int obuf_room(struct obuf *b, size_t more)
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

static void put_varint(struct obuf *b, uint64_t v)
{
    while (v >= 0x80) {
        b->p[b->len++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    b->p[b->len++] = (uint8_t)v;
}

static int head_large(const uint8_t *rec)
{
    uint32_t s;
    memcpy(&s, rec, 4);
    return s == LOG_REC_LARGE;
}

/* Appends record N of R to OUT, its DATA fields compressed where that
 * helps. Field bodies of other kinds are copied as they are. */
static int put_record(const struct log_rank *r, uint64_t n, struct obuf *out,
                      struct obuf *zbuf, ZSTD_CCtx *cctx, char *err,
                      size_t errlen)
{
    struct log_event ev;
    int rc;
    if (log_rank_event(r, n, &ev, err, errlen) < 0)
        return -EINVAL;
    const uint8_t *rec = r->map + r->offsets[n];
    size_t head = (size_t)(ev.fields - rec); /* fixed part + varints + args */
    size_t start = out->len;
    if (ev.cycle) {
        /* A polling cycle: polls and timers log no data; as it is. */
        uint32_t size;
        memcpy(&size, rec, 4);
        if (obuf_room(out, size) < 0)
            return -ENOMEM;
        memcpy(out->p + out->len, rec, size);
        out->len += size;
        return 0;
    }
    if (obuf_room(out, head + 64) < 0) /* fields: as they are copied */
        return -ENOMEM;
    memcpy(out->p + out->len, rec, head);
    out->len += head;
    /* The input is not compressed: log_event_field() hands back each
     * field as it is stored, and the cursor brackets its bytes. */
    size_t cur = 0, prev = 0;
    struct log_field f;
    while ((rc = log_event_field(&ev, &cur, &f)) == 1) {
        const uint8_t *fstart = ev.fields + prev;
        size_t flen = cur - prev;
        prev = cur;
        if (f.kind == LOG_F_DATA && f.len >= MIN_BYTES) {
            size_t bound = ZSTD_compressBound(f.len);
            if (obuf_room(zbuf, bound) < 0)
                return -ENOMEM;
            size_t z = ZSTD_compressCCtx(cctx, zbuf->p, bound, f.data, f.len,
                                         LEVEL);
            if (!ZSTD_isError(z) && z + 12 < f.len) {
                uint8_t vbuf[10];
                struct obuf vb = {vbuf, 0, sizeof vbuf};
                put_varint(&vb, f.len);
                if (obuf_room(out, z + 40) < 0)
                    return -ENOMEM;
                out->p[out->len++] = (uint8_t)f.arg;
                out->p[out->len++] = LOG_F_DATA_ZSTD;
                put_varint(out, f.elem);
                put_varint(out, vb.len + z);
                memcpy(out->p + out->len, vbuf, vb.len);
                out->len += vb.len;
                memcpy(out->p + out->len, zbuf->p, z);
                out->len += z;
                continue;
            }
        }
        if (obuf_room(out, flen) < 0)
            return -ENOMEM;
        memcpy(out->p + out->len, fstart, flen);
        out->len += flen;
    }
    if (rc < 0)
        return fail(err, errlen, -EINVAL, "malformed field in event %llu",
                    (unsigned long long)n);
    /* Frame it again: the size and the CRC of what follows them. The head
     * was copied as it was: a large record stays large (compression only
     * shrinks, so a small one stays under 4 GiB). */
    uint64_t size64 = (uint64_t)(out->len - start);
    uint32_t size = (uint32_t)size64;
    if (head_large(rec)) {
        size = LOG_REC_LARGE;
        memcpy(out->p + start + LOG_REC_FIXED, &size64, 8);
    }
    uint32_t crc = util_crc32c(0, out->p + start + 8, size64 - 8);
    memcpy(out->p + start, &size, 4);
    memcpy(out->p + start + 4, &crc, 4);
    return 0;
}

int log_compress_file(const char *path, uint64_t *before, uint64_t *after,
                      char *err, size_t errlen)
{
    struct log_rank r;
    char tmp[PATH_MAX], dir[PATH_MAX];
    int rc = log_rank_open(&r, path, err, errlen);
    if (rc < 0)
        return rc;
    *before = *after = r.size;
    if (strncmp(r.stop_reason, "corrupt", 7) == 0 ||
        (r.hdr.flags & LOG_HDR_COMPRESSED)) {
        log_rank_release(&r);
        return 1;
    }
    /* The new file beside the old one, made new in the same directory
     * (never through a name planted there), then renamed over it. */
    const char *slash = strrchr(path, '/'), *name = slash ? slash + 1 : path;
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == path)
        snprintf(dir, sizeof dir, "/");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    int dfd = util_dir_open(AT_FDCWD, dir, 0);
    int fd = dfd < 0 ? dfd
                     : util_file_create_tmp(dfd, name, tmp, sizeof tmp,
                                            O_WRONLY);
    if (fd < 0) {
        rc = fail(err, errlen, fd, "cannot create a file beside '%s': %s",
                  path, strerror(-fd));
        if (dfd >= 0)
            close(dfd);
        log_rank_release(&r);
        return rc;
    }
    ZSTD_CCtx *cctx = ZSTD_createCCtx();
    struct obuf out = {0}, zbuf = {0};
    struct log_file_header hdr = r.hdr;
    hdr.flags |= LOG_HDR_COMPRESSED;
    rc = cctx ? obuf_room(&out, LOG_HEADER_SIZE) : -ENOMEM;
    if (rc == 0) {
        memcpy(out.p, &hdr, sizeof hdr);
        out.len = LOG_HEADER_SIZE;
    }
    for (uint64_t n = 0; rc == 0 && n < r.nevents; n++) {
        rc = put_record(&r, n, &out, &zbuf, cctx, err, errlen);
        /* Write in chunks of about 1 MiB. */
        if (rc == 0 && (out.len >= (1u << 20) || n + 1 == r.nevents)) {
            for (size_t off = 0; off < out.len;) {
                ssize_t w = write(fd, out.p + off, out.len - off);
                if (w < 0 && errno == EINTR)
                    continue;
                if (w <= 0) {
                    rc = fail(err, errlen, -(errno ? errno : EIO),
                              "cannot write '%s': %s", tmp, strerror(errno));
                    break;
                }
                off += (size_t)w;
                *after = (uint64_t)lseek(fd, 0, SEEK_CUR);
            }
            out.len = 0;
        }
    }
    if (rc == 0 && r.nevents == 0 && write(fd, out.p, out.len) != (ssize_t)out.len)
        rc = fail(err, errlen, -EIO, "cannot write '%s'", tmp);
    if (rc == 0 && fsync(fd) < 0)
        rc = fail(err, errlen, -errno, "cannot write '%s': %s", tmp,
                  strerror(errno));
    struct stat st;
    if (rc == 0 && fstat(fd, &st) == 0)
        *after = (uint64_t)st.st_size;
    close(fd);
    int mv = rc == 0 ? util_file_replace(dfd, tmp, name) : 0;
    if (mv < 0)
        rc = fail(err, errlen, mv, "cannot replace '%s': %s", path,
                  strerror(-mv));
    if (rc != 0) {
        unlinkat(dfd, tmp, 0);
        *after = *before;
    }
    close(dfd);
    ZSTD_freeCCtx(cctx);
    free(out.p);
    free(zbuf.p);
    log_rank_release(&r);
    return rc < 0 ? rc : 0;
}
