/* What log-format.h defines beyond inline code: the file names of a run
 * directory, drdb.run's argv, the header's checksum. */
#include <errno.h>
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

int log_run_args(int argc, char *const *argv, char *buf, size_t len)
{
    size_t at = 0;
    for (int i = 0; i < argc && argv[i]; i++) {
        size_t n = strlen(argv[i]);
        if (at + n + 1 > len)
            return -E2BIG;
        if (i)
            buf[at - 1] = LOG_RUN_ARG_SEP;
        memcpy(buf + at, argv[i], n + 1);
        at += n + 1;
    }
    if (at == 0 && len)
        buf[0] = '\0';
    return 0;
}

/* The argument after ARGS's I-th separator (its length in *LEN), or
 * NULL. */
static const char *arg_at(const char *args, int i, size_t *len)
{
    static const char ends[] = {LOG_RUN_ARG_SEP, '\0'};
    for (; i > 0 && args; i--)
        if ((args = strchr(args, LOG_RUN_ARG_SEP)))
            args++;
    if (args)
        *len = strcspn(args, ends);
    return args;
}

uint32_t log_args_crc(const char *args)
{
    const char *rest = strchr(args, LOG_RUN_ARG_SEP);
    rest = rest ? rest : "";
    return util_crc32c(0, rest, strlen(rest)) + 1;
}

int log_run_args_differ(const char *recorded, const char *now, char *what,
                        size_t len)
{
    for (int i = 1;; i++) {
        size_t nr = 0, nn = 0;
        const char *r = arg_at(recorded, i, &nr), *n = arg_at(now, i, &nn);
        if (!r && !n)
            return 0;
        if (r && n && nr == nn && !memcmp(r, n, nr))
            continue;
        if (r && n)
            snprintf(what, len, "argument %d is '%.*s', recorded '%.*s'", i,
                     (int)nn, n, (int)nr, r);
        else if (r)
            snprintf(what, len, "argument %d ('%.*s' recorded) is missing",
                     i, (int)nr, r);
        else
            snprintf(what, len, "argument %d ('%.*s') was not recorded", i,
                     (int)nn, n);
        return 1;
    }
}

void log_thread_name(char *buf, size_t len, uint64_t thread)
{
    if (thread == UINT64_MAX) {
        snprintf(buf, len, "unnumbered");
        return;
    }
    unsigned part[4];
    int n = 0;
    do {
        part[n++] = (unsigned)(thread & 0xffff);
        thread >>= 16;
    } while (thread && n < 4);
    size_t used = 0;
    buf[0] = '\0';
    while (n-- > 0 && used < len)
        used += (size_t)snprintf(buf + used, len - used, "%s%u",
                                 used ? "." : "", part[n]);
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
