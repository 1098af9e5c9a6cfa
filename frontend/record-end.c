/*
 * What drdb record does once the launcher has ended (fe.h): the message
 * data compressed, and the verdict on each rank's log.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fe.h"
#include "log-compress.h"
#include "log-reader.h"
#include "rankset.h"

/* The compression of a run's logs, spread over threads: each takes the
 * next rank, the main thread shows progress. */
struct zjob {
    const char *dir;
    int n;                       /* world size */
    int next;                    /* the next rank to take (atomic) */
    uint64_t in, out;            /* bytes (atomic) */
    int quit;                    /* workers that finished (atomic) */
};

static void *zworker(void *arg)
{
    struct zjob *j = arg;
    for (;;) {
        int r = __atomic_fetch_add(&j->next, 1, __ATOMIC_RELAXED);
        if (r >= j->n) {
            __atomic_add_fetch(&j->quit, 1, __ATOMIC_RELEASE);
            return NULL;
        }
        char path[PATH_MAX], err[512];
        uint64_t b, a;
        log_path(path, sizeof path, j->dir, r);
        if (access(path, F_OK) != 0)
            continue;
        if (log_compress_file(path, &b, &a, err, sizeof err) < 0)
            fprintf(stderr, "drdb: rank %d's log stays uncompressed: %s\n", r,
                    err);
        __atomic_add_fetch(&j->in, b, __ATOMIC_RELAXED);
        __atomic_add_fetch(&j->out, a, __ATOMIC_RELAXED);
    }
}

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void fe_rec_compress(const char *dir)
{
    struct log_run run;
    char err[512];
    if (log_run_open(&run, dir, err, sizeof err) < 0)
        return;
    struct zjob j = {dir, run.world_size, 0, 0, 0, 0};
    uint64_t total = 0;
    for (int i = 0; i < run.nranks_present; i++) {
        char path[PATH_MAX];
        struct stat st;
        log_path(path, sizeof path, dir, run.present[i]);
        if (stat(path, &st) == 0)
            total += (uint64_t)st.st_size;
    }
    int nlogs = run.nranks_present;
    log_run_release(&run);
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int nt = cpus < 1 ? 1 : cpus > 16 ? 16 : (int)cpus;
    if (nt > nlogs)
        nt = nlogs > 0 ? nlogs : 1;
    pthread_t tid[16];
    int started = 0;
    double t0 = mono_s(), shown = t0;
    for (; started < nt; started++)
        if (pthread_create(&tid[started], NULL, zworker, &j) != 0)
            break;
    if (!started)
        zworker(&j);
    /* Progress once a second, from the second on: bytes and what is
     * left. */
    while (started && __atomic_load_n(&j.quit, __ATOMIC_ACQUIRE) < started) {
        struct timespec tick = {0, 100000000};
        nanosleep(&tick, NULL);
        double t = mono_s();
        uint64_t in = __atomic_load_n(&j.in, __ATOMIC_RELAXED);
        if (t - shown >= 1.0 && t - t0 >= 2.0 && in > 0 && total > in) {
            fprintf(stderr, "drdb: compressing the logs: %.1f of %.1f MB, "
                    "about %.0f s left\n", (double)in / 1e6,
                    (double)total / 1e6,
                    (t - t0) * (double)(total - in) / (double)in);
            shown = t;
        }
    }
    for (int i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    if (j.in > j.out)
        fprintf(stderr, "drdb: compressed message data: %.1f MB of logs "
                "now take %.1f MB (%.0f%%), in %.1f s\n", (double)j.in / 1e6,
                (double)j.out / 1e6, 100.0 * (double)j.out / (double)j.in,
                mono_s() - t0);
}

/* After the run: each rank that should have a log and has none, or whose
 * log is truncated, killed or damaged, named on stderr. RANKS: the
 * --ranks list (NULL: all). Returns the number of ranks named, or -1 when
 * the run cannot be opened at all. */
int fe_rec_verdict(const char *dir, const char *ranks)
{
    struct log_run run;
    char err[512], buf[256];
    if (log_run_open(&run, dir, err, sizeof err) < 0) {
        fprintf(stderr, "drdb: the run cannot be opened: %s\n", err);
        return -1;
    }
    int n = run.world_size, named = 0;
    log_run_release(&run);
    struct rankset want, sets[6];
    static const char *const what[6] = {
        "no log (it could not be created: see the messages above)",
        "truncated (disk full): logged up to the stop, replayable that far",
        "killed mid-run", "ended in MPI_Abort", "damaged",
        "cut at --max-log-size: logged up to the limit, replayable that "
        "far"};
    int at;
    const char *why;
    if (rs_init(&want, n) < 0)
        return -1;
    for (int i = 0; i < 6; i++)
        rs_init(&sets[i], n);
    if (!ranks || rs_parse(ranks, strlen(ranks), &want, NULL, NULL, &at,
                           &why) < 0)
        for (int r = 0; r < n; r++)
            rs_add(&want, r);
    for (int r = 0; r < n; r++) {
        if (!rs_has(&want, r))
            continue;
        char path[PATH_MAX];
        struct log_rank lr;
        log_path(path, sizeof path, dir, r);
        if (log_rank_open(&lr, path, err, sizeof err) < 0) {
            rs_add(&sets[errno == ENOENT || access(path, F_OK) < 0 ? 0 : 4],
                   r);
            continue;
        }
        switch (log_rank_ending(&lr, buf, sizeof buf)) {
        case LOG_END_TRUNCATED:
            rs_add(&sets[lr.hdr.flags & LOG_HDR_LIMITED ? 5 : 1], r);
            break;
        case LOG_END_KILLED: rs_add(&sets[2], r); break;
        case LOG_END_ABORT: rs_add(&sets[3], r); break;
        case LOG_END_CORRUPT: rs_add(&sets[4], r); break;
        default: break;
        }
        log_rank_release(&lr);
    }
    for (int i = 0; i < 6; i++) {
        if (rs_count(&sets[i])) {
            char list[200];
            fprintf(stderr, "drdb: rank%s %s: %s\n",
                    rs_count(&sets[i]) > 1 ? "s" : "",
                    rs_format(&sets[i], list, sizeof list), what[i]);
            /* The program's own end (an abort, a kill) is the launcher's
             * failure; a missing or cut log is the recording's (cut at
             * the limit asked for, it is what was asked). */
            if (i == 0 || i == 1 || i == 4)
                named += rs_count(&sets[i]);
        }
        rs_release(&sets[i]);
    }
    rs_release(&want);
    return named;
}

