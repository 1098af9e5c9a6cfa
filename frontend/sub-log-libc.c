/* drdb log's view of the libc streams (log/log-sys.h): how many results
 * each rank recorded (info), and one line per recorded call (libc). */
#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "fe.h"
#include "log-reader.h"
#include "log-sys.h"

/* Records of the stream NAME in DIR into *N: 0, or -errno with ERR. */
static int count(const char *dir, const char *name, uint64_t *n, char *err,
                 size_t len)
{
    char path[PATH_MAX];
    struct log_sys s;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int rc = log_sys_open(&s, path, err, len);
    if (rc < 0)
        return rc;
    *n = s.nrecs;
    log_sys_release(&s);
    return 0;
}

/* Whether NAME is a stream of rank R (log_sys_name of one of its
 * threads). */
static int is_stream(const char *name, int r)
{
    char main_name[64];
    uint64_t t;
    uint32_t nth;
    log_sys_name(main_name, sizeof main_name, r, 0, 0);
    size_t n = strlen(main_name);
    if (strncmp(name, main_name, n) != 0)
        return 0;
    return name[n] == '\0' ||
           (name[n] == '.' && log_sys_thread_parse(name + n + 1, &t, &nth) == 0);
}

void fe_log_libc_summary(const char *dir, const int *present, int npresent,
                         FILE *out)
{
    uint64_t calls = 0;
    uint32_t threads = 0;
    int ranks = 0;
    char err[512];
    DIR *d = opendir(dir);
    for (int i = 0; d && i < npresent; i++) {
        uint32_t t = 0;
        struct dirent *e;
        rewinddir(d);
        while ((e = readdir(d)) != NULL) {
            uint64_t n = 0;
            if (!is_stream(e->d_name, present[i]))
                continue;
            if (count(dir, e->d_name, &n, err, sizeof err) < 0)
                fprintf(out, "libc results: %s\n", err);
            calls += n;
            t++;
        }
        if (t > 0)
            ranks++;
        if (t > threads)
            threads = t;
    }
    if (d)
        closedir(d);
    if (!ranks)
        fprintf(out, "libc results: none (recorded with --no-libc, or by "
                "an older drdb): the replay runs those calls live\n");
    else
        fprintf(out, "libc results: %" PRIu64 " calls in %d rank%s, %u "
                "thread%s at most (rank-R.sys)\n", calls, ranks,
                ranks > 1 ? "s" : "", threads, threads > 1 ? "s" : "");
}

/* Prints the first bytes of a result in hex, or as text when printable. */
static void show_bytes(const uint8_t *p, size_t n)
{
    int text = n > 0;
    for (size_t i = 0; i < n; i++)
        if ((p[i] < 0x20 || p[i] > 0x7e) && !(p[i] == 0 && i + 1 == n))
            text = 0;
    if (text) {
        printf("'%.*s'", (int)(n > 40 ? 40 : n), (const char *)p);
        return;
    }
    for (size_t i = 0; i < n && i < 16; i++)
        printf("%02x", p[i]);
    if (n > 16)
        printf("... (%zu bytes)", n);
}

struct libc_opts {
    long long rank;
    const char *thread;
};

#define OFF(f) offsetof(struct libc_opts, f)
static const struct fe_opt libc_opts[] = {
    FE_INT('r', "rank", "R", OFF(rank), 0, INT_MAX, NULL, "the rank "
     "(required)"),
    FE_STR('t', "thread", "T", OFF(thread), "thread T as drdb log shows it: "
     "0 the main thread (default), 1, 1.2; u1 the first unnumbered one"),
    FE_END,
};
#undef OFF

static int cmd_libc(int argc, char **argv)
{
    struct libc_opts o = {.rank = -1, .thread = "0"};
    struct fe_pos pos;
    uint64_t tnum = 0;
    uint32_t tnth = 0;
    if (fe_subcmd_parse(&fe_sub_log_libc, argc, argv, &o, 1, &pos) < 0)
        return 2;
    if (log_sys_thread_parse(o.thread, &tnum, &tnth) < 0)
        return fe_error("--thread takes a thread number as drdb log shows it "
                        "('0' the main thread, '1', '1.2'; 'u1' the first "
                        "unnumbered one), not '%s'", o.thread);
    if (pos.n != 1 || pos.rest < argc || o.rank < 0)
        return fe_subcmd_misuse(&fe_sub_log_libc);
    long long rank = o.rank;
    const char *thread = o.thread;
    char path[PATH_MAX], err[512];
    struct log_sys s;
    log_sys_path(path, sizeof path, pos.v[0], (int)rank, tnum, tnth);
    int rc = log_sys_open(&s, path, err, sizeof err);
    if (rc == -ENOENT)
        return fe_error("rank %lld thread %s has no libc results ('%s'): "
                        "the run was recorded with --no-libc, or the thread "
                        "made no such call", rank, thread, path);
    if (rc < 0)
        return fe_error("%s", err);
    printf("%8s  %-20s %20s %12s  %s\n", "call", "function", "result",
           "argument", "bytes");
    struct log_sys_cursor cur;
    struct log_sys_rec r;
    log_sys_start(&cur);
    for (uint64_t i = 0; log_sys_next(&s, &cur, &r); i++) {
        printf("%8" PRIu64 "  %-20s %20" PRId64 " %12" PRId64 "  ", i + 1,
               log_sys_kind_name(r.kind), r.ret, r.arg);
        if (r.flags & LOG_SYS_ERRNO)
            printf("errno %d (%s) ", r.err, strerror(r.err));
        show_bytes(r.data, r.len);
        putchar('\n');
    }
    if (s.stop_reason[0])
        printf("-- rank %lld thread %s: %s\n", rank, thread, s.stop_reason);
    int bad = strncmp(s.stop_reason, "corrupt", 7) == 0;
    log_sys_release(&s);
    return bad ? fe_error("the libc stream is damaged") : 0;
}

const struct fe_subcmd fe_sub_log_libc = {
    .name = "libc",
    .args = "RUNDIR --rank R",
    .summary = "the results of rank R's calls of time, clocks, getpid, "
               "random bytes, host names... in order, as the replay returns "
               "them",
    .opts = libc_opts,
    .parent = &fe_sub_log,
    .run = cmd_libc,
};
