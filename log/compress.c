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
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zstd.h>

#include "log-compress.h"
#include "log-reader.h"
#include "log-rewrite.h"
#include "util.h"

/* Smaller fields do not shrink enough to pay for a frame header. zstd's
 * level 1: on the key data of tests/bench/kernels/is.c, 2.5 times as fast
 * as level 3 for a file 0.6% larger (72.7% of the original, not 72.3%). */
#define MIN_BYTES 64
#define LEVEL 1

/* A log is sampled before it is compressed: SAMPLES pieces of up to
 * SAMPLE_BYTES, at even steps through its message data. When they shrink
 * by less than MIN_SAVING the log is left as it is (random or already
 * compressed data: the compression would cost its whole time for almost
 * nothing). Logs with less data than SAMPLES x SAMPLE_BYTES are compressed
 * without asking. */
#define SAMPLES 16
#define SAMPLE_BYTES (256u << 10)
#define MIN_SAVING 0.10

static int fail(char *err, size_t errlen, int rc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return rc;
}

/* The compressor's per-field step (log__field_fn): a DATA field of at
 * least MIN_BYTES that zstd makes smaller becomes a DATA_ZSTD field. */
struct zctx {
    ZSTD_CCtx *cctx;
    struct log__obuf zbuf;
};

static int compress_field(void *ctx, const struct log_rank *r, uint64_t n,
                          const struct log_field *f, struct log__obuf *out)
{
    struct zctx *z = ctx;
    (void)r;
    (void)n;
    if (f->kind != LOG_F_DATA || f->len < MIN_BYTES)
        return 0;
    size_t bound = ZSTD_compressBound(f->len);
    if (log__obuf_room(&z->zbuf, bound) < 0)
        return -ENOMEM;
    size_t zlen = ZSTD_compressCCtx(z->cctx, z->zbuf.p, bound, f->data,
                                    f->len, LEVEL);
    if (ZSTD_isError(zlen) || zlen + 12 >= f->len)
        return 0;
    uint8_t vbuf[10];
    struct log__obuf vb = {vbuf, 0, sizeof vbuf};
    log__obuf_varint(&vb, f->len);
    if (log__obuf_room(out, zlen + 40) < 0)
        return -ENOMEM;
    log__obuf_field(out, f->arg, LOG_F_DATA_ZSTD, f->elem, vb.len + zlen);
    memcpy(out->p + out->len, vbuf, vb.len);
    out->len += vb.len;
    memcpy(out->p + out->len, z->zbuf.p, zlen);
    out->len += zlen;
    return 1;
}

/* How much R's message data shrinks, estimated from samples: the share
 * saved (0 to 1) into *SAVED and the bytes sampled into *SAMPLED; 0, or -1
 * when the log has too little data to be worth sampling. */
static int sample(const struct log_rank *r, ZSTD_CCtx *cctx,
                  struct log__obuf *zbuf, double *saved, uint64_t *sampled)
{
    uint64_t data = 0, in = 0, out = 0;
    uint64_t step = (r->size / SAMPLES) | 1, next = 0;
    if (r->size < (uint64_t)SAMPLES * SAMPLE_BYTES)
        return -1;
    for (uint64_t n = 0; n < r->nevents; n++) {
        struct log_event ev;
        struct log_field f;
        size_t cur = 0;
        if (log_rank_event(r, n, &ev, NULL, 0) != 0)
            continue;
        while (log_event_next_stored(&ev, &cur, &f) == 1) {
            if (f.kind != LOG_F_DATA || f.len < MIN_BYTES)
                continue;
            data += f.len;
            if (data < next)
                continue;
            size_t len = f.len < SAMPLE_BYTES ? f.len : SAMPLE_BYTES;
            size_t bound = ZSTD_compressBound(len);
            if (log__obuf_room(zbuf, bound) < 0)
                return -1;
            size_t z = ZSTD_compressCCtx(cctx, zbuf->p, bound, f.data, len,
                                         LEVEL);
            in += len;
            out += ZSTD_isError(z) || z > len ? len : z;
            next = data + step;
        }
    }
    if (in < SAMPLE_BYTES)
        return -1;
    *saved = 1.0 - (double)out / (double)in;
    *sampled = in;
    return 0;
}

/* Takes O's hold exclusively (waiting while sessions hold the run, and
 * saying so once): 0, or -EINTR when told to stop meanwhile. */
static int hold_take(const struct log_zopts *o)
{
    int told = 0;
    while (flock(o->hold_fd, LOCK_EX | LOCK_NB) < 0) {
        if (errno != EWOULDBLOCK && errno != EINTR)
            return 0; /* a file system without locks: nothing to wait on */
        if (o->stop && *o->stop)
            return -EINTR;
        if (!told && o->waiting)
            o->waiting(o->ud);
        told = 1;
        struct timespec t = {0, 200000000};
        nanosleep(&t, NULL);
    }
    return 0;
}

int log_compress_file(const char *path, const struct log_zopts *o,
                      uint64_t *before, uint64_t *after, char *err,
                      size_t errlen)
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
    struct zctx z = {ZSTD_createCCtx(), {0}};
    double saved;
    uint64_t sampled;
    if (z.cctx && sample(&r, z.cctx, &z.zbuf, &saved, &sampled) == 0 &&
        saved < MIN_SAVING) {
        fail(err, errlen, 0, "its message data does not compress (%.1f MB "
             "sampled at %d places shrank by %.1f%%)",
             (double)sampled / 1e6, SAMPLES, 100.0 * saved);
        ZSTD_freeCCtx(z.cctx);
        free(z.zbuf.p);
        log_rank_release(&r);
        return 2;
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
        ZSTD_freeCCtx(z.cctx);
        free(z.zbuf.p);
        log_rank_release(&r);
        return rc;
    }
    struct log__obuf out = {0};
    struct log_file_header hdr = r.hdr;
    hdr.flags |= LOG_HDR_COMPRESSED;
    rc = z.cctx ? log__obuf_room(&out, LOG_HEADER_SIZE) : -ENOMEM;
    if (rc == 0) {
        memcpy(out.p, &hdr, sizeof hdr);
        out.len = LOG_HEADER_SIZE;
    }
    for (uint64_t n = 0; rc == 0 && n < r.nevents; n++) {
        if (o && o->stop && *o->stop && (n & 1023) == 0) {
            rc = fail(err, errlen, -EINTR, "stopped");
            break;
        }
        rc = log__rewrite_record(&r, n, &out, compress_field, &z, err,
                                 errlen);
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
    int held = 0;
    if (rc == 0 && o && o->hold_fd >= 0) {
        rc = hold_take(o);
        if (rc < 0)
            fail(err, errlen, rc, "stopped");
        held = rc == 0;
    }
    int mv = rc == 0 ? util_file_replace(dfd, tmp, name) : 0;
    if (held)
        flock(o->hold_fd, LOCK_UN);
    if (mv < 0)
        rc = fail(err, errlen, mv, "cannot replace '%s': %s", path,
                  strerror(-mv));
    if (rc != 0) {
        unlinkat(dfd, tmp, 0);
        *after = *before;
    }
    close(dfd);
    ZSTD_freeCCtx(z.cctx);
    free(out.p);
    free(z.zbuf.p);
    log_rank_release(&r);
    return rc < 0 ? rc : 0;
}
