/*
 * Reading a rank's libc side stream (log-sys.h): mapped read-only, every
 * record checked once at open, then decoded in order.
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

/* The record at OFF: its size, or 0 when there is none (zeros: the end the
 * writer reached), or -1 when it is damaged (WHY says how). */
static long frame(const struct log_sys *s, size_t off, const char **why)
{
    uint32_t size, crc;
    if (s->size - off < 4)
        return *why = "a record cut short", -1;
    memcpy(&size, s->map + off, 4);
    if (size == 0)
        return 0;
    if (size < LOG_REC_FIXED + 3 || size > s->size - off)
        return *why = "a record of a bad size", -1;
    memcpy(&crc, s->map + off + 4, 4);
    if (util_crc32c(0, s->map + off + 8, size - 8) != crc)
        return *why = "a checksum mismatch", -1;
    return size;
}

static int decode(const struct log_sys *s, size_t off, size_t size,
                  struct log_sys_rec *r)
{
    const uint8_t *p = s->map + off + LOG_REC_FIXED,
                  *end = s->map + off + size;
    uint16_t kind, flags;
    uint64_t v;
    memcpy(&kind, s->map + off + 8, 2);
    memcpy(&flags, s->map + off + 10, 2);
    memset(r, 0, sizeof *r);
    r->kind = kind;
    r->flags = flags;
    if ((flags & ~(unsigned)LOG_SYS_KNOWN) ||
        log_get_varint(&p, end, &v) || log_get_varint(&p, end, &v))
        return -1;
    if (flags & (LOG_SYS_ERRNO | LOG_REC_RET)) {
        if (log_get_varint(&p, end, &v))
            return -1;
        r->err = (int)log_unzigzag64(v);
    }
    if (flags & LOG_REC_TRUNC)
        return kind == 0 ? 0 : -1;
    if (!log_sys_kind_name(kind) || log_get_varint(&p, end, &v))
        return -1;
    r->ret = log_unzigzag64(v);
    if (log_get_varint(&p, end, &v))
        return -1;
    r->arg = log_unzigzag64(v);
    r->data = p;
    r->len = (size_t)(end - p);
    return 0;
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
    size_t off = LOG_HEADER_SIZE;
    while (off < s->size) {
        const char *why = NULL;
        struct log_sys_rec r;
        long size = frame(s, off, &why);
        if (size == 0) {
            if (!(s->hdr.flags & LOG_HDR_COMPLETE))
                snprintf(s->stop_reason, sizeof s->stop_reason,
                         "incomplete: the stream ends after %llu records "
                         "(the process stopped before its end)",
                         (unsigned long long)s->nrecs);
            break;
        }
        if (size > 0 && decode(s, off, (size_t)size, &r) < 0)
            why = "a malformed record", size = -1;
        if (size < 0) {
            snprintf(s->stop_reason, sizeof s->stop_reason,
                     "corrupt: %s at offset %zu; records after %llu are "
                     "unreadable", why, off, (unsigned long long)s->nrecs);
            break;
        }
        if (r.flags & LOG_REC_TRUNC) {
            snprintf(s->stop_reason, sizeof s->stop_reason,
                     "truncated: recording stopped after %llu records (%s)",
                     (unsigned long long)s->nrecs,
                     strerror(r.err < 0 ? -r.err : r.err));
            break;
        }
        off += (size_t)size;
        s->nrecs++;
    }
    s->end_off = off < s->size ? off : s->size;
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

int log_sys_next(const struct log_sys *s, size_t *off, struct log_sys_rec *r)
{
    uint32_t size;
    if (*off + 4 > s->end_off)
        return 0;
    memcpy(&size, s->map + *off, 4);
    if (decode(s, *off, size, r) < 0)
        return 0; /* checked at open: cannot happen */
    *off += size;
    return 1;
}
