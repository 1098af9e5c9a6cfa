/* The call in progress when a rank's log ends (log-reader.h,
 * log-format.h: LOG_CALL_FILE). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "log-reader.h"

int log_call_in_progress(const char *dir, const struct log_rank *log,
                         struct log_call_slot *s)
{
    char name[64], path[4200];
    snprintf(name, sizeof name, LOG_CALL_FILE, log->hdr.rank);
    if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path)
        return -1;
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t got;
    while ((got = read(fd, s, sizeof *s)) < 0 && errno == EINTR)
        ;
    close(fd);
    /* A slot of another process (a directory reused, a log copied) says
     * nothing about this log. */
    if (got != (ssize_t)sizeof *s ||
        memcmp(s->magic, LOG_CALL_MAGIC, sizeof s->magic) ||
        s->pid != log->hdr.pid)
        return -1;
    if (!s->fn)
        return 0;
    return log_func_by_id((int)s->fn) ? 1 : -1;
}
