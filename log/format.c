/* What log-format.h defines beyond inline code: the file names of a run
 * directory. */
#include <stdio.h>

#include "log-format.h"

void log_path(char *buf, size_t len, const char *dir, int rank)
{
    snprintf(buf, len, "%s/rank-%d.log", dir, rank);
}
