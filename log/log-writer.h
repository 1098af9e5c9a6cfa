/*
 * log-writer.h - appends records to one rank's log (writer.c). Runs inside
 * the recorded process: libc only, no allocation after open, no reader.
 *
 * A record is built with log_writer_begin(), the put helpers of
 * log-format.h and log-codec.h, then log_writer_commit().
 */
#ifndef DRDB_LOG_WRITER_H
#define DRDB_LOG_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "log-format.h"
#include "util.h"

/* Payloads written apart in one record at most (more are copied). */
#define LOG_WRITER_SEGS 8

/* Appends records to one rank's log through a shared file mapping, so a
 * process killed at any point leaves every completed record on disk. */
struct log_writer {
    int fd;
    uint8_t *map;
    size_t map_size; /* bytes mapped == bytes allocated on disk */
    size_t off;      /* end of the last complete record */
    uint64_t last_enter;
    uint64_t events;
    int failed;          /* a write failed: no more records */
    unsigned grows;      /* reservations made (the first included) */
    int large;           /* the record being built has the large framing */
    uint64_t limit;      /* the file may not grow past it (0: no limit) */
    uint64_t *budget;    /* bytes all the run's logs may still take, shared
                            with the other ranks (NULL: none) */
    /* The record's payloads written with pwrite (log_writer_put_big):
     * where, how long, their checksum. */
    struct log_writer_seg {
        size_t off;
        size_t len;
        uint32_t crc;
    } seg[LOG_WRITER_SEGS];
    int nseg;
};

/* A record reserved at least this many bytes (LOG_REC_MAX_HEAD and its
 * MAX) gets the large framing (log-format.h: LOG_REC_LARGE), which any
 * size may use; the tests lower it to write small records that way. */
extern uint64_t log_writer_large_from;

/* Bytes a log takes on disk when it opens (header included): all a rank
 * reserves before its first call. */
#define LOG_WRITER_FIRST (64u << 10)

/* Creates NAME in directory DIRFD (util_file_create: new, never through a
 * link, mode 0600), reserves LOG_WRITER_FIRST bytes and writes the header
 * (version, size and checksum filled in). 0 or -errno; when the first
 * reservation fails, no file is left behind. */
int log_writer_openat(struct log_writer *w, int dirfd, const char *name,
                      const struct log_file_header *hdr);
/* The same with another VERSION in the header (a libc stream's). */
int log_writer_openat_version(struct log_writer *w, int dirfd,
                              const char *name,
                              const struct log_file_header *hdr,
                              uint32_t version);
/* Makes the file at least NEED bytes long (mapped, allocated on disk), as
 * the writer grows it: 0 or -errno (nothing changed). */
int log_writer_reserve(struct log_writer *w, size_t need);
/* The same, for the file PATH. */
int log_writer_open(struct log_writer *w, const char *path,
                    const struct log_file_header *hdr);
/* Limits the log to LIMIT bytes (0: none) and, with BUDGET (NULL: none),
 * a counter of the bytes the run's logs may still take in a mapping
 * shared by the ranks (log-format.h: LOG_BUDGET_FILE), which every growth
 * of the file takes from, atomically: what the file already has is taken
 * now. At a limit the log stops as on a full disk (a TRUNC record with
 * EFBIG). */
void log_writer_limit(struct log_writer *w, uint64_t limit,
                      uint64_t *budget);
/* Starts a record of at most MAX bytes: NULL when logging has stopped. */
struct log_rec *log_writer_begin(struct log_writer *w, struct log_rec *rec,
                                 size_t max, int fn, unsigned flags,
                                 uint64_t enter_ns, uint64_t dur_ns);
/* Puts N bytes from SRC at rec->p and moves it past them. Payloads of at
 * least log_writer_big_from bytes are written to the file with pwrite(2)
 * from SRC, checksummed block by block as they go: one copy into the page
 * cache, where a store through the mapping would first fault in and zero
 * each page. Smaller ones are copied through the mapping. */
void log_writer_put_big(struct log_writer *w, struct log_rec *rec,
                        const void *src, size_t n);
extern size_t log_writer_big_from;
/* Frames and checksums the record; it is on disk when this returns. */
void log_writer_commit(struct log_writer *w, struct log_rec *rec);
/* Sets header flags (LOG_HDR_*) in place. */
void log_writer_set_flags(struct log_writer *w, uint32_t flags);
/* Trims the file to its records, marks it complete, stores RECORDER_NS in
 * the header, closes it. */
int log_writer_close(struct log_writer *w, uint64_t recorder_ns);

#endif
