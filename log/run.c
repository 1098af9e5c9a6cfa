/*
 * The run description (log-reader.h: log_run_open, log_run_get): the
 * run directory's drdb.run, and which ranks' logs it holds.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log-reader.h"
#include "util.h"

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

int log_run_open(struct log_run *run, const char *dir, char *err,
                 size_t errlen)
{
    char path[4200], buf[32];

    memset(run, 0, sizeof *run);
    snprintf(run->dir, sizeof run->dir, "%s", dir);
    snprintf(path, sizeof path, "%s/%s", dir, LOG_RUN_FILE);
    FILE *f = fopen(path, "r");
    if (!f) {
        int e = errno;
        struct stat st;
        if (stat(dir, &st) < 0)
            log_errf(err, errlen, "no run directory '%s': %s", dir,
                    strerror(errno));
        else
            log_errf(err, errlen,
                    "'%s' is not a drdb run directory (no %s): record one "
                    "with 'drdb record'", dir, LOG_RUN_FILE);
        return -e;
    }
    size_t cap = 4096, len = 0;
    run->text = malloc(cap);
    for (size_t n; run->text && (n = fread(run->text + len, 1, cap - len - 1, f)) > 0;) {
        len += n;
        if (len + 1 == cap) {
            if (cap >= (16u << 20))
                break; /* a description is small: ignore absurd files */
            char *t = realloc(run->text, cap *= 2);
            if (!t) {
                free(run->text);
                run->text = NULL;
            } else {
                run->text = t;
            }
        }
    }
    fclose(f);
    if (!run->text) {
        log_errf(err, errlen, "out of memory reading '%s'", path);
        return -ENOMEM;
    }
    run->text[len] = '\0';
    long long ws;
    if (!log_run_get(run, "world_size", buf, sizeof buf)) {
        log_errf(err, errlen, "'%s' has no world_size line: it is damaged",
                path);
        log_run_release(run);
        return -EINVAL;
    }
    if (log_parse_count(buf, 1, LOG_MAX_WORLD, &ws) < 0) {
        log_errf(err, errlen, "'%s': world_size '%s' is not a number of ranks "
                "from 1 to %d: the file is damaged", path, buf,
                LOG_MAX_WORLD);
        log_run_release(run);
        return -EINVAL;
    }
    run->world_size = (int)ws;
    /* The logs the directory holds must be of ranks of this world. */
    size_t pcap = 0;
    DIR *d = opendir(dir);
    struct dirent *de;
    while (d && (de = readdir(d))) {
        const char *name = de->d_name, *dot;
        long long r;
        char num[24];
        if (strncmp(name, "rank-", 5) != 0 || !(dot = strchr(name + 5, '.')) ||
            strcmp(dot, ".log") != 0 || (size_t)(dot - name - 5) >= sizeof num)
            continue;
        memcpy(num, name + 5, (size_t)(dot - name - 5));
        num[dot - name - 5] = '\0';
        if (log_parse_count(num, 0, INT32_MAX, &r) < 0)
            continue;
        if (r >= run->world_size) {
            log_errf(err, errlen, "'%s' holds '%s', but its %s says the world "
                    "has %d ranks: the run directory is inconsistent", dir,
                    name, LOG_RUN_FILE, run->world_size);
            closedir(d);
            log_run_release(run);
            return -EINVAL;
        }
        if (util_grow(&run->present, &pcap, (size_t)run->nranks_present + 1,
                      sizeof *run->present) < 0) {
            log_errf(err, errlen, "out of memory listing '%s'", dir);
            closedir(d);
            log_run_release(run);
            return -ENOMEM;
        }
        run->present[run->nranks_present++] = (int)r;
    }
    if (d)
        closedir(d);
    qsort(run->present, (size_t)run->nranks_present, sizeof *run->present,
          cmp_int);
    return 0;
}


int log_parse_count(const char *text, long long lo, long long hi,
                    long long *v)
{
    long long x = 0;
    if (!*text || strlen(text) > 18)
        return -1;
    for (const char *p = text; *p; p++) {
        if (*p < '0' || *p > '9')
            return -1;
        x = x * 10 + (*p - '0');
    }
    if (x < lo || x > hi)
        return -1;
    *v = x;
    return 0;
}

void log_run_release(struct log_run *run)
{
    free(run->text);
    run->text = NULL;
    free(run->present);
    run->present = NULL;
    run->nranks_present = 0;
}

const char *log_run_get(const struct log_run *run, const char *key,
                        char *buf, size_t len)
{
    size_t klen = strlen(key);
    for (const char *line = run->text; line && *line;) {
        const char *nl = strchr(line, '\n');
        size_t llen = nl ? (size_t)(nl - line) : strlen(line);
        if (llen > klen && strncmp(line, key, klen) == 0 && line[klen] == ' ') {
            size_t vlen = llen - klen - 1;
            if (vlen >= len)
                vlen = len - 1;
            memcpy(buf, line + klen + 1, vlen);
            buf[vlen] = '\0';
            return buf;
        }
        line = nl ? nl + 1 : NULL;
    }
    return NULL;
}

enum log_recording log_run_recording(const char *dir)
{
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    int fd = dfd < 0 ? -1 : openat(dfd, LOG_RECORDING_FILE,
                                   O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    enum log_recording r = LOG_RECORDING_DONE;
    if (fd >= 0)
        r = flock(fd, LOCK_SH | LOCK_NB) < 0 && errno == EWOULDBLOCK
                ? LOG_RECORDING_RUNNING : LOG_RECORDING_INTERRUPTED;
    if (fd >= 0)
        close(fd);
    if (dfd >= 0)
        close(dfd);
    return r;
}
