/*
 * The log reader: maps a rank's log read-only and indexes its records.
 *
 * Everything read from a log is untrusted: every length is checked against
 * the bytes that remain before it is used, a damaged record ends the index
 * (with the reason and the offset), and nothing in a log is ever executed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "log-abi.h"

#include "log-reader.h"
#include "log-rewrite.h"
#include "util.h"

void log_errf(char *err, size_t len, const char *fmt, ...)
{
    va_list ap;
    if (!err || !len)
        return;
    va_start(ap, fmt);
    vsnprintf(err, len, fmt, ap);
    va_end(ap);
}

/*
 * What is wrong with a header whose magic is right, or NULL. A version 3
 * header is checked against its CRC first, so that a damaged field reads
 * as "corrupt header", not as a log of version 2365587458; a version 2
 * one (no CRC) field by field. Either way every number a reader sizes or
 * names things by is checked against its bounds.
 */
static const char *log__header_check(const struct log_file_header *h)
{
    static __thread char why[128];
    if (h->version < LOG_VERSION_MIN || h->version > LOG_VERSION) {
        /* A newer format is told apart from a damaged field by the CRC
         * (newer versions keep it where version 3 put it). */
        if (h->version > LOG_VERSION && h->version < 1000 &&
            h->hdr_crc == log_header_crc(h)) {
            snprintf(why, sizeof why, "a version %u log; this drdb reads "
                     "versions %d to %d: upgrade drdb", h->version,
                     LOG_VERSION_MIN, LOG_VERSION);
            return why;
        }
        snprintf(why, sizeof why, "corrupt header (version field %u)",
                 h->version);
        return why;
    }
    if (h->version >= 3 && h->hdr_crc != log_header_crc(h))
        return "corrupt header (checksum mismatch)";
    if (h->header_size != LOG_HEADER_SIZE) {
        snprintf(why, sizeof why, "corrupt header (header size %u)",
                 h->header_size);
        return why;
    }
    if (h->world_size < 1 || h->world_size > LOG_MAX_WORLD) {
        snprintf(why, sizeof why, "corrupt header (world size %d)",
                 h->world_size);
        return why;
    }
    if (h->rank < 0 || h->rank >= h->world_size) {
        snprintf(why, sizeof why,
                 "corrupt header (rank %d in a world of %d)", h->rank,
                 h->world_size);
        return why;
    }
    if (h->flags & ~(uint32_t)LOG_HDR_KNOWN) {
        snprintf(why, sizeof why, "corrupt header (unknown flags %#x)",
                 h->flags);
        return why;
    }
    return NULL;
}

/* Records are not aligned: read through memcpy. */
static uint32_t get_u32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

/* Parses the record at OFF (bounded by the mapping). 0 or -1 (with ERR). */
static int parse_record(const uint8_t *map, size_t size, uint64_t off,
                        int check_crc, unsigned version,
                        struct log_event *ev, char *err, size_t errlen)
{
    uint64_t rsize;
    uint32_t crc;
    uint16_t fn, flags;
    unsigned fixed;
    const uint8_t *rec = map + off;

    if (size - off < LOG_REC_FIXED) {
        log_errf(err, errlen, "truncated record header at offset %llu",
                (unsigned long long)off);
        return -1;
    }
    memcpy(&crc, rec + 4, 4);
    if (log_rec_size(rec, size - off, &rsize, &fixed) < 0) {
        log_errf(err, errlen, "bad record size %llu at offset %llu",
                (unsigned long long)rsize, (unsigned long long)off);
        return -1;
    }
    if (check_crc && util_crc32c(0, rec + 8, rsize - 8) != crc) {
        log_errf(err, errlen, "checksum mismatch in the record at offset %llu",
                (unsigned long long)off);
        return -1;
    }
    memcpy(&fn, rec + 8, 2);
    memcpy(&flags, rec + 10, 2);

    if (flags & ~(unsigned)LOG_REC_KNOWN) {
        log_errf(err, errlen, "unknown record flags %#x at offset %llu",
                 flags & ~(unsigned)LOG_REC_KNOWN, (unsigned long long)off);
        return -1;
    }
    const uint8_t *p = rec + fixed, *end = rec + rsize;
    uint64_t dt, dur, v;
    memset(ev, 0, sizeof *ev);
    ev->fn = fn;
    ev->flags = flags;
    ev->repeat = 1;
    if (log_get_varint(&p, end, &dt) || log_get_varint(&p, end, &dur))
        goto bad;
    ev->enter_ns = dt; /* a delta: the caller accumulates */
    ev->dur_ns = dur;
    if (flags & LOG_REC_RET) {
        if (log_get_varint(&p, end, &v))
            goto bad;
        ev->ret = log_unzigzag32(v);
    }
    if (flags & LOG_REC_REPEAT) {
        if (log_get_varint(&p, end, &ev->repeat))
            goto bad;
    }
    if (flags & LOG_REC_CALLBACK) {
        if (log_get_varint(&p, end, &v) || v >> 1 == 0 ||
            v >> 1 > LOG_MAX_CB_DEPTH)
            goto bad;
        ev->depth = (unsigned)(v >> 1);
        ev->cb_entry = (unsigned)(v & LOG_CB_ENTRY);
    }
    if (flags & LOG_REC_THREAD) {
        if (log_get_varint(&p, end, &ev->thread))
            goto bad;
    }
    if (flags & LOG_REC_SITE) {
        if (log_get_varint(&p, end, &v))
            goto bad;
        ev->site_off = v >> 3;
        ev->site_obj = (uint32_t)(v & 7);
        if ((v & 7) == LOG_SITE_SHORT) {
            if (log_get_varint(&p, end, &v) || v < LOG_SITE_SHORT ||
                v > UINT32_MAX)
                goto bad;
            ev->site_obj = (uint32_t)v;
        }
    }
    if (flags & LOG_REC_CYCLE) {
        char why[80];
        if (log_get_varint(&p, end, &v))
            goto bad;
        if (log__cycle_parse(ev, v, p, end, why, sizeof why) < 0) {
            log_errf(err, errlen, "%s at offset %llu", why,
                     (unsigned long long)off);
            return -1;
        }
        return 0;
    }
    ev->desc = log_func_by_id(fn);
    if ((flags & LOG_REC_DIED) &&
        (!(flags & LOG_REC_TRUNC) || !ev->desc)) {
        log_errf(err, errlen, "a malformed DIED record at offset %llu",
                 (unsigned long long)off);
        return -1;
    }
    if (!ev->desc && !(flags & LOG_REC_TRUNC)) {
        log_errf(err, errlen, "unknown function id %u at offset %llu", fn,
                (unsigned long long)off);
        return -1;
    }
    ev->bufs = p;
    if (log__has_bufs(ev->desc, flags, version))
        for (int i = 0; i < ev->desc->nbufs; i++) {
            uint64_t addr, span1;
            int64_t lb;
            if (log_get_bufaddr(&p, end, &addr, &lb, &span1))
                goto bad;
        }
    ev->bufs_len = (size_t)(p - ev->bufs);
    ev->args = p;
    if (ev->desc)
        for (int i = 0; i < ev->desc->nargs; i++)
            if (ev->desc->args[i].enc && log_get_varint(&p, end, &v))
                goto bad;
    ev->args_len = (size_t)(p - ev->args);
    ev->fields = p;
    ev->fields_len = (size_t)(end - ev->fields);
    return 0;
bad:
    log_errf(err, errlen, "malformed record at offset %llu",
            (unsigned long long)off);
    return -1;
}

int log__map_file(const char *path, const char *what, int *fd,
                  const uint8_t **map, size_t *size, char *err,
                  size_t errlen)
{
    struct stat st;
    *fd = open(path, O_RDONLY | O_CLOEXEC);
    if (*fd < 0) {
        int e = errno;
        log_errf(err, errlen, "cannot open '%s': %s", path, strerror(e));
        return -e;
    }
    int rc = -EINVAL;
    if (fstat(*fd, &st) < 0 || !S_ISREG(st.st_mode)) {
        log_errf(err, errlen, "'%s' is not a regular file", path);
        goto fail;
    }
    *size = (size_t)st.st_size;
    if (*size < LOG_HEADER_SIZE) {
        log_errf(err, errlen,
                 "'%s' is too short for a %s (%zu bytes, header is %d)",
                 path, what, *size, LOG_HEADER_SIZE);
        goto fail;
    }
    void *m = mmap(NULL, *size, PROT_READ, MAP_PRIVATE, *fd, 0);
    if (m == MAP_FAILED) {
        rc = -errno;
        log_errf(err, errlen, "cannot map '%s': %s", path, strerror(-rc));
        goto fail;
    }
    *map = m;
    return 0;
fail:
    close(*fd);
    *fd = -1;
    return rc;
}

/* The number of the last log opened in this process (struct
 * log_rank.serial): what tells a cursor's log from one opened later at the
 * same address. */
static uint64_t log__serials;

/* Checks the header of R's mapping and indexes its records; NAME names
 * the log in messages. As log_rank_open(); releases R on failure. */
static int index_log(struct log_rank *r, const char *path,
                     log__visit_fn visit, void *ctx, char *err, size_t errlen)
{
    memcpy(&r->hdr, r->map, sizeof r->hdr);
    if (memcmp(r->hdr.magic, LOG_MAGIC, 8) != 0) {
        log_errf(err, errlen, "'%s' is not a drdb log (bad magic)", path);
        log_rank_release(r);
        return -EINVAL;
    }
    const char *bad = log__header_check(&r->hdr);
    if (bad) {
        log_errf(err, errlen, "'%s': %s", path, bad);
        int newer = strncmp(bad, "a version", 9) == 0;
        log_rank_release(r);
        return newer ? -EINVAL : -EBADMSG;
    }
    r->hdr.host[sizeof r->hdr.host - 1] = '\0';

    /* Index: walk the frames until the end or the first damaged record. */
    uint64_t cap = 0, off = LOG_HEADER_SIZE, t = 0;
    char why[120];
    for (;;) {
        struct log_event ev;
        if (off + 4 <= r->size && get_u32(r->map + off) == 0) {
            /* Zeros where the next record would be: the writer never got
             * further (killed, or still running); after MPI_Finalize
             * (COMPLETE: the log stays open to the process's exit), the
             * rank ended without its exit: complete. */
            if (!(r->hdr.flags & LOG_HDR_COMPLETE))
                snprintf(r->stop_reason, sizeof r->stop_reason,
                         "incomplete: the log ends after event %llu (the "
                         "rank stopped before MPI_Finalize)",
                         (unsigned long long)r->nevents);
            break;
        }
        if (off >= r->size)
            break;
        if (parse_record(r->map, r->size, off, !r->trusted,
                         r->hdr.version, &ev, why, sizeof why) < 0) {
            snprintf(r->stop_reason, sizeof r->stop_reason,
                     "corrupt: %s; events after %llu are unreadable", why,
                     (unsigned long long)r->nevents);
            break;
        }
        t += ev.enter_ns;
        if (r->nevents % LOG_RANK_STRIDE == 0) {
            uint64_t k = r->nevents / LOG_RANK_STRIDE;
            if (k == cap) {
                cap = cap ? cap * 2 : 64;
                uint64_t *o = realloc(r->ck_off, cap * sizeof *o);
                uint64_t *e = o ? realloc(r->ck_enter, cap * sizeof *e)
                                : NULL;
                if (o)
                    r->ck_off = o;
                if (!o || !e) {
                    log_errf(err, errlen, "out of memory indexing '%s'",
                             path);
                    log_rank_release(r);
                    return -ENOMEM;
                }
                r->ck_enter = e;
            }
            r->ck_off[k] = off;
            r->ck_enter[k] = t;
        }
        uint64_t rsize;
        unsigned fixed;
        log_rec_size(r->map + off, r->size - off, &rsize, &fixed);
        if (visit) {
            ev.rank = r;
            ev.index = r->nevents;
            int rc = visit(ctx, r, &ev, off, err, errlen);
            if (rc < 0) {
                log_rank_release(r);
                return rc;
            }
        }
        r->nevents++;
        if ((ev.flags & LOG_REC_THREAD) && ev.thread != 0)
            r->threads = 1;
        off += rsize;
        if (ev.flags & LOG_REC_DIED) {
            r->died = 1;
            break;
        }
        if (ev.flags & LOG_REC_TRUNC) {
            r->trunc_errno = ev.ret ? (ev.ret < 0 ? -ev.ret : ev.ret) : -1;
            break;
        }
    }
    r->end_off = off;
    /* The tables as long as they are: a log is opened once and read
     * many times (the doubling would waste up to half). */
    uint64_t nck = (r->nevents + LOG_RANK_STRIDE - 1) / LOG_RANK_STRIDE;
    if (nck && nck < cap) {
        uint64_t *o = realloc(r->ck_off, nck * sizeof *o);
        uint64_t *e = realloc(r->ck_enter, nck * sizeof *e);
        if (o)
            r->ck_off = o;
        if (e)
            r->ck_enter = e;
        if (o && e)
            cap = nck;
    }
    r->ck_cap = cap;
    r->serial = __atomic_add_fetch(&log__serials, 1, __ATOMIC_RELAXED);
    if (!r->trunc_errno && (r->hdr.flags & LOG_HDR_TRUNCATED))
        r->trunc_errno = -1; /* no room was left for the TRUNC record */
    if (!r->stop_reason[0] && !(r->hdr.flags & LOG_HDR_COMPLETE))
        snprintf(r->stop_reason, sizeof r->stop_reason,
                 "incomplete: the rank did not reach MPI_Finalize");
    return 0;
}

/* Maps PATH into R and indexes it, its records' checksums checked unless
 * TRUSTED (log_rank_open_trusted). */
static int rank_open(struct log_rank *r, const char *path, int trusted,
                     log__visit_fn visit, void *ctx, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    r->trusted = trusted;
    int rc = log__map_file(path, "drdb log", &r->fd, &r->map, &r->size, err,
                           errlen);
    return rc < 0 ? rc : index_log(r, path, visit, ctx, err, errlen);
}

int log__rank_open_visit(struct log_rank *r, const char *path,
                         log__visit_fn visit, void *ctx, char *err,
                         size_t errlen)
{
    return rank_open(r, path, 0, visit, ctx, err, errlen);
}

int log_rank_open_trusted(struct log_rank *r, const char *path, char *err,
                          size_t errlen)
{
    return rank_open(r, path, 1, NULL, NULL, err, errlen);
}

int log_rank_open(struct log_rank *r, const char *path, char *err,
                  size_t errlen)
{
    return log__rank_open_visit(r, path, NULL, NULL, err, errlen);
}

int log_rank_open_mem(struct log_rank *r, uint8_t *image, size_t size,
                      const char *name, log_fetch_fn fetch, void *fetch_ud,
                      char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    r->fd = -1;
    r->map = image;
    r->size = size;
    r->in_memory = 1;
    r->fetch = fetch;
    r->fetch_ud = fetch_ud;
    if (size < LOG_HEADER_SIZE) {
        log_errf(err, errlen,
                 "'%s' is too short for a drdb log (%zu bytes, header is %d)",
                 name, size, LOG_HEADER_SIZE);
        log_rank_release(r);
        return -EINVAL;
    }
    return index_log(r, name, NULL, NULL, err, errlen);
}

void log_rank_release(struct log_rank *r)
{
    if (r->in_memory)
        free((void *)r->map);
    else if (r->map && r->map != MAP_FAILED)
        munmap((void *)r->map, r->size);
    if (r->fd >= 0)
        close(r->fd);
    free(r->ck_off);
    free(r->ck_enter);
    memset(r, 0, sizeof *r);
    r->fd = -1;
}

/*
 * Where record N of R starts (*OFF) and its enter time (*T): from the kept
 * record at or before it, or from this thread's cursor (the record it
 * located last, in the same opening of the same log) when that lies
 * between, then frame by frame. Each record was checked when the log was
 * indexed (index_log), so its size and time delta read back as they did.
 * The cursor is per thread: the replay stub's threads and a front end's
 * workers each read their own way.
 */
static void log__locate(const struct log_rank *r, uint64_t n, uint64_t *off,
                        uint64_t *t)
{
    static __thread struct {
        uint64_t serial, n, off, t;
    } cur;
    uint64_t k = n / LOG_RANK_STRIDE, at = k * LOG_RANK_STRIDE;
    uint64_t o = r->ck_off[k], tt = r->ck_enter[k];
    if (cur.serial == r->serial && cur.n <= n && cur.n > at) {
        at = cur.n;
        o = cur.off;
        tt = cur.t;
    }
    for (; at < n; at++) {
        uint64_t rsize, dt = 0;
        unsigned fixed;
        log_rec_size(r->map + o, r->size - o, &rsize, &fixed);
        o += rsize;
        log_rec_size(r->map + o, r->size - o, &rsize, &fixed);
        const uint8_t *p = r->map + o + fixed;
        log_get_varint(&p, r->map + o + rsize, &dt);
        tt += dt;
    }
    cur.serial = r->serial;
    cur.n = n;
    cur.off = o;
    cur.t = tt;
    *off = o;
    *t = tt;
}

uint64_t log_rank_offset(const struct log_rank *r, uint64_t n)
{
    uint64_t off, t;
    log__locate(r, n, &off, &t);
    return off;
}

uint64_t log_rank_enter(const struct log_rank *r, uint64_t n)
{
    uint64_t off, t;
    log__locate(r, n, &off, &t);
    return t;
}

size_t log_rank_table_bytes(const struct log_rank *r)
{
    return (size_t)r->ck_cap * (sizeof *r->ck_off + sizeof *r->ck_enter);
}

int log_rank_event(const struct log_rank *r, uint64_t n, struct log_event *ev,
                   char *err, size_t errlen)
{
    if (n >= r->nevents) {
        log_errf(err, errlen, "no event %llu: the log has %llu",
                (unsigned long long)n, (unsigned long long)r->nevents);
        return -ERANGE;
    }
    uint64_t off, t;
    log__locate(r, n, &off, &t);
    /* (its checksum was checked when the log was indexed: reading it
     * again here read every message's data twice) */
    if (parse_record(r->map, r->size, off, 0, r->hdr.version, ev, err,
                     errlen) < 0)
        return -EINVAL;
    ev->rank = r;
    ev->index = n;
    ev->enter_ns = t;
    return 0;
}

/* Inflates a DATA_ZSTD field into this thread's buffer. */
static int log__inflate(struct log_field *f)
{
    static __thread uint8_t *buf;
    static __thread size_t cap;
    const uint8_t *p = f->data, *end = f->data + f->len;
    uint64_t raw;
    if (log_get_varint(&p, end, &raw) || raw > ((uint64_t)1 << 34))
        return -EINVAL;
    unsigned long long want = ZSTD_getFrameContentSize(p, (size_t)(end - p));
    if (want != raw)
        return -EINVAL;
    if (raw > cap) {
        uint8_t *nb = realloc(buf, raw);
        if (!nb)
            return -EINVAL;
        buf = nb;
        cap = raw;
    }
    size_t got = ZSTD_decompress(buf, raw, p, (size_t)(end - p));
    if (ZSTD_isError(got) || got != raw)
        return -EINVAL;
    f->kind = LOG_F_DATA;
    f->data = buf;
    f->len = raw;
    return 1;
}

int log_event_peek(const struct log_event *ev, size_t cursor,
                   struct log_field *f)
{
    const uint8_t *p = ev->fields + cursor, *end = ev->fields + ev->fields_len;
    if (p >= end)
        return 0;
    if (end - p < 2)
        return -EINVAL;
    f->arg = p[0];
    f->kind = p[1];
    p += 2;
    if (log_get_varint(&p, end, &f->elem) || log_get_varint(&p, end, &f->len) ||
        f->len > (uint64_t)(end - p))
        return -EINVAL;
    f->data = p;
    return 1;
}

int log_field_elided(const struct log_field *f, struct log_elided *e)
{
    const uint8_t *p = f->data, *end = f->data + f->len;
    uint64_t kind;
    if (f->kind != LOG_F_ELIDED || log_get_varint(&p, end, &kind) ||
        log_get_varint(&p, end, &e->len) ||
        log_get_varint(&p, end, &e->stored_len) ||
        log_get_varint(&p, end, &e->off) || p != end ||
        (kind != LOG_F_DATA && kind != LOG_F_DATA_ZSTD &&
         kind != LOG_F_WINDIFF))
        return -EINVAL;
    e->kind = (unsigned)kind;
    return 0;
}

int log_field_data_len(const struct log_field *f, uint64_t *len)
{
    struct log_elided e;
    const uint8_t *p = f->data;
    switch (f->kind) {
    case LOG_F_DATA:
        *len = f->len;
        return 1;
    case LOG_F_DATA_ZSTD:
        return log_get_varint(&p, f->data + f->len, len) == 0;
    case LOG_F_ELIDED:
        if (log_field_elided(f, &e) < 0 || e.kind == LOG_F_WINDIFF)
            return 0;
        *len = e.len;
        return 1;
    }
    return 0;
}

static __thread char fetch_why[160];

const char *log_fetch_error(void)
{
    return fetch_why;
}

/* Fetches an elided field through EV's rank into this thread's buffer and
 * makes F what was elided (inflated). 1, or 1 with F left LOG_F_ELIDED
 * (no fetch function, or it failed: log_fetch_error() says why). */
static int log__fetch(const struct log_event *ev, struct log_field *f)
{
    static __thread uint8_t *buf;
    static __thread uint64_t cap;
    struct log_elided e;
    const struct log_rank *r = ev->rank;
    fetch_why[0] = '\0';
    if (log_field_elided(f, &e) < 0)
        return -EINVAL;
    if (!r || !r->fetch) {
        snprintf(fetch_why, sizeof fetch_why,
                 "message data not fetched (a stripped copy of the log)");
        return 1;
    }
    if (e.stored_len > ((uint64_t)1 << 34)) {
        snprintf(fetch_why, sizeof fetch_why, "elided field too large");
        return 1;
    }
    if (e.stored_len > cap) {
        uint8_t *nb = realloc(buf, e.stored_len ? e.stored_len : 1);
        if (!nb) {
            snprintf(fetch_why, sizeof fetch_why, "out of memory");
            return 1;
        }
        buf = nb;
        cap = e.stored_len;
    }
    if (r->fetch(r->fetch_ud, e.off, buf, e.stored_len, fetch_why,
                 sizeof fetch_why) < 0)
        return 1;
    struct log_field got = *f;
    got.kind = e.kind;
    got.data = buf;
    got.len = e.stored_len;
    if (e.kind == LOG_F_DATA_ZSTD && log__inflate(&got) < 0) {
        snprintf(fetch_why, sizeof fetch_why,
                 "the fetched bytes do not inflate (the log changed?)");
        return 1;
    }
    if (got.len != e.len) {
        snprintf(fetch_why, sizeof fetch_why,
                 "fetched %llu bytes, the copy says %llu (the log changed?)",
                 (unsigned long long)got.len, (unsigned long long)e.len);
        return 1;
    }
    *f = got;
    return 1;
}

int log_event_take(const struct log_event *ev, size_t *cursor,
                   struct log_field *f)
{
    *cursor = (size_t)(f->data + f->len - ev->fields);
    if (f->kind == LOG_F_DATA_ZSTD)
        return log__inflate(f);
    if (f->kind == LOG_F_ELIDED)
        return log__fetch(ev, f);
    return 1;
}

int log_event_field(const struct log_event *ev, size_t *cursor,
                    struct log_field *f)
{
    int rc = log_event_peek(ev, *cursor, f);
    return rc <= 0 ? rc : log_event_take(ev, cursor, f);
}

int log_event_next_stored(const struct log_event *ev, size_t *cursor,
                          struct log_field *f)
{
    int rc = log_event_peek(ev, *cursor, f);
    if (rc == 1)
        *cursor = (size_t)(f->data + f->len - ev->fields);
    return rc;
}

/* A field stored as STORED reads as KIND. */
static int reads_as(const struct log_field *stored, unsigned kind)
{
    struct log_elided e;
    if (stored->kind == kind)
        return 1;
    if (kind == LOG_F_DATA && stored->kind == LOG_F_DATA_ZSTD)
        return 1;
    if (stored->kind == LOG_F_ELIDED && log_field_elided(stored, &e) == 0)
        return e.kind == kind ||
               (kind == LOG_F_DATA && e.kind == LOG_F_DATA_ZSTD);
    return 0;
}

int log_event_find(const struct log_event *ev, unsigned arg, unsigned kind,
                   struct log_field *f)
{
    size_t cur = 0;
    while (log_event_peek(ev, cur, f) == 1) {
        if (f->arg == arg && reads_as(f, kind))
            return log_event_take(ev, &cur, f) == 1 && f->kind == kind;
        cur = (size_t)(f->data + f->len - ev->fields);
    }
    return 0;
}

int log_field_neighbors(const struct log_field *f, int32_t *v, size_t cap,
                        struct log_neighbors *nb)
{
    const uint8_t *p = f->data, *end = f->data + f->len;
    uint64_t in;
    int64_t e;
    size_t n = 0;
    if (f->kind != LOG_F_NEIGHBORS || f->elem < LOG_TOPO_CART ||
        f->elem > LOG_TOPO_DIST_GRAPH || log_get_varint(&p, end, &in) < 0)
        return -EINVAL;
    while (p < end && n < cap && log_get_array_elem(&p, end, LOG_ENC_INT,
                                                    &e) == 0)
        v[n++] = (int32_t)e;
    int dist = f->elem == LOG_TOPO_DIST_GRAPH;
    if (p != end || n < in || (!dist && n != in))
        return -EINVAL;
    nb->kind = (int)f->elem;
    nb->in = (int)in;
    nb->out = (int)(dist ? n - in : n);
    nb->src = v;
    nb->dst = dist ? v + in : v;
    return 0;
}

static int64_t get_arg(const uint8_t **p, const uint8_t *end, int enc)
{
    uint64_t v = 0;
    if (log_get_varint(p, end, &v))
        return 0;
    switch (enc) {
    case LOG_ENC_INT:
        return log_unzigzag32(v);
    case LOG_ENC_HANDLE:
        return (int32_t)log_unrotate_handle(v);
    case LOG_ENC_AINT:
        return log_unzigzag64(v);
    default:
        return (int64_t)v;
    }
}

int log_field_handle(const struct log_field *f, uint32_t *v)
{
    const uint8_t *p = f->data;
    uint64_t x;
    if (log_get_varint(&p, f->data + f->len, &x) || p != f->data + f->len ||
        x > UINT32_MAX)
        return -EINVAL;
    *v = log_unrotate_handle(x);
    return 0;
}

int64_t log_event_arg(const struct log_event *ev, int i)
{
    if (!ev->desc || i < 0 || i >= ev->desc->nargs || !ev->desc->args[i].enc)
        return 0;
    const uint8_t *p = ev->args, *end = ev->args + ev->args_len;
    for (int k = 0; k < i; k++)
        if (ev->desc->args[k].enc)
            get_arg(&p, end, ev->desc->args[k].enc);
    return get_arg(&p, end, ev->desc->args[i].enc);
}

int log_event_args(const struct log_event *ev, int64_t *vals, int max)
{
    int n = 0;
    if (!ev->desc)
        return 0;
    const uint8_t *p = ev->args, *end = ev->args + ev->args_len;
    for (int i = 0; i < ev->desc->nargs; i++) {
        if (!ev->desc->args[i].enc)
            continue;
        int64_t v = get_arg(&p, end, ev->desc->args[i].enc);
        if (n < max)
            vals[n] = v;
        n++;
    }
    return n;
}

uint64_t log_rank_trunc_event(const struct log_rank *r)
{
    if (r->nevents && (r->trunc_errno > 0 || r->died))
        return r->nevents - 1; /* the TRUNC record's own number */
    return r->nevents;
}

enum log_ending log_rank_ending(const struct log_rank *r, char *buf,
                                size_t len)
{
    if (r->trunc_errno && (r->hdr.flags & LOG_HDR_LIMITED)) {
        snprintf(buf, len, "truncated (size limit): recording stopped at "
                 "event %llu (the log reached drdb record's "
                 "--max-log-size)",
                 (unsigned long long)log_rank_trunc_event(r));
        return LOG_END_TRUNCATED;
    }
    if (r->trunc_errno) {
        snprintf(buf, len, "truncated (disk full): recording stopped at "
                 "event %llu (%s)",
                 (unsigned long long)log_rank_trunc_event(r),
                 r->trunc_errno > 0 ? strerror(r->trunc_errno)
                                    : "the disk was full");
        return LOG_END_TRUNCATED;
    }
    if (strncmp(r->stop_reason, "corrupt", 7) == 0) {
        snprintf(buf, len, "%s", r->stop_reason);
        return LOG_END_CORRUPT;
    }
    struct log_event ev;
    if (r->died && log_rank_event(r, r->nevents - 1, &ev, NULL, 0) == 0) {
        char code[80] = "", e[64];
        if (ev.ret)
            snprintf(code, sizeof code, " (%s)",
                     log_mpi_err_str(e, sizeof e, ev.ret));
        snprintf(buf, len, "died in %s at event %llu%s%s", ev.desc->name,
                 (unsigned long long)(r->nevents - 1),
                 ev.ret ? ": MPI ended the rank there" : "", code);
        return LOG_END_KILLED;
    }
    if (r->nevents &&
        log_rank_event(r, r->nevents - 1, &ev, NULL, 0) == 0 &&
        ev.desc && (ev.desc->roles & LOG_R_ABORT)) {
        snprintf(buf, len, "ended in %s(comm %#x, %d) at event %llu",
                 ev.desc->name,
                 (unsigned)(uint32_t)log_event_arg(&ev,
                                                   ev.desc->slot[LOG_S_COMM]),
                 (int)log_event_arg(&ev, ev.desc->slot[LOG_S_ERRORCODE]),
                 (unsigned long long)(r->nevents - 1));
        return LOG_END_ABORT;
    }
    if (r->stop_reason[0]) {
        snprintf(buf, len, "killed mid-run: %s", r->stop_reason);
        return LOG_END_KILLED;
    }
    snprintf(buf, len, "complete");
    return LOG_END_COMPLETE;
}
