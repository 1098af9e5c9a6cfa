/*
 * log-strip.h - a log's copy without its message data (strip.c), for a
 * front end that reads a log held on another host: the host sends the
 * copy (the metadata the event index needs), the front end builds its
 * index from it (log_rank_open_mem()) and fetches the bytes of a message
 * only when a command shows them (log_fetch_fn).
 */
#ifndef DRDB_LOG_STRIP_H
#define DRDB_LOG_STRIP_H

#include <stddef.h>
#include <stdint.h>

#include "log-reader.h"

/*
 * Opens PATH into R as log_rank_open() does and makes, in the same pass, a
 * copy of its readable records (the first R->nevents) with every DATA,
 * DATA_ZSTD and WINDIFF field of MIN_BYTES or more as stored replaced by a
 * LOG_F_ELIDED field that says where its bytes are in the file, and the
 * header flag LOG_HDR_STRIPPED set (MIN_BYTES 1 or 0: every such field,
 * no message byte left). Records with no such field are copied as they
 * are. *IMAGE (malloc'd) and *SIZE get the copy, *ELIDED (may be NULL)
 * the stored bytes left out, *KEPT (may be NULL) the stored bytes of the
 * data fields left in (under MIN_BYTES). Why R's reading stopped
 * (R->stop_reason) is not in the copy: send it alongside. 0 (release R
 * after), or -errno with a message in ERR (R released).
 */
int log_strip_open(struct log_rank *r, const char *path, uint64_t min_bytes,
                   uint8_t **image, size_t *size, uint64_t *elided,
                   uint64_t *kept, char *err, size_t errlen);

#endif
