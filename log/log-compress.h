/*
 * log-compress.h - compression of finished logs (compress.c), and of a
 * whole run in the background while it is in use (zrun.c): run by `drdb
 * record` after the recorded process has exited or by `drdb log
 * compress`, never inside a recorded process.
 */
#ifndef DRDB_LOG_COMPRESS_H
#define DRDB_LOG_COMPRESS_H

#include <stddef.h>
#include <stdint.h>

/* How log_compress_file() replaces the log. */
struct log_zopts {
    /* A descriptor of the run's hold (log_run_hold_open(), one per thread:
     * flock locks belong to an open file description), or -1: the log is
     * renamed only while no session holds the run (an exclusive lock,
     * waited for, then released). */
    int hold_fd;
    /* Set to stop: the compression ends early, the log as it was. */
    volatile int *stop;
    /* Called while waiting for the hold (NULL: not told). */
    void (*waiting)(void *ud);
    void *ud;
};

/*
 * Compresses the message data of a finished log in place: every DATA field
 * of at least 64 bytes that zstd makes smaller becomes a DATA_ZSTD field.
 * Runs after the recorded process has exited (drdb record), never on its
 * critical path. Writes a new temporary file beside PATH (util.h's
 * util_file_create_tmp: ".NAME.tmp-PID-N", never a name planted there),
 * then renames it over PATH, so an interrupted compression leaves the
 * original. A log whose reading stopped
 * at a corrupt record is left alone, and so is a log whose message data,
 * sampled first, would shrink by less than a tenth (why in ERR). *BEFORE
 * and *AFTER get the file sizes. O may be NULL. 0, 1 (left alone: already
 * compressed or corrupt), 2 (left alone: does not compress), -EINTR
 * (stopped), or -errno with a message in ERR.
 */
int log_compress_file(const char *path, const struct log_zopts *o,
                      uint64_t *before, uint64_t *after, char *err,
                      size_t errlen);

/* ---- a run being compressed (zrun.c) ------------------------------------ */

/* Opens DIR's hold (LOG_HOLD_FILE), creating it when it is missing and DIR
 * is writable: a descriptor, or -errno (a read-only run needs no hold: no
 * compressor can replace its logs). */
int log_run_hold_open(const char *dir);
/* Holds DIR for a session that may reopen its logs by path: a descriptor
 * locked shared (close it to let go), or -errno when there is nothing to
 * hold. Never waits longer than a log's replacement. */
int log_run_hold(const char *dir);

/* Removes from DIR the temporary files of compressions whose process is
 * gone (killed before it could remove them): how many, or -errno. */
int log_run_sweep(const char *dir);

/* The compressor's state (LOG_ZSTATUS_FILE). */
struct log_zstatus {
    char state[16];     /* "running", "waiting" (for sessions holding the
                         * run), "done", "failed" */
    long pid;           /* the compressor */
    uint64_t total;     /* bytes of logs to compress */
    uint64_t in, out;   /* bytes compressed so far, and what they became */
    double seconds;     /* since it started */
    char error[256];    /* "failed": why */
    uint64_t skipped;   /* logs left as they were: their data does not
                         * compress (counted in IN and OUT alike) */
    uint64_t skipped_bytes;
};
/* Writes S as DIR's state (a new file renamed over the old). 0 or -errno. */
int log_zstatus_write(const char *dir, const struct log_zstatus *s);
/* Reads DIR's state into S: 0, -ENOENT when there is none, -EINVAL when
 * the file is malformed. */
int log_zstatus_read(const char *dir, struct log_zstatus *s);

#endif
