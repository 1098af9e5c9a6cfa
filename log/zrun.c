/*
 * A run whose logs are compressed while it may be in use (log-compress.h):
 * the run's hold and the compressor's state file.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <signal.h>
#include <sys/file.h>
#include <unistd.h>

#include "log-compress.h"
#include "log-format.h"
#include "util.h"

int log_run_hold_open(const char *dir)
{
    int dfd = util_dir_open(AT_FDCWD, dir, 0);
    if (dfd < 0)
        return dfd;
    int fd = openat(dfd, LOG_HOLD_FILE, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0 && errno == ENOENT) {
        fd = util_file_create(dfd, LOG_HOLD_FILE, O_RDONLY);
        if (fd == -EEXIST) /* made meanwhile by another */
            fd = openat(dfd, LOG_HOLD_FILE,
                        O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
        else if (fd < 0)
            errno = -fd;
    }
    if (fd < 0)
        fd = -errno;
    close(dfd);
    return fd;
}

int log_run_hold(const char *dir)
{
    int fd = log_run_hold_open(dir);
    if (fd < 0)
        return fd;
    /* The compressor holds it exclusively only for a rename. */
    while (flock(fd, LOCK_SH) < 0)
        if (errno != EINTR) {
            int e = errno;
            close(fd);
            return -e;
        }
    return fd;
}

int log_zstatus_write(const char *dir, const struct log_zstatus *s)
{
    char text[1024], tmp[PATH_MAX];
    int len = snprintf(text, sizeof text,
                       "state=%s\npid=%ld\ntotal=%llu\nin=%llu\nout=%llu\n"
                       "seconds=%.3f\nerror=%s\nskipped=%llu\n"
                       "skipped_bytes=%llu\n", s->state, s->pid,
                       (unsigned long long)s->total,
                       (unsigned long long)s->in,
                       (unsigned long long)s->out, s->seconds, s->error,
                       (unsigned long long)s->skipped,
                       (unsigned long long)s->skipped_bytes);
    if (len < 0 || len >= (int)sizeof text)
        return -EINVAL;
    int dfd = util_dir_open(AT_FDCWD, dir, 0);
    if (dfd < 0)
        return dfd;
    int fd = util_file_create_tmp(dfd, LOG_ZSTATUS_FILE, tmp, sizeof tmp,
                                  O_WRONLY);
    int rc = fd < 0 ? fd : util_write_all(fd, text, (size_t)len);
    if (fd >= 0) {
        close(fd);
        if (rc >= 0)
            rc = util_file_replace(dfd, tmp, LOG_ZSTATUS_FILE);
        if (rc < 0)
            unlinkat(dfd, tmp, 0);
    }
    close(dfd);
    return rc < 0 ? rc : 0;
}

/* KEY's value in TEXT ("KEY=VALUE\n" lines) into BUF (LEN): 0 or -1. */
static int get(const char *text, const char *key, char *buf, size_t len)
{
    size_t kl = strlen(key);
    for (const char *p = text; *p;) {
        size_t ll = strcspn(p, "\n");
        if (ll > kl && !strncmp(p, key, kl) && p[kl] == '=') {
            if (ll - kl - 1 >= len)
                return -1;
            memcpy(buf, p + kl + 1, ll - kl - 1);
            buf[ll - kl - 1] = 0;
            return 0;
        }
        p += ll + (p[ll] != 0);
    }
    return -1;
}

/* TEXT's KEY as a whole number into *V: 0 or -1. */
static int get_u64(const char *text, const char *key, uint64_t *v)
{
    char buf[32], *end;
    if (get(text, key, buf, sizeof buf) < 0 || !buf[0] ||
        buf[0] == '-')
        return -1;
    errno = 0;
    unsigned long long x = strtoull(buf, &end, 10);
    if (*end || errno)
        return -1;
    *v = x;
    return 0;
}

int log_zstatus_read(const char *dir, struct log_zstatus *s)
{
    char path[PATH_MAX], text[1024], sec[32];
    if (snprintf(path, sizeof path, "%s/%s", dir, LOG_ZSTATUS_FILE) >=
        (int)sizeof path)
        return -ENAMETOOLONG;
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    ssize_t n = read(fd, text, sizeof text - 1);
    close(fd);
    if (n < 0)
        return -EIO;
    text[n] = 0;
    memset(s, 0, sizeof *s);
    uint64_t pid;
    char *end;
    if (get(text, "state", s->state, sizeof s->state) < 0 ||
        get_u64(text, "pid", &pid) < 0 || pid > INT_MAX ||
        get_u64(text, "total", &s->total) < 0 ||
        get_u64(text, "in", &s->in) < 0 || get_u64(text, "out", &s->out) < 0 ||
        get(text, "seconds", sec, sizeof sec) < 0 ||
        get(text, "error", s->error, sizeof s->error) < 0)
        return -EINVAL;
    /* (a status file of an older drdb has no skipped logs) */
    if (get_u64(text, "skipped", &s->skipped) < 0 ||
        get_u64(text, "skipped_bytes", &s->skipped_bytes) < 0)
        s->skipped = s->skipped_bytes = 0;
    if (s->skipped_bytes > s->in || s->skipped_bytes > s->out)
        return -EINVAL;
    s->pid = (long)pid;
    s->seconds = strtod(sec, &end);
    if (end == sec || *end)
        return -EINVAL;
    return 0;
}

int log_run_sweep(const char *dir)
{
    int dfd = util_dir_open(AT_FDCWD, dir, 0);
    if (dfd < 0)
        return dfd;
    int dup_fd = dup(dfd);
    DIR *d = dup_fd < 0 ? NULL : fdopendir(dup_fd);
    if (!d) {
        if (dup_fd >= 0)
            close(dup_fd);
        close(dfd);
        return -ENOMEM;
    }
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        int rank, used = 0;
        long pid, k;
        /* util_file_create_tmp's ".NAME.tmp-PID-N" of a rank's log */
        if (sscanf(e->d_name, ".rank-%d.log.tmp-%ld-%ld%n", &rank, &pid,
                   &k, &used) != 3 || e->d_name[used] || pid <= 0)
            continue;
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue;
        if (unlinkat(dfd, e->d_name, 0) == 0)
            n++;
    }
    closedir(d);
    close(dfd);
    return n;
}
