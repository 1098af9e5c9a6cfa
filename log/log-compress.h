/*
 * log-compress.h - compression of a finished log (compress.c): run by
 * `drdb record` after the recorded process has exited, never inside it.
 */
#ifndef DRDB_LOG_COMPRESS_H
#define DRDB_LOG_COMPRESS_H

#include <stddef.h>
#include <stdint.h>

/*
 * Compresses the message data of a finished log in place: every DATA field
 * of at least 64 bytes that zstd makes smaller becomes a DATA_ZSTD field.
 * Runs after the recorded process has exited (drdb record), never on its
 * critical path. Writes a new temporary file beside PATH (util.h's
 * util_file_create_tmp: ".NAME.tmp-PID-N", never a name planted there),
 * then renames it over PATH, so an interrupted compression leaves the
 * original. A log whose reading stopped
 * at a corrupt record is left alone. *BEFORE and *AFTER get the file sizes.
 * 0, 1 (left alone), or -errno with a message in ERR.
 */
int log_compress_file(const char *path, uint64_t *before, uint64_t *after,
                      char *err, size_t errlen);

#endif
