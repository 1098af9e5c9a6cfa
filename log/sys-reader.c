/*
 * Reading a rank's libc side stream (log-sys.h): mapped read-only, every
 * record and block checked once at open, then decoded in order.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "log-reader.h"
#include "log-sys.h"
#include "util.h"

/* Whether the bytes from OFF on are zeros, as the writer leaves them
 * after its last record, as far as a record could reach. */
static int zeros_after(const struct log_sys *s, size_t off)
{
    if (off >= s->size)
        return 1;
    size_t end = s->size - off > 2 * LOG_SYS_BLOCK ? off + 2 * LOG_SYS_BLOCK
                                                   : s->size;
    for (size_t i = off; i < end; i++)
        if (s->map[i])
            return 0;
    return 1;
}

/* A record's extent in the mapping. */
struct frame {
    size_t size;       /* the whole record */
    const uint8_t *p;  /* its body: after n (and the u32 length) */
    const uint8_t *end; /* the body's end: the kind byte */
    unsigned kind;     /* with LOG_SYS_FAILED */
};

/* The record at OFF: 1, 0 at a clean end (a zero length, or the end of
 * the file), -1 when the file ends inside it, -2 when it is malformed,
 * -3 when it is torn (its bytes end in zeros: it was being written, or
 * the disk lost its end). */
static int frame(const struct log_sys *s, size_t off, struct frame *f)
{
    if (off >= s->size || s->map[off] == 0)
        return 0;
    size_t head = 1, len = s->map[off];
    if (len == LOG_SYS_LARGE) {
        uint32_t n32;
        if (s->size - off < 5)
            return -1;
        memcpy(&n32, s->map + off + 1, 4);
        head = 5, len = n32;
    }
    if (len > s->size - off - head)
        return -1;
    if (len < 1)
        return zeros_after(s, off + head) ? -3 : -2;
    f->size = head + len;
    f->p = s->map + off + head;
    f->end = f->p + len - 1;
    f->kind = *f->end;
    if (f->kind == 0) /* never written so */
        return zeros_after(s, off + f->size) ? -3 : -2;
    return 1;
}

static int zigzag(const uint8_t **p, const uint8_t *end, int64_t *v)
{
    uint64_t u;
    if (log_get_varint(p, end, &u))
        return -1;
    *v = log_unzigzag64(u);
    return 0;
}

/* Decodes a call's record (not SEAL or TRUNC), the clocks' last times
 * CLK updated: 0, or -1 when malformed. */
static int decode(const struct frame *f, int64_t clk[][2],
                  struct log_sys_rec *r)
{
    const uint8_t *p = f->p;
    int64_t err = 0;
    memset(r, 0, sizeof *r);
    r->kind = (int)(f->kind & ~LOG_SYS_FAILED);
    if (!log_sys_kind_name(r->kind))
        return -1;
    if (f->kind & LOG_SYS_FAILED) {
        if (zigzag(&p, f->end, &err) || err <= 0 || err > 4095)
            return -1;
        r->flags = LOG_SYS_ERRNO;
        r->err = (int)err;
    }
    if (zigzag(&p, f->end, &r->ret) || zigzag(&p, f->end, &r->arg))
        return -1;
    r->data = p;
    r->len = (size_t)(f->end - p);
    if (r->kind != LOG_SYS_CLOCK_GETTIME || r->flags)
        return 0;
    /* The time as the change since the clock's previous record. */
    int64_t ds, dn;
    if (r->ret != 0 || !log_sys_clock_logged(r->arg) ||
        zigzag(&p, f->end, &ds) || zigzag(&p, f->end, &dn) || p != f->end)
        return -1;
    int64_t *t = clk[r->arg];
    uint64_t sec = (uint64_t)t[0] + (uint64_t)ds,
             nsec = (uint64_t)t[1] + (uint64_t)dn;
    if (nsec >= 1000000000u)
        return -1; /* a timespec never has that */
    t[0] = r->time[0] = (int64_t)sec;
    t[1] = r->time[1] = (int64_t)nsec;
    r->data = (const uint8_t *)r->time;
    r->len = sizeof r->time;
    return 0;
}

/* Reading stops at OFF (recs: the records before it), for WHY. */
static void stop_at(struct log_sys *s, size_t off, uint64_t recs,
                    uint64_t unsealed, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static void stop_at(struct log_sys *s, size_t off, uint64_t recs,
                    uint64_t unsealed, const char *fmt, ...)
{
    va_list ap;
    s->end_off = off;
    s->nrecs = recs;
    s->unsealed = unsealed;
    if (fmt) {
        va_start(ap, fmt);
        vsnprintf(s->stop_reason, sizeof s->stop_reason, fmt, ap);
        va_end(ap);
    }
}

/* Walks the records from the header on (log_sys_open). */
static void scan(struct log_sys *s)
{
    size_t off = LOG_HEADER_SIZE, block = off;
    uint64_t sealed = 0, pending = 0;
    struct log_sys_cursor c;
    log_sys_start(&c);
    int complete = (s->hdr.flags & LOG_HDR_COMPLETE) != 0;
    for (;;) {
        struct frame f;
        struct log_sys_rec r;
        int rc = frame(s, off, &f);
        if (rc == 0 && !zeros_after(s, off))
            rc = -2;
        if (rc == 0 && complete && pending)
            return stop_at(s, block, sealed, 0, "corrupt: records after "
                           "the last checksum of a complete stream, at "
                           "offset %zu; records after %llu are unreadable",
                           block, (unsigned long long)sealed);
        if (rc == 0)
            return stop_at(s, off, sealed + pending, pending,
                           complete ? NULL : "incomplete: the stream ends "
                           "after %llu records (the process stopped before "
                           "its end)",
                           (unsigned long long)(sealed + pending));
        /* Cut or torn: the whole records before it are readable, unless
         * the stream is complete (the writer finished it: damaged). */
        if ((rc == -1 || rc == -3) && complete)
            return stop_at(s, block, sealed, 0, "corrupt: the record at "
                           "offset %zu is %s; records after %llu are "
                           "unreadable", off, rc == -1 ? "cut short" : "torn",
                           (unsigned long long)sealed);
        if (rc == -1 || rc == -3)
            return stop_at(s, off, sealed + pending, pending,
                           "incomplete: the stream ends inside the record at "
                           "offset %zu (%s), after %llu records", off,
                           rc == -1 ? "the file is cut short" : "torn",
                           (unsigned long long)(sealed + pending));
        if (rc == 1 && f.kind == LOG_SYS_SEAL && f.end - f.p == 4) {
            uint32_t crc;
            memcpy(&crc, f.p, 4);
            if (util_crc32c(0, s->map + block, off - block) != crc)
                return stop_at(s, block, sealed, 0, "corrupt: a checksum "
                               "mismatch in the records at offsets %zu to "
                               "%zu; records after %llu are unreadable",
                               block, off, (unsigned long long)sealed);
            sealed += pending;
            pending = 0;
            off += f.size;
            block = off;
            continue;
        }
        if (rc == 1 && f.kind == LOG_SYS_TRUNC && !pending) {
            const uint8_t *p = f.p;
            int64_t err;
            if (!zigzag(&p, f.end, &err) && p == f.end)
                return stop_at(s, off, sealed, 0, "truncated: recording "
                               "stopped after %llu records (%s)",
                               (unsigned long long)sealed,
                               strerror(err < 0 ? (int)-err : (int)err));
        }
        if (rc == 1 && f.kind != LOG_SYS_SEAL && f.kind != LOG_SYS_TRUNC &&
            decode(&f, c.clk, &r) == 0) {
            pending++;
            off += f.size;
            continue;
        }
        return stop_at(s, block, sealed, 0, "corrupt: a malformed record "
                       "at offset %zu; records after %llu are unreadable",
                       off, (unsigned long long)sealed);
    }
}

int log_sys_open(struct log_sys *s, const char *path, char *err,
                 size_t errlen)
{
    memset(s, 0, sizeof *s);
    int rc = log__map_file(path, "drdb libc stream", &s->fd, &s->map,
                           &s->size, err, errlen);
    if (rc < 0)
        return rc;
    memcpy(&s->hdr, s->map, sizeof s->hdr);
    if (memcmp(s->hdr.magic, LOG_SYS_MAGIC, 8) != 0) {
        log_errf(err, errlen, "'%s' is not a drdb libc stream (bad magic)",
                 path);
        log_sys_release(s);
        return -EINVAL;
    }
    if (s->hdr.hdr_crc != log_header_crc(&s->hdr) ||
        s->hdr.header_size != LOG_HEADER_SIZE) {
        log_errf(err, errlen, "'%s': corrupt header", path);
        log_sys_release(s);
        return -EBADMSG;
    }
    if (s->hdr.version != LOG_SYS_VERSION) {
        int older = s->hdr.version < LOG_SYS_VERSION;
        log_errf(err, errlen, "'%s' is a libc stream of %s drdb (layout "
                 "%u; this one reads %u): %s", path,
                 older ? "an older" : "a newer", s->hdr.version,
                 LOG_SYS_VERSION,
                 older ? "record the run again, or replay it with the drdb "
                         "that recorded it"
                       : "upgrade drdb");
        log_sys_release(s);
        return -EPROTO;
    }
    scan(s);
    if (!s->stop_reason[0] && !(s->hdr.flags & LOG_HDR_COMPLETE))
        snprintf(s->stop_reason, sizeof s->stop_reason,
                 "incomplete: the process did not close the stream");
    return 0;
}

void log_sys_release(struct log_sys *s)
{
    if (s->map)
        munmap((void *)s->map, s->size);
    if (s->fd >= 0)
        close(s->fd);
    memset(s, 0, sizeof *s);
    s->fd = -1;
}

void log_sys_start(struct log_sys_cursor *c)
{
    memset(c, 0, sizeof *c);
    c->off = LOG_HEADER_SIZE;
}

int log_sys_next(const struct log_sys *s, struct log_sys_cursor *c,
                 struct log_sys_rec *r)
{
    struct frame f;
    while (c->off < s->end_off && frame(s, c->off, &f) == 1) {
        c->off += f.size;
        if (f.kind != LOG_SYS_SEAL && decode(&f, c->clk, r) == 0)
            return 1; /* all checked at open: no other outcome */
    }
    return 0;
}
