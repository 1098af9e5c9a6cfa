/*
 * Compressing a run's message data (fe.h): after `drdb record`, now or in
 * the background, and `drdb log compress`. The logs are compressed by
 * threads, one per core, each taking the next rank (log-compress.h); a
 * log is replaced only while no session holds the run (log_run_hold), so
 * a console's replays and checkpoints never see their log change.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fe.h"
#include "log-compress.h"
#include "log-reader.h"

/* Logs of at least this many bytes in all are compressed in the
 * background by default: what two cores compress in about a hundredth of
 * a second (IS's keys: 32 MB in 0.1 s), a wait nobody notices after a run
 * (at 32 MB, a 0.45 s run took 20% longer). */
#define FOREGROUND_MAX (4ull << 20)

struct zjob {
    const char *dir;
    int n;                    /* world size */
    int next;                 /* the next rank to take (atomic) */
    uint64_t in, out;         /* bytes (atomic) */
    uint64_t skipped, skipped_bytes; /* logs that do not compress (atomic) */
    int quit;                 /* workers that finished (atomic) */
    int waiting;              /* a worker waits for the hold (atomic) */
    int quiet;                /* no message on stderr (background) */
    volatile int *stop;
};

static void on_wait(void *ud)
{
    struct zjob *j = ud;
    __atomic_store_n(&j->waiting, 1, __ATOMIC_RELAXED);
}

static void *zworker(void *arg)
{
    struct zjob *j = arg;
    struct log_zopts o = {log_run_hold_open(j->dir), j->stop, on_wait, j};
    for (;;) {
        int r = __atomic_fetch_add(&j->next, 1, __ATOMIC_RELAXED);
        if (r >= j->n || *j->stop)
            break;
        char path[PATH_MAX], err[512];
        uint64_t b, a;
        log_path(path, sizeof path, j->dir, r);
        if (access(path, F_OK) != 0)
            continue;
        int rc = log_compress_file(path, &o, &b, &a, err, sizeof err);
        if (rc < 0 && rc != -EINTR && !j->quiet)
            fprintf(stderr, "drdb: rank %d's log stays uncompressed: %s\n",
                    r, err);
        if (rc == 2) {
            __atomic_add_fetch(&j->skipped, 1, __ATOMIC_RELAXED);
            __atomic_add_fetch(&j->skipped_bytes, b, __ATOMIC_RELAXED);
        }
        __atomic_add_fetch(&j->in, b, __ATOMIC_RELAXED);
        __atomic_add_fetch(&j->out, a, __ATOMIC_RELAXED);
        __atomic_store_n(&j->waiting, 0, __ATOMIC_RELAXED);
    }
    if (o.hold_fd >= 0)
        close(o.hold_fd);
    __atomic_add_fetch(&j->quit, 1, __ATOMIC_RELEASE);
    return NULL;
}

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The bytes of DIR's logs into *TOTAL and their number into *NLOGS: 0, or
 * -1 (not a run). */
static int run_size(const char *dir, uint64_t *total, int *nlogs, int *world)
{
    struct log_run run;
    char err[512];
    if (log_run_open(&run, dir, err, sizeof err) < 0)
        return -1;
    *total = 0;
    for (int i = 0; i < run.nranks_present; i++) {
        char path[PATH_MAX];
        struct stat st;
        log_path(path, sizeof path, dir, run.present[i]);
        if (stat(path, &st) == 0)
            *total += (uint64_t)st.st_size;
    }
    *nlogs = run.nranks_present;
    *world = run.world_size;
    log_run_release(&run);
    return 0;
}

/* Writes V (a pid, or -2) to descriptor FD and closes it (-1: none). */
static void tell(int fd, long v)
{
    if (fd >= 0) {
        if (write(fd, &v, sizeof v) != sizeof v)
            v = 0;
        close(fd);
    }
}

/* Compresses DIR's logs (TOTAL bytes, NLOGS of them, WORLD ranks) with a
 * thread per core, one compression of a run at a time (a lock on DIR
 * itself). Foreground: progress on stderr once a second from the second
 * second on, the result at the end. BACKGROUND: the state written to DIR's
 * status file instead. READY (-1: none) gets this process's pid once the
 * compression is under way (its state written), or -2. Returns 0, -1 when
 * stopped, -2 when another compression of DIR runs. */
static int compress_all(const char *dir, uint64_t total, int nlogs,
                        int world, int background, volatile int *stop,
                        int ready)
{
    int lock = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (lock >= 0 && flock(lock, LOCK_EX | LOCK_NB) < 0 &&
        errno == EWOULDBLOCK) {
        close(lock);
        tell(ready, -2);
        if (!background)
            fprintf(stderr, "drdb: another compression of %s is under way: "
                    "'drdb log compress --wait %s' waits for it\n", dir, dir);
        return -2;
    }
    struct zjob j = {.dir = dir, .n = world, .quiet = background,
                     .stop = stop};
    struct log_zstatus zs = {.state = "running", .pid = (long)getpid(),
                             .total = total};
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int nt = cpus < 1 ? 1 : cpus > 16 ? 16 : (int)cpus;
    if (nt > nlogs)
        nt = nlogs > 0 ? nlogs : 1;
    pthread_t tid[16];
    int started = 0;
    double t0 = mono_s(), shown = t0;
    log_run_sweep(dir);
    if (background)
        log_zstatus_write(dir, &zs);
    tell(ready, (long)getpid());
    for (; started < nt; started++)
        if (pthread_create(&tid[started], NULL, zworker, &j) != 0)
            break;
    if (!started)
        zworker(&j);
    int told = 0;
    while (started && __atomic_load_n(&j.quit, __ATOMIC_ACQUIRE) < started) {
        struct timespec tick = {0, 100000000};
        nanosleep(&tick, NULL);
        double t = mono_s();
        uint64_t in = __atomic_load_n(&j.in, __ATOMIC_RELAXED);
        int waiting = __atomic_load_n(&j.waiting, __ATOMIC_RELAXED);
        if (t - shown < 1.0)
            continue;
        shown = t;
        if (background) {
            snprintf(zs.state, sizeof zs.state, "%s",
                     waiting ? "waiting" : "running");
            zs.in = in;
            zs.out = __atomic_load_n(&j.out, __ATOMIC_RELAXED);
            zs.skipped = __atomic_load_n(&j.skipped, __ATOMIC_RELAXED);
            zs.skipped_bytes =
                __atomic_load_n(&j.skipped_bytes, __ATOMIC_RELAXED);
            zs.seconds = t - t0;
            log_zstatus_write(dir, &zs);
        } else if (waiting && !told) {
            fprintf(stderr, "drdb: waiting for the sessions using %s to "
                    "end before replacing its logs (Ctrl-C stops; the logs "
                    "stay as they are)\n", dir);
            told = 1;
        } else if (t - t0 >= 2.0 && in > 0 && total > in && !waiting)
            fprintf(stderr, "drdb: compressing the logs: %.1f of %.1f MB, "
                    "about %.0f s left\n", (double)in / 1e6,
                    (double)total / 1e6,
                    (t - t0) * (double)(total - in) / (double)in);
    }
    for (int i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    double secs = mono_s() - t0;
    if (background) {
        snprintf(zs.state, sizeof zs.state, "%s", *stop ? "failed" : "done");
        if (*stop)
            snprintf(zs.error, sizeof zs.error, "stopped by a signal");
        zs.in = j.in;
        zs.out = j.out;
        zs.skipped = j.skipped;
        zs.skipped_bytes = j.skipped_bytes;
        zs.seconds = secs;
        log_zstatus_write(dir, &zs);
    } else if (*stop) {
        fprintf(stderr, "drdb: compression stopped: the logs not yet "
                "compressed stay as they are ('drdb log compress %s' "
                "finishes it)\n", dir);
    } else {
        /* (the logs left as they were: said apart) */
        uint64_t in = j.in - j.skipped_bytes, out = j.out - j.skipped_bytes;
        if (in > out)
            fprintf(stderr, "drdb: compressed message data: %.1f MB of logs "
                    "now take %.1f MB (%.0f%%), in %.1f s\n",
                    (double)in / 1e6, (double)out / 1e6,
                    100.0 * (double)out / (double)in, secs);
        if (j.skipped)
            fprintf(stderr, "drdb: %s\n",
                    fe_z_skipped(j.skipped, j.skipped_bytes));
    }
    if (lock >= 0)
        close(lock);
    return *stop ? -1 : 0;
}

static volatile int stopped;

static void on_stop(int sig)
{
    (void)sig;
    stopped = 1;
}

/* Catches SIGINT and SIGTERM into `stopped` (no SA_RESTART: sleeps end). */
static void catch_stop(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

/* Starts the compression of DIR in a process of its own that outlives
 * drdb (a new session, lower priority, no terminal): its pid once under
 * way, -2 when another compression of DIR runs, or -1. */
static long spawn_background(const char *dir, uint64_t total, int nlogs,
                             int world)
{
    int p[2];
    if (pipe2(p, O_CLOEXEC) < 0)
        return -1;
    pid_t mid = fork();
    if (mid < 0) {
        close(p[0]);
        close(p[1]);
        return -1;
    }
    if (mid == 0) {
        setsid();
        if (fork() != 0)
            _exit(0);
        close(p[0]);
        int null = open("/dev/null", O_RDWR | O_CLOEXEC);
        for (int fd = 0; fd < 3 && null >= 0; fd++)
            dup2(null, fd);
        setpriority(PRIO_PROCESS, 0, 10);
        signal(SIGHUP, SIG_IGN);
        catch_stop();
        _exit(compress_all(dir, total, nlogs, world, 1, &stopped, p[1]) ? 1
                                                                          : 0);
    }
    close(p[1]);
    long pid = -1;
    if (read(p[0], &pid, sizeof pid) != sizeof pid)
        pid = -1;
    close(p[0]);
    while (waitpid(mid, NULL, 0) < 0 && errno == EINTR)
        ;
    return pid;
}

/* Compresses DIR's logs here and now; Ctrl-C stops it (the logs stay
 * valid). compress_all's result. */
static int compress_now(const char *dir, uint64_t total, int nlogs,
                        int world)
{
    stopped = 0;
    catch_stop();
    return compress_all(dir, total, nlogs, world, 0, &stopped, -1);
}

void fe_rec_compress(const char *dir, int mode)
{
    uint64_t total;
    int nlogs, world;
    if (run_size(dir, &total, &nlogs, &world) < 0)
        return;
    if (mode == FE_Z_AUTO)
        mode = total >= FOREGROUND_MAX ? FE_Z_BACKGROUND : FE_Z_NOW;
    if (mode == FE_Z_NOW) {
        compress_now(dir, total, nlogs, world);
        return;
    }
    long pid = spawn_background(dir, total, nlogs, world);
    if (pid == -2) {
        fprintf(stderr, "drdb: another compression of %s is under way: "
                "'drdb log compress --wait %s' waits for it\n", dir, dir);
        return;
    }
    if (pid < 0) {
        fprintf(stderr, "drdb: cannot start the compression in the "
                "background (%s): compressing now\n", strerror(errno));
        compress_now(dir, total, nlogs, world);
        return;
    }
    fprintf(stderr, "drdb: compressing %.1f MB of logs in the background "
            "(pid %ld); the run is usable meanwhile: 'drdb log compress "
            "--wait %s' shows its progress and result\n", (double)total / 1e6,
            pid, dir);
}

const char *fe_z_skipped(uint64_t logs, uint64_t bytes)
{
    static char buf[200];
    snprintf(buf, sizeof buf, "%llu log%s (%.1f MB) left uncompressed: "
             "%s message data does not compress (samples shrank by less "
             "than a tenth)", (unsigned long long)logs, logs == 1 ? "" : "s",
             (double)bytes / 1e6, logs == 1 ? "its" : "their");
    return buf;
}

/* Whether PID is a live process (the compressor of a status file). */
static int alive(long pid)
{
    return pid > 0 && (kill((pid_t)pid, 0) == 0 || errno == EPERM);
}

/* Prints state S of DIR's compression on OUT, each line led by LEAD. */
static void print_state(FILE *out, const char *lead, const char *dir,
                        const struct log_zstatus *s)
{
    int done = !strcmp(s->state, "done");
    if (!done && strcmp(s->state, "failed") && !alive(s->pid)) {
        fprintf(out, "%s%s: the background compression (pid %ld) ended "
                "without a result; 'drdb log compress %s' compresses what "
                "is left\n", lead, dir, s->pid, dir);
    } else if (done) {
        uint64_t in = s->in - s->skipped_bytes;
        uint64_t done_out = s->out - s->skipped_bytes;
        if (in || !s->skipped)
            fprintf(out, "%s%s: compressed: %.1f MB of logs now take %.1f MB "
                    "(%.0f%%), in %.1f s\n", lead, dir, (double)in / 1e6,
                    (double)done_out / 1e6,
                    in ? 100.0 * (double)done_out / (double)in : 100.0,
                    s->seconds);
        if (s->skipped)
            fprintf(out, "%s%s: %s\n", lead, dir,
                    fe_z_skipped(s->skipped, s->skipped_bytes));
    } else if (!strcmp(s->state, "failed")) {
        fprintf(out, "%s%s: the compression failed (%s): the logs not "
                "compressed stay as they were; 'drdb log compress %s' tries "
                "again\n", lead, dir, s->error, dir);
    } else {
        fprintf(out, "%s%s: %s: %.1f of %.1f MB compressed in %.0f s (pid "
                "%ld)%s\n", lead, dir, s->state, (double)s->in / 1e6,
                (double)s->total / 1e6, s->seconds, s->pid,
                !strcmp(s->state, "waiting")
                    ? "; waiting for the sessions using the run to end"
                    : "");
    }
}

/* Waits for DIR's background compressor (pid in S) to end, showing its
 * state every second: 0, or 1 when stopped by Ctrl-C (the compression
 * goes on) or when it failed. */
static int wait_background(const char *dir, struct log_zstatus *s)
{
    catch_stop();
    double shown = 0;
    while (alive(s->pid) && (!strcmp(s->state, "running") ||
                             !strcmp(s->state, "waiting"))) {
        if (stopped) {
            printf("%s: no longer waiting; the compression goes on (pid "
                   "%ld)\n", dir, s->pid);
            return 1;
        }
        if (mono_s() - shown >= 1.0) {
            print_state(stdout, "", dir, s);
            fflush(stdout);
            shown = mono_s();
        }
        struct timespec tick = {0, 100000000};
        nanosleep(&tick, NULL);
        if (log_zstatus_read(dir, s) < 0)
            break;
    }
    print_state(stdout, "", dir, s);
    return strcmp(s->state, "done") != 0;
}

void fe_zstatus_print(const char *dir, FILE *out)
{
    struct log_zstatus s;
    if (log_zstatus_read(dir, &s) < 0)
        return;
    print_state(out, "compression ", dir, &s);
}

struct compress_opts {
    int wait, status, background;
};

#define OFF(f) offsetof(struct compress_opts, f)
static const struct fe_opt compress_opts[] = {
    FE_FLAG(0, "background", OFF(background), "compress in a process of its "
     "own"),
    FE_FLAG(0, "wait", OFF(wait), "with a compression running in the "
     "background (drdb record's): wait for it, showing its progress and "
     "result"),
    FE_FLAG(0, "status", OFF(status), "print the state of the compression in "
     "the background"),
    FE_END,
};
#undef OFF

static int cmd_compress(int argc, char **argv)
{
    struct compress_opts o = {0};
    struct fe_pos pos;
    if (fe_subcmd_parse(&fe_sub_log_compress, argc, argv, &o, 1, &pos) < 0)
        return 2;
    if (pos.n != 1 || pos.rest < argc)
        return fe_subcmd_misuse(&fe_sub_log_compress);
    const char *dir = pos.v[0];
    int wait = o.wait, status = o.status;
    uint64_t total;
    int nlogs, world;
    if (run_size(dir, &total, &nlogs, &world) < 0)
        return fe_error("'%s' is not a drdb run directory (no %s)", dir,
                        LOG_RUN_FILE) + 1;
    struct log_zstatus s;
    int has = log_zstatus_read(dir, &s) == 0;
    int running = has && alive(s.pid) && (!strcmp(s.state, "running") ||
                                          !strcmp(s.state, "waiting"));
    if (running && wait)
        return wait_background(dir, &s);
    if (status || wait || running) {
        if (!has) {
            printf("%s: no compression was started in the background\n",
                   dir);
            return 0;
        }
        print_state(stdout, "", dir, &s);
        return running || !strcmp(s.state, "done") ? 0 : 1;
    }
    if (o.background) {
        fe_rec_compress(dir, FE_Z_BACKGROUND);
        return 0;
    }
    return compress_now(dir, total, nlogs, world) ? 1 : 0;
}

const struct fe_subcmd fe_sub_log_compress = {
    .name = "compress",
    .args = "RUNDIR",
    .summary = "compress the logs' message data now, or in the background; "
               "or wait for, or show, a compression in the background",
    .help = "Compresses the message data of the run's logs now (progress "
            "on stderr; Ctrl-C\nstops, the logs not yet done stay as they "
            "are), or with --background in a\nprocess of its own. --wait "
            "and --status exit 1 when it failed or ended\nwithout a result. "
            "A log is replaced only while no console session uses the run.\n",
    .opts = compress_opts,
    .parent = &fe_sub_log,
    .run = cmd_compress,
};
