/*
 * drdb record's guards on log volume (fe.h; docs/recording.md, "Log
 * volume"): --max-log-size for each rank's log and for the run's, the
 * log rate watched while the run goes on with a warning when the disk
 * will not hold it, and the rate in the summary.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "args.h"
#include "drdb-record.h"
#include "fe.h"
#include "log-format.h"
#include "util.h"

/* The smallest limit: a log takes 64 KiB when it opens. */
#define MIN_LIMIT (1u << 20)

int fe_rec_limit_opt(struct fe_rec_limits *l, const char *arg)
{
    int total = strncmp(arg, "total=", 6) == 0;
    uint64_t v;
    if (fe_parse_size(total ? arg + 6 : arg, &v) < 0 || v < MIN_LIMIT) {
        fe_error("--max-log-size %s: give a size of at least 1M, like 500M "
                 "or 2G for each rank's log, or total=SIZE for the run's "
                 "logs together", arg);
        return -1;
    }
    if (total)
        l->total = v;
    else
        l->per_rank = v;
    return 0;
}

int fe_rec_limits_apply(const struct fe_rec_limits *l, const char *dir)
{
    char num[32];
    unsetenv(DRDB_ENV_MAX_LOG_SIZE);
    unsetenv(DRDB_ENV_LOG_BUDGET);
    if (l->per_rank) {
        snprintf(num, sizeof num, "%" PRIu64, l->per_rank);
        setenv(DRDB_ENV_MAX_LOG_SIZE, num, 1);
    }
    if (!l->total)
        return 0;
    int dfd = util_dir_open(AT_FDCWD, dir, 1);
    int fd = dfd < 0 ? dfd : util_file_create(dfd, LOG_BUDGET_FILE, O_RDWR);
    int rc = fd < 0 ? fd : util_write_all(fd, &l->total, sizeof l->total);
    if (fd >= 0)
        close(fd);
    if (dfd >= 0)
        close(dfd);
    if (rc < 0)
        return fe_error("cannot make the run's log budget in %s: %s", dir,
                        strerror(-rc)), -1;
    setenv(DRDB_ENV_LOG_BUDGET, "1", 1);
    return 0;
}

void fe_rec_limits_done(const char *dir)
{
    int dfd = util_dir_open(AT_FDCWD, dir, 1);
    if (dfd >= 0) {
        unlinkat(dfd, LOG_BUDGET_FILE, 0);
        close(dfd);
    }
}

/* The bytes the ranks' logs of DIR take on its disk, and how many. */
static uint64_t log_bytes(const char *dir, int *nlogs)
{
    uint64_t sum = 0;
    *nlogs = 0;
    DIR *d = opendir(dir);
    struct dirent *e;
    int dfd = d ? dirfd(d) : -1;
    while (d && (e = readdir(d))) {
        struct stat st;
        size_t len = strlen(e->d_name);
        if (strncmp(e->d_name, "rank-", 5) != 0 || len < 9 ||
            strcmp(e->d_name + len - 4, ".log") != 0 ||
            fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
            !S_ISREG(st.st_mode))
            continue;
        sum += (uint64_t)st.st_blocks * 512;
        (*nlogs)++;
    }
    if (d)
        closedir(d);
    return sum;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* "1.5 GB" */
static const char *human(double b, char *buf, size_t len)
{
    const char *u[] = {"bytes", "kB", "MB", "GB", "TB"};
    int i = 0;
    while (b >= 1000 && i < 4)
        b /= 1000, i++;
    snprintf(buf, len, i ? "%.1f %s" : "%.0f %s", b, u[i]);
    return buf;
}

/* The run's logs may fill the disk before the run ends: warned once, when
 * at the rate of the last second the disk holding DIR is full within
 * FE_REC_WARN_S, and within 10 times the run's ELAPSED seconds (a run is
 * likely to go on about as long as it went: a short burst on a big disk
 * is not worth a warning), and no --max-log-size stops the logs first. */
#define FE_REC_WARN_S 600.0
static void check_rate(const char *dir, const struct fe_rec_limits *l,
                       double elapsed, double dt, uint64_t grew,
                       uint64_t now, int nlogs, int *warned)
{
    struct statvfs vfs;
    if (*warned || dt <= 0 || grew == 0 || statvfs(dir, &vfs) < 0)
        return;
    double rate = (double)grew / dt;
    double free_b = (double)vfs.f_bavail * (double)vfs.f_frsize;
    double room = free_b;
    if (l->total && (double)l->total - (double)now < room)
        room = (double)l->total - (double)now;
    if (l->per_rank && nlogs &&
        (double)l->per_rank * nlogs - (double)now < room)
        room = (double)l->per_rank * nlogs - (double)now;
    if (room < free_b || free_b / rate > FE_REC_WARN_S ||
        free_b / rate > 10 * elapsed)
        return; /* a limit stops the logs first, or there is room */
    char r[32], f[32];
    fprintf(stderr, "drdb: warning: the logs grow by %s/s; the disk holding "
            "%s has %s free: at this rate it is full in about %.0f s, and "
            "the logs stop there. Stop the run (Ctrl-C), or record again "
            "with --max-log-size SIZE (docs/recording.md, \"Log "
            "volume\")\n", human(rate, r, sizeof r), dir,
            human(free_b, f, sizeof f), free_b / rate);
    *warned = 1;
}

int fe_rec_wait(pid_t child, const char *dir, const struct fe_rec_limits *l,
                int *status, struct fe_rec_volume *vol)
{
    sigset_t chld, old;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    sigprocmask(SIG_BLOCK, &chld, &old);
    double t0 = now_s(), last_t = t0;
    int nlogs, warned = 0;
    uint64_t last = log_bytes(dir, &nlogs);
    pid_t got;
    vol->stopped = 0;
    for (;;) {
        got = waitpid(child, status, WNOHANG);
        if (got == child || (got < 0 && errno != EINTR))
            break;
        struct timespec one = {1, 0};
        if (l->timeout > 0 && l->timeout < 1)
            one = (struct timespec){0, (long)(l->timeout * 1e9)};
        if (sigtimedwait(&chld, NULL, &one) == SIGCHLD)
            continue;
        double t = now_s();
        if (l->timeout > 0 && t - t0 >= l->timeout && vol->stopped == 0) {
            fprintf(stderr, "drdb: the run is still going after --timeout "
                    "%g s: stopping it (SIGTERM to the launcher)\n",
                    l->timeout);
            kill(child, SIGTERM);
            vol->stopped = 1;
        } else if (vol->stopped == 1 &&
                   t - t0 >= l->timeout + FE_REC_KILL_AFTER) {
            fprintf(stderr, "drdb: the launcher did not stop in %g s: "
                    "SIGKILL\n", FE_REC_KILL_AFTER);
            kill(child, SIGKILL);
            vol->stopped = 2;
        }
        if (t - last_t < 1.0)
            continue;
        uint64_t now = log_bytes(dir, &nlogs);
        /* the first seconds are the ranks starting: a rate from 2 s on */
        if (t - t0 >= 2.0 && now > last)
            check_rate(dir, l, t - t0, t - last_t, now - last, now, nlogs,
                       &warned);
        last = now;
        last_t = t;
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
    vol->seconds = now_s() - t0;
    vol->bytes = log_bytes(dir, &vol->nlogs);
    return got == child ? 0 : -1;
}

void fe_rec_volume_print(const struct fe_rec_volume *v, FILE *out)
{
    char b[32], r[32];
    if (!v->nlogs || v->seconds <= 0)
        return;
    fprintf(out, "drdb: logs: %s for %d rank%s in %.1f s of run: %s/s per "
            "rank\n", human((double)v->bytes, b, sizeof b), v->nlogs,
            v->nlogs == 1 ? "" : "s", v->seconds,
            human((double)v->bytes / v->nlogs / v->seconds, r, sizeof r));
}
