/* drdb record: run an MPI launcher with the recorder preloaded. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "drdb-stub.h"
#include "fe.h"
#include "log.h"
#include "rankset.h"
#include "log-compress.h"
#include "log-reader.h"

/* libdrdb-record.so: $DRDB_RECORD_LIB, else beside the drdb binary in the
 * build tree (../recorder/) or an install (../lib/drdb/). */
static int find_recorder(char *out, size_t len)
{
    static const char *const rel[] = {"../recorder/libdrdb-record.so",
                                      "../lib/drdb/libdrdb-record.so"};
    return fe_find_beside("DRDB_RECORD_LIB", rel, 2, out, len);
}

/* Creates a fresh run directory (mode 0700); fills PATH with its absolute
 * name. An existing non-empty directory is refused: nothing is overwritten. */
static int make_run_dir(const char *want, char *path, size_t len)
{
    char name[PATH_MAX];
    if (want) {
        snprintf(name, sizeof name, "%s", want);
        /* Like mkdir -p for the parents; the run directory itself is ours. */
        for (char *p = strchr(name + 1, '/'); p; p = strchr(p + 1, '/')) {
            *p = '\0';
            if (mkdir(name, 0755) < 0 && errno != EEXIST) {
                int e = errno;
                *p = '/';
                return fe_error("cannot create '%s': %s", name, strerror(e));
            }
            *p = '/';
        }
        if (mkdir(name, 0700) < 0) {
            if (errno != EEXIST)
                return fe_error("cannot create '%s': %s", name,
                                strerror(errno));
            char probe[PATH_MAX + 16];
            snprintf(probe, sizeof probe, "%s/%s", name, LOG_RUN_FILE);
            if (access(probe, F_OK) == 0)
                return fe_error("'%s' already holds a recorded run; choose "
                                "another -o or remove it", name);
            log_path(probe, sizeof probe, name, 0);
            if (access(probe, F_OK) == 0)
                return fe_error("'%s' already holds rank logs; choose "
                                "another -o or remove it", name);
        }
    } else {
        time_t t = time(NULL);
        struct tm tm;
        localtime_r(&t, &tm);
        char stamp[32];
        strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
        for (int i = 0;; i++) {
            if (i == 0)
                snprintf(name, sizeof name, "drdb-run-%s", stamp);
            else
                snprintf(name, sizeof name, "drdb-run-%s-%d", stamp, i);
            if (mkdir(name, 0700) == 0)
                break;
            if (errno != EEXIST || i > 100)
                return fe_error("cannot create '%s': %s", name,
                                strerror(errno));
        }
    }
    if (!realpath(name, path))
        return fe_error("cannot resolve '%s': %s", name, strerror(errno));
    (void)len;
    return 0;
}

/* Adds the recorded executable's build id to the run description, so that
 * a replay can tell when it runs another binary. */
static void note_build_id(const char *dir)
{
    struct log_run run;
    char err[256], exe[PATH_MAX], id[128];
    if (log_run_open(&run, dir, err, sizeof err) < 0)
        return;
    if (log_run_get(&run, "exe", exe, sizeof exe) &&
        fe_build_id(exe, id, sizeof id) == 0) {
        char path[PATH_MAX + 16];
        snprintf(path, sizeof path, "%s/%s", dir, LOG_RUN_FILE);
        FILE *f = fopen(path, "a");
        if (f) {
            fprintf(f, "exe_build_id %s\n", id);
            fclose(f);
        }
    }
    log_run_release(&run);
}

/* Compresses the message data of every rank's log, now that the ranks have
 * exited (off their critical path). Progress for many ranks. */
static void compress_run(const char *dir)
{
    struct log_run run;
    char err[512];
    uint64_t in = 0, out = 0;
    if (log_run_open(&run, dir, err, sizeof err) < 0)
        return;
    int n = run.world_size, done = 0;
    log_run_release(&run);
    for (int r = 0; r < n; r++) {
        char path[PATH_MAX];
        uint64_t b, a;
        log_path(path, sizeof path, dir, r);
        if (access(path, F_OK) != 0)
            continue;
        if (log_compress_file(path, &b, &a, err, sizeof err) < 0)
            fprintf(stderr, "drdb: rank %d's log stays uncompressed: %s\n", r,
                    err);
        in += b;
        out += a;
        if (n >= 16 && (++done % 16 == 0 || r == n - 1))
            fprintf(stderr, "drdb: compressing the logs: %d of %d ranks\n",
                    done, n);
    }
    if (in > out)
        fprintf(stderr, "drdb: compressed message data: %.1f MB of logs "
                "now take %.1f MB\n", (double)in / 1e6, (double)out / 1e6);
}

/* The ranks to record, as the recorder reads them (DRDB_RANKS: ranges
 * "0-3,8"), from a set in the program's one grammar (the size of the run is
 * not known yet: any rank below RECORD_MAX_RANKS). NULL when TEXT is not a
 * set. */
#define RECORD_MAX_RANKS (1 << 20)
static char *record_ranks(const char *text)
{
    struct rankset s;
    int at;
    const char *why;
    char *out = NULL;
    if (rs_init(&s, RECORD_MAX_RANKS) < 0)
        return NULL;
    if (rs_parse(text, strlen(text), &s, NULL, NULL, &at, &why) == 0 &&
        rs_count(&s)) {
        /* each range at most "1048575-1048575," */
        size_t len = 16 * (size_t)rs_count(&s) + 16;
        if ((out = malloc(len)))
            rs_format(&s, out, len);
    }
    rs_release(&s);
    return out;
}

static pid_t child;

static void forward(int sig)
{
    if (child > 0)
        kill(child, sig);
}

static int run(int argc, char **argv)
{
    static const struct option opts[] = {
        {"output", required_argument, NULL, 'o'},
        {"ranks", required_argument, NULL, 'r'},
        {"send-data", no_argument, NULL, 's'},
        {"no-compress", no_argument, NULL, 'Z'},
        {NULL, 0, NULL, 0},
    };
    const char *outdir = NULL;
    char *ranks = NULL;
    int send_data = 0, compress = 1, c;

    while ((c = getopt_long(argc, argv, "+o:r:", opts, NULL)) != -1) {
        switch (c) {
        case 'o':
            outdir = optarg;
            break;
        case 'r':
            free(ranks);
            if (!(ranks = record_ranks(optarg)))
                return fe_error("--ranks '%s' is not a rank list like "
                                "'0-3,8'", optarg);
            break;
        case 's':
            send_data = 1;
            break;
        case 'Z':
            compress = 0;
            break;
        default:
            fe_subcmd_usage(&fe_sub_record, stderr);
            return 2;
        }
    }
    if (optind >= argc) {
        fe_error("no command to record; for example: drdb record -- "
                 "mpiexec -n 4 ./app");
        return 2;
    }

    char lib[PATH_MAX], dir[PATH_MAX];
    if (find_recorder(lib, sizeof lib) < 0)
        return fe_error("cannot find libdrdb-record.so; set DRDB_RECORD_LIB "
                        "to its path");
    if (make_run_dir(outdir, dir, sizeof dir))
        return 1;

    /* The environment the launcher passes on to every rank: the real MPI,
     * never drdb's replay stub, even if the caller's paths name it. */
    fe_env_drop_stub("LD_LIBRARY_PATH");
    fe_env_drop_stub("LD_PRELOAD");
    unsetenv(DRDB_ENV_REPLAY_DIR);
    unsetenv(DRDB_ENV_REPLAY_RANK);
    const char *pre = getenv("LD_PRELOAD");
    size_t plen = strlen(lib) + (pre ? strlen(pre) : 0) + 2;
    char *preload = malloc(plen);
    if (!preload)
        return fe_error("out of memory");
    snprintf(preload, plen, "%s%s%s", lib, pre && *pre ? ":" : "",
             pre ? pre : "");
    size_t clen = 1;
    for (int i = optind; i < argc; i++)
        clen += strlen(argv[i]) + 1;
    char *cmdline = calloc(1, clen);
    if (!cmdline)
        return fe_error("out of memory");
    for (int i = optind; i < argc; i++) {
        strcat(cmdline, argv[i]);
        if (i + 1 < argc)
            strcat(cmdline, " ");
    }
    setenv("LD_PRELOAD", preload, 1);
    setenv("DRDB_RUN_DIR", dir, 1);
    setenv("DRDB_COMMAND", cmdline, 1);
    if (ranks)
        setenv("DRDB_RANKS", ranks, 1);
    free(ranks);
    if (send_data)
        setenv("DRDB_SEND_DATA", "1", 1);
    free(preload);
    free(cmdline);

    fprintf(stderr, "drdb: recording into %s\n", dir);
    child = fork();
    if (child < 0)
        return fe_error("cannot fork: %s", strerror(errno));
    if (child == 0) {
        execvp(argv[optind], argv + optind);
        fprintf(stderr, "drdb: cannot run '%s': %s\n", argv[optind],
                strerror(errno));
        _exit(127);
    }
    /* Ctrl-C reaches the launcher through the terminal; TERM/HUP sent to
     * drdb alone are passed on, so the ranks are not left behind. */
    signal(SIGINT, SIG_IGN);
    signal(SIGTERM, forward);
    signal(SIGHUP, forward);
    int status = 0;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR)
        ;
    int code = WIFEXITED(status) ? WEXITSTATUS(status)
                                 : 128 + WTERMSIG(status);

    note_build_id(dir);
    if (compress)
        compress_run(dir);
    fe_log_summary(dir, stderr);
    fprintf(stderr, "drdb: recorded run: %s%s\n", dir,
            code ? " (the launcher failed: see its output above)" : "");
    return code;
}

const struct fe_subcmd fe_sub_record = {
    .name = "record",
    .args = "[-o DIR] [--ranks LIST] [--send-data] [--no-compress] -- "
            "LAUNCHER [ARGS...]",
    .summary = "record an MPI run: every rank's MPI calls into a run directory",
    .help = "Runs LAUNCHER (mpiexec, srun, or the program itself) with the "
            "recorder preloaded\ninto every rank; each rank writes DIR/rank-R.log "
            "and rank 0 writes DIR/drdb.run.\nThe exit status is the "
            "launcher's.\n\n"
            "  -o, --output DIR   run directory (default: a new "
            "./drdb-run-DATE-TIME);\n"
            "                     an existing run is never overwritten\n"
            "  -r, --ranks LIST   record only these ranks, e.g. 0-3,8 "
            "(default: all)\n"
            "      --send-data    also log the data of sends (for checking; "
            "larger logs)\n"
            "      --no-compress  leave message data uncompressed (by default "
            "it is\n"
            "                     compressed with zstd once the ranks have "
            "exited)\n\n"
            "example:\n  drdb record -o run1 -- mpiexec -n 4 ./app input.dat\n",
    .run = run,
};
