/* The call in progress when a rank's log ends (log-reader.h,
 * log-format.h: LOG_CALL_FILE). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "log-reader.h"

/* LOG's slot in DIR: 0 with *S filled, or -1 (none, or another
 * process's). */
static int read_slot(const char *dir, const struct log_rank *log,
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
    memset(s, 0, sizeof *s);
    while ((got = read(fd, s, sizeof *s)) < 0 && errno == EINTR)
        ;
    close(fd);
    /* A slot of another process (a directory reused, a log copied) says
     * nothing about this log; an older run's is shorter (no signal). */
    if ((got != (ssize_t)sizeof *s && got != LOG_CALL_SLOT_V1) ||
        memcmp(s->magic, LOG_CALL_MAGIC, sizeof s->magic) ||
        s->pid != log->hdr.pid)
        return -1;
    return 0;
}

int log_call_in_progress(const char *dir, const struct log_rank *log,
                         struct log_call_slot *s)
{
    if (read_slot(dir, log, s) < 0)
        return -1;
    if (!s->fn)
        return 0;
    return log_func_by_id((int)s->fn) ? 1 : -1;
}

int log_rank_signal(const char *dir, const struct log_rank *log)
{
    struct log_call_slot s;
    if (read_slot(dir, log, &s) < 0 || s.signal <= 0 || s.signal >= 65)
        return 0;
    return s.signal;
}

int log_rank_exited(const char *dir, const struct log_rank *log)
{
    struct log_call_slot s;
    return read_slot(dir, log, &s) == 0 && s.exited == 1 && !s.signal &&
           !log->died;
}

enum log_ending log_rank_ending_in(const char *dir, const struct log_rank *r,
                                   char *buf, size_t len)
{
    enum log_ending e = log_rank_ending(r, buf, len);
    if (e == LOG_END_KILLED && log_rank_exited(dir, r)) {
        snprintf(buf, len, "exited without MPI_Finalize after event %llu "
                 "(the process ended with MPI initialized)",
                 (unsigned long long)(r->nevents ? r->nevents - 1 : 0));
        return e;
    }
    int sig = e == LOG_END_KILLED ? log_rank_signal(dir, r) : 0;
    if (sig) {
        char was[256];
        const char *abbrev = sigabbrev_np(sig);
        /* "died in MPI_X at event N", or "killed mid-run: ..." */
        int in = r->died;
        snprintf(was, sizeof was, "%s",
                 buf + strlen(in ? "died" : "killed mid-run"));
        snprintf(buf, len, "died of SIG%s (%s)%s%s", abbrev ? abbrev : "?",
                 strsignal(sig), in ? "" : " mid-run", was);
    }
    return e;
}
