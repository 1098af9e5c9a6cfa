/*
 * The log writer: runs inside the recorded process.
 *
 * Records are written into a MAP_SHARED mapping of the log file. Stores into
 * a shared file mapping land in the page cache at once, so when the process
 * dies by any means (SIGKILL included) the kernel still has every record
 * that was committed: nothing is buffered in the process. Disk blocks are
 * reserved with posix_fallocate before they are mapped, so a full disk is an
 * error we can report instead of a SIGBUS on a page fault.
 *
 * A record's size field is written last: a process killed in the middle of
 * a record leaves size 0 there, which readers take as the end of the log.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "log-writer.h"
#include "util.h"

/*
 * The file is reserved LOG_WRITER_FIRST bytes at open (a rank takes no more
 * of the disk before its first call), then doubles as records need room,
 * by at most GROW_MAX at a time. When the disk cannot hold the doubled
 * size, the writer tries again with just what the record needs (rounded
 * to GROW_STEP), so that a nearly full disk still takes every record that
 * fits.
 */
#define GROW_STEP (64u << 10)
#define GROW_MAX (256u << 20)  /* largest single growth */

uint64_t log_writer_large_from = UINT32_MAX;

/* A payload from 64 KiB on is written with pwrite, in blocks that stay in
 * the cache between their checksum and their copy. */
size_t log_writer_big_from = 64u << 10;
#define BIG_BLOCK (256u << 10)

static void stop_logging(struct log_writer *w, int err);

static int reserve(struct log_writer *w, size_t size)
{
    int rc = posix_fallocate(w->fd, 0, (off_t)size);
    if (rc != 0)
        return -rc;
    void *m = w->map ? mremap(w->map, w->map_size, size, MREMAP_MAYMOVE)
                     : mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED,
                            w->fd, 0);
    if (m == MAP_FAILED)
        return -errno;
    w->map = m;
    w->map_size = size;
    w->grows++;
    return 0;
}

/* Takes N bytes from the run's budget: 0, or -EFBIG when it has fewer. */
static int take(struct log_writer *w, uint64_t n)
{
    if (!w->budget)
        return 0;
    uint64_t cur = __atomic_load_n(w->budget, __ATOMIC_RELAXED);
    do {
        if (cur < n)
            return -EFBIG;
    } while (!__atomic_compare_exchange_n(w->budget, &cur, cur - n, 0,
                                          __ATOMIC_RELAXED,
                                          __ATOMIC_RELAXED));
    return 0;
}

static void give_back(struct log_writer *w, uint64_t n)
{
    if (w->budget)
        __atomic_add_fetch(w->budget, n, __ATOMIC_RELAXED);
}

/* Grows the file to SIZE (> map_size) within the limits: 0 or -errno. */
static int grow_to(struct log_writer *w, size_t size)
{
    if (w->limit && size > w->limit)
        return -EFBIG;
    int rc = take(w, size - w->map_size);
    if (rc < 0)
        return rc;
    size_t was = w->map_size;
    if ((rc = reserve(w, size)) < 0)
        give_back(w, size - was);
    return rc;
}

static int grow(struct log_writer *w, size_t need)
{
    size_t size = w->map_size ? w->map_size : LOG_WRITER_FIRST;
    while (size < need)
        size += size < GROW_MAX ? size : GROW_MAX;
    if (w->limit && size > w->limit && need <= w->limit)
        size = w->limit;
    int rc = grow_to(w, size);
    if ((rc == -ENOSPC || rc == -EFBIG || rc == -EDQUOT) && w->map_size) {
        size_t just = (need + GROW_STEP - 1) / GROW_STEP * GROW_STEP;
        if (just < size)
            rc = grow_to(w, just);
    }
    return rc;
}

void log_writer_limit(struct log_writer *w, uint64_t limit,
                      uint64_t *budget)
{
    w->limit = limit;
    w->budget = budget;
    if (take(w, w->map_size) < 0 ||
        (limit && w->map_size > limit)) {
        w->budget = NULL; /* none was taken */
        stop_logging(w, -EFBIG);
    }
}

int log_writer_reserve(struct log_writer *w, size_t need)
{
    return need <= w->map_size ? 0 : grow(w, need);
}

int log_writer_openat_version(struct log_writer *w, int dirfd,
                              const char *name,
                              const struct log_file_header *hdr,
                              uint32_t version)
{
    memset(w, 0, sizeof *w);
    w->fd = util_file_create(dirfd, name, O_RDWR);
    if (w->fd < 0)
        return w->fd;
    int rc = grow(w, LOG_WRITER_FIRST);
    if (rc < 0) {
        /* Not even the first reservation: no log rather than an empty
         * file that reads as a damaged one. */
        close(w->fd);
        unlinkat(dirfd, name, 0);
        w->fd = -1;
        return rc;
    }
    memcpy(w->map, hdr, sizeof *hdr);
    struct log_file_header *h = (struct log_file_header *)w->map;
    h->version = version;
    h->header_size = LOG_HEADER_SIZE;
    h->hdr_crc = log_header_crc(h);
    w->off = LOG_HEADER_SIZE;
    return 0;
}

int log_writer_openat(struct log_writer *w, int dirfd, const char *name,
                      const struct log_file_header *hdr)
{
    return log_writer_openat_version(w, dirfd, name, hdr, LOG_VERSION);
}

int log_writer_open(struct log_writer *w, const char *path,
                    const struct log_file_header *hdr)
{
    const char *slash = strrchr(path, '/');
    char dir[4096];
    if (!slash)
        return log_writer_openat(w, AT_FDCWD, path, hdr);
    size_t n = (size_t)(slash - path);
    if (n >= sizeof dir)
        return -ENAMETOOLONG;
    memcpy(dir, path, n);
    dir[n] = '\0';
    int dfd = util_dir_open(AT_FDCWD, n ? dir : "/", 0);
    if (dfd < 0)
        return dfd;
    int rc = log_writer_openat(w, dfd, slash + 1, hdr);
    close(dfd);
    return rc;
}

static void stop_logging(struct log_writer *w, int err)
{
    w->failed = 1;
    int limited = err == -EFBIG && (w->limit || w->budget);
    log_writer_set_flags(w, LOG_HDR_TRUNCATED |
                                (limited ? LOG_HDR_LIMITED : 0));
    /* A TRUNC record, if it fits, tells readers where and why it stopped. */
    if (w->map && w->off + LOG_REC_MAX_HEAD + 8 <= w->map_size) {
        struct log_rec rec = {w->map + w->off, w->map + w->off + LOG_REC_FIXED};
        w->large = 0;
        w->nseg = 0;
        uint16_t fn = 0, flags = LOG_REC_TRUNC | LOG_REC_RET;
        memcpy(rec.start + 8, &fn, 2);
        memcpy(rec.start + 10, &flags, 2);
        log_put_varint(&rec, 0);
        log_put_varint(&rec, 0);
        log_put_varint(&rec, (uint64_t)(-err) << 1); /* zigzag of errno */
        log_writer_commit(w, &rec);
    }
    char msg[240];
    int n = snprintf(msg, sizeof msg,
                     "drdb-record: warning: rank %d: %s%s%s; recording "
                     "stops at event %llu, the program goes on\n",
                     ((struct log_file_header *)w->map)->rank,
                     limited ? "the log reached the size limit "
                               "(--max-log-size)"
                             : "cannot extend the log (",
                     limited ? "" : strerror(-err), limited ? "" : ")",
                     (unsigned long long)w->events);
    if (write(2, msg, (size_t)n) < 0) {
        /* nothing else to do */
    }
}

struct log_rec *log_writer_begin(struct log_writer *w, struct log_rec *rec,
                                 size_t max, int fn, unsigned flags,
                                 uint64_t enter_ns, uint64_t dur_ns)
{
    if (w->failed)
        return NULL;
    max += LOG_REC_MAX_HEAD;
    /* Keep room for a TRUNC record after this one. */
    if (w->off + max + LOG_REC_MAX_HEAD + 8 > w->map_size) {
        int rc = grow(w, w->off + max + LOG_REC_MAX_HEAD + 8);
        if (rc < 0) {
            stop_logging(w, rc);
            return NULL;
        }
    }
    rec->start = w->map + w->off;
    w->nseg = 0;
    w->large = max >= log_writer_large_from;
    rec->p = rec->start + (w->large ? LOG_REC_FIXED_LARGE : LOG_REC_FIXED);
    uint16_t f16 = (uint16_t)fn, fl16 = (uint16_t)flags;
    memcpy(rec->start + 8, &f16, 2);
    memcpy(rec->start + 10, &fl16, 2);
    log_put_varint(rec, enter_ns - w->last_enter);
    log_put_varint(rec, dur_ns);
    w->last_enter = enter_ns;
    return rec;
}

void log_writer_put_big(struct log_writer *w, struct log_rec *rec,
                        const void *src, size_t n)
{
    size_t off = (size_t)(rec->p - w->map);
    struct log_writer_seg *g = w->nseg ? &w->seg[w->nseg - 1] : NULL;
    /* (a payload written in pieces, right after the last: one segment) */
    int more = g && g->off + g->len == off;
    if (n < log_writer_big_from || (!more && w->nseg == LOG_WRITER_SEGS)) {
        memcpy(rec->p, src, n);
        rec->p += n;
        return;
    }
    if (!more) {
        g = &w->seg[w->nseg++];
        g->off = off;
        g->len = 0;
        g->crc = 0;
    }
    const uint8_t *from = src;
    uint32_t crc = 0;
    for (size_t done = 0; done < n;) {
        size_t len = n - done < BIG_BLOCK ? n - done : BIG_BLOCK;
        crc = util_crc32c(crc, from + done, len);
        while (len) {
            ssize_t k = pwrite(w->fd, from + done, len, (off_t)(off + done));
            if (k < 0 && errno == EINTR)
                continue;
            if (k <= 0) { /* (the disk is reserved: not expected) */
                memcpy(w->map + off + done, from + done, len);
                k = (ssize_t)len;
            }
            done += (size_t)k;
            len -= (size_t)k;
        }
    }
    g->crc = util_crc32c_combine(g->crc, crc, n);
    g->len += n;
    rec->p += n;
}

/* The checksum of the record's bytes from START + 8 to P, its payloads
 * written apart taken from their own sums. */
static uint32_t rec_crc(const struct log_writer *w, const uint8_t *start,
                        const uint8_t *p)
{
    const uint8_t *at = start + 8;
    uint32_t crc = 0;
    for (int i = 0; i < w->nseg; i++) {
        const uint8_t *seg = w->map + w->seg[i].off;
        crc = util_crc32c(crc, at, (size_t)(seg - at));
        crc = util_crc32c_combine(crc, w->seg[i].crc, w->seg[i].len);
        at = seg + w->seg[i].len;
    }
    return util_crc32c(crc, at, (size_t)(p - at));
}

void log_writer_commit(struct log_writer *w, struct log_rec *rec)
{
    uint64_t size64 = (uint64_t)(rec->p - rec->start);
    uint32_t size = w->large ? LOG_REC_LARGE : (uint32_t)size64;
    if (w->large)
        memcpy(rec->start + LOG_REC_FIXED, &size64, 8);
    uint32_t crc = rec_crc(w, rec->start, rec->p);
    memcpy(rec->start + 4, &crc, 4);
    /* The size last: until it is stored, the record does not exist. Records
     * are unaligned, so no atomic store; a compiler barrier keeps the order
     * (one process: program order is all a SIGKILL can observe). */
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    memcpy(rec->start, &size, 4);
    w->off += size64;
    w->events++;
}

void log_writer_set_flags(struct log_writer *w, uint32_t flags)
{
    struct log_file_header *h = (struct log_file_header *)w->map;
    if (h)
        h->flags |= flags;
}

int log_writer_close(struct log_writer *w, uint64_t recorder_ns)
{
    int rc = 0;
    if (w->fd < 0)
        return 0;
    log_writer_set_flags(w, LOG_HDR_COMPLETE);
    if (w->map)
        ((struct log_file_header *)w->map)->recorder_ns = recorder_ns;
    if (w->map)
        munmap(w->map, w->map_size);
    if (ftruncate(w->fd, (off_t)w->off) < 0)
        rc = -errno;
    if (close(w->fd) < 0 && rc == 0)
        rc = -errno;
    w->fd = -1;
    w->map = NULL;
    return rc;
}
