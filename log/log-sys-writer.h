/*
 * log-sys-writer.h - appends records to one thread's libc side stream
 * (log-sys.h has the layout; sys-writer.c). Runs inside the recorded
 * process: libc only, no lock (one writer per thread), no allocation.
 *
 * A record is committed by its first byte (its length), stored last, so
 * a process killed at any point leaves every completed record on disk and
 * nothing of the one it was writing. Records carry no checksum of their
 * own: every LOG_SYS_BLOCK bytes, and at the stream's end, a SEAL record
 * holds the CRC-32C of the records since the previous one. Per call that
 * is a few stores (log_sys_fits, log_sys_done); the CRC runs once a block.
 */
#ifndef DRDB_LOG_SYS_WRITER_H
#define DRDB_LOG_SYS_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "log-sys.h"
#include "log-writer.h"

struct log_sys_writer {
    struct log_writer w; /* the file; w.off: the end of the last record */
    size_t limit;        /* the short path's records may end here: the
                          * block's end, or the room mapped (minus room
                          * for a TRUNC and SEALs); 0: none may */
    size_t block;        /* the first record not sealed yet */
    int ended;           /* log_sys_writer_end ran: each record sealed */
    int64_t clk[LOG_SYS_CLOCKS][2]; /* each clock's last time (s, ns) */
};

/* Creates NAME in DIRFD (log_writer_openat: new, mode 0600) with the
 * header HDR (magic LOG_SYS_MAGIC; version LOG_SYS_VERSION is set). 0 or
 * -errno. */
int log_sys_writer_openat(struct log_sys_writer *s, int dirfd,
                          const char *name, const struct log_file_header *hdr);
/* Appends a record of any size (the slow path: seals a full block, grows
 * the file; on a full disk writes a TRUNC record, warns once and stops). */
void log_sys_append(struct log_sys_writer *s, int kind, int64_t ret, int err,
                    int64_t arg, const void *data, size_t len);
/* Seals the records written since the last SEAL (if any). */
void log_sys_seal(struct log_sys_writer *s);
/* The stream's end (the thread's or the process's): seals, sets the
 * header's complete flag; records appended later are sealed one by one,
 * so a complete stream always ends in a SEAL. */
void log_sys_writer_end(struct log_sys_writer *s);

/*
 * The inline short path: when log_sys_fits() says a record of at most MAX
 * bytes fits (else the slow path must run: the file must grow, or logging
 * stopped), log_sys_here() is where to write it (its length byte first,
 * its kind last); log_sys_done() commits the record at P, ending at END
 * (after its kind). MAX must be at most LOG_SYS_SHORT_MAX.
 */
#define LOG_SYS_SHORT_MAX 255
static inline int log_sys_fits(const struct log_sys_writer *s, size_t max)
{
    return s->w.off + max <= s->limit;
}
static inline uint8_t *log_sys_here(const struct log_sys_writer *s)
{
    return s->w.map + s->w.off;
}
static inline void log_sys_done(struct log_sys_writer *s, uint8_t *p,
                                const uint8_t *end)
{
    size_t n = (size_t)(end - p);
    /* The length last: until it is stored the record does not exist (one
     * thread: program order is all a SIGKILL can observe). */
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    p[0] = (uint8_t)(n - 1);
    s->w.off += n;
}
/* A varint (log-format.h's encoding) at P: where it ends. */
static inline uint8_t *log_sys_varint(uint8_t *p, uint64_t v)
{
    if (__builtin_expect(v < 0x80, 1)) {
        *p = (uint8_t)v;
        return p + 1;
    }
    if (v < 0x4000) {
        p[0] = (uint8_t)(v | 0x80);
        p[1] = (uint8_t)(v >> 7);
        return p + 2;
    }
    while (v >= 0x80) {
        *p++ = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    *p++ = (uint8_t)v;
    return p;
}
/* The body of a call's record after its length byte, when the call did
 * not fail: ret and arg (zigzag varints), LEN bytes of DATA, the kind. At
 * most 21 + LEN bytes. */
static inline uint8_t *log_sys_body(uint8_t *p, int kind, int64_t ret,
                                    int64_t arg, const void *data,
                                    size_t len)
{
    p = log_sys_varint(p, ((uint64_t)ret << 1) ^ (uint64_t)(ret >> 63));
    p = log_sys_varint(p, ((uint64_t)arg << 1) ^ (uint64_t)(arg >> 63));
    if (len == 16) {
        /* A timeval or two words, as the call just stored them: two
         * 8-byte loads (a 16-byte one waits for both stores to retire). */
        uint64_t a, b;
        __builtin_memcpy(&a, data, 8);
        __builtin_memcpy(&b, (const uint8_t *)data + 8, 8);
        __asm__("" : "+r"(a), "+r"(b));
        __builtin_memcpy(p, &a, 8);
        __builtin_memcpy(p + 8, &b, 8);
    } else if (len) {
        __builtin_memcpy(p, data, len);
    }
    p += len;
    *p++ = (uint8_t)kind;
    return p;
}

/* A successful clock_gettime's record after its length byte: ret 0, the
 * clock ID (log_sys_clock_logged), the time as the change from the
 * clock's previous record (log-sys.h), the kind. At most 24 bytes. */
static inline uint8_t *log_sys_clock_body(struct log_sys_writer *s,
                                          uint8_t *p, int id, int64_t sec,
                                          int64_t nsec)
{
    /* Unsigned: wraps, never overflows (the reader adds back alike). */
    uint64_t ds = (uint64_t)sec - (uint64_t)s->clk[id][0],
             dn = (uint64_t)nsec - (uint64_t)s->clk[id][1];
    s->clk[id][0] = sec;
    s->clk[id][1] = nsec;
    *p++ = 0;
    p = log_sys_varint(p, (uint64_t)id << 1);
    p = log_sys_varint(p, (ds << 1) ^ (uint64_t)((int64_t)ds >> 63));
    p = log_sys_varint(p, (dn << 1) ^ (uint64_t)((int64_t)dn >> 63));
    *p++ = LOG_SYS_CLOCK_GETTIME;
    return p;
}

#endif
