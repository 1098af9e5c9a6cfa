/* What log-format.h defines beyond inline code: the file names of a run
 * directory, the header's checksum. */
#include <stdio.h>
#include <string.h>

#include "log-format.h"
#include "util.h"

void log_path(char *buf, size_t len, const char *dir, int rank)
{
    snprintf(buf, len, "%s/rank-%d.log", dir, rank);
}

void log_name(char *buf, size_t len, int rank)
{
    snprintf(buf, len, "rank-%d.log", rank);
}

uint32_t log_header_crc(const struct log_file_header *h)
{
    struct log_file_header c;
    memcpy(&c, h, sizeof c);
    c.hdr_crc = 0;
    c.flags = 0;
    c.recorder_ns = 0;
    return util_crc32c(0, &c, sizeof c);
}
