/* drdb record: run an MPI launcher with the recorder preloaded. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/personality.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "drdb-record.h"
#include "drdb-stub.h"
#include "args.h"
#include "fe.h"
#include "launch.h"
#include "life.h"
#include "log.h"
#include "rankset.h"
#include "log-reader.h"
#include "util.h"

/* The recorder: $DRDB_ENV_RECORD_LIB, else beside the drdb binary in the
 * build tree (../recorder/) or an install (../lib/drdb/). */
static int find_recorder(char *out, size_t len)
{
    static const char *const rel[] = {"../recorder/" DRDB_RECORDER_LIB,
                                      "../lib/drdb/" DRDB_RECORDER_LIB};
    return fe_find_beside(DRDB_ENV_RECORD_LIB, rel, 2, out, len);
}

/* Opens the directory component NAME of CUR to walk on, creating it
 * (mode 0777 less the umask, as mkdir -p) when MAKE and it is missing. A
 * symbolic link is followed only when it belongs to this user or root (a
 * link another user planted, in /tmp say, is not). An fd, or -1 after an
 * error message naming SHOWN. */
static int walk_component(int cur, const char *name, const char *shown,
                          int make)
{
    for (int tries = 0; tries < 3; tries++) {
        int fd = openat(cur, name,
                        O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd >= 0)
            return fd;
        int e = errno;
        struct stat st;
        if (e == ENOENT && make) {
            if (mkdirat(cur, name, 0777) < 0 && errno != EEXIST)
                return fe_error("cannot create '%s': %s", shown,
                                strerror(errno)), -1;
            continue;
        }
        if ((e == ELOOP || e == ENOTDIR) &&
            fstatat(cur, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
            S_ISLNK(st.st_mode)) {
            if (st.st_uid != getuid() && st.st_uid != 0)
                return fe_error("'%s' is a symbolic link of user %u: drdb "
                                "does not follow another user's links; give "
                                "a path without it", shown,
                                (unsigned)st.st_uid), -1;
            fd = openat(cur, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
            if (fd >= 0)
                return fd;
            e = errno;
        }
        return fe_error("cannot open '%s': %s", shown, strerror(e)), -1;
    }
    return fe_error("cannot create '%s': it keeps changing", shown), -1;
}

/* Whether directory FD holds nothing but "." and "..": 1, 0, or -1 after an
 * error message about NAME (a run or logs in it are named). */
static int dir_empty(int fd, const char *name)
{
    int d2 = dup(fd);
    DIR *d = d2 >= 0 ? fdopendir(d2) : NULL;
    struct dirent *de;
    int empty = 1, run = 0, logs = 0;
    if (!d) {
        if (d2 >= 0)
            close(d2);
        return fe_error("cannot read '%s': %s", name, strerror(errno)), -1;
    }
    while ((de = readdir(d))) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        empty = 0;
        run |= !strcmp(de->d_name, LOG_RUN_FILE);
        logs |= !strncmp(de->d_name, "rank-", 5);
    }
    closedir(d);
    if (run)
        return fe_error("'%s' already holds a recorded run; choose another "
                        "-o or remove it", name), -1;
    if (logs)
        return fe_error("'%s' already holds rank logs; choose another -o or "
                        "remove it", name), -1;
    return empty;
}

/*
 * Creates the run directory (mode 0700) and fills PATH with its absolute
 * name. -o a/b/c makes the parents like mkdir -p, walking each component
 * (walk_component: another user's symbolic link is not followed). The run
 * directory itself is new, or an existing directory that is empty, this
 * user's, and writable by no one else; a symbolic link is refused: what
 * another user can write into, or point elsewhere, could redirect the
 * files rank 0 creates there.
 */
static int make_run_dir(const char *want, char *path, size_t len)
{
    char name[PATH_MAX];
    if (!want) {
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
            int rc = util_dir_create(AT_FDCWD, name, 0);
            if (rc == 0)
                break;
            if (rc != -EEXIST || i > 100)
                return fe_error("cannot create '%s': %s", name,
                                strerror(-rc));
        }
    } else {
        if (strlen(want) >= sizeof name)
            return fe_error("'%s': the name is too long", want);
        snprintf(name, sizeof name, "%s", want);
        size_t n = strlen(name);
        while (n > 1 && name[n - 1] == '/')
            name[--n] = '\0';
        char *last = strrchr(name, '/');
        int cur = last == name ? open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                               : AT_FDCWD;
        const char *base = name;
        if (last && last != name) {
            /* The parents, component by component. */
            *last = '\0';
            char *p = name;
            if (*p == '/') {
                cur = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
                p++;
            }
            for (char *c = p; c && *c;) {
                char *slash = strchr(c, '/');
                if (slash)
                    *slash = '\0';
                if (*c) {
                    char shown[PATH_MAX];
                    snprintf(shown, sizeof shown, "%s", name);
                    int fd = walk_component(cur, c, shown, 1);
                    if (cur != AT_FDCWD)
                        close(cur);
                    if (fd < 0)
                        return 1;
                    cur = fd;
                }
                if (slash)
                    *slash = '/';
                c = slash ? slash + 1 : NULL;
            }
            *last = '/';
            base = last + 1;
        } else if (last == name) {
            base = name + 1;
        }
        int rc = util_dir_create(cur, base, 1);
        int fd = rc < 0 ? -1
                        : openat(cur, base, O_RDONLY | O_DIRECTORY |
                                                O_NOFOLLOW | O_CLOEXEC);
        if (cur != AT_FDCWD)
            close(cur);
        switch (rc) {
        case 0:
            break;
        case -ELOOP:
            return fe_error("'%s' is a symbolic link: give the run "
                            "directory itself, or a new name", name);
        case -ENOTDIR:
            return fe_error("'%s' exists and is not a directory; choose "
                            "another -o", name);
        case -EPERM:
            return fe_error("'%s' belongs to another user or others can "
                            "write it: they could change the run under "
                            "you; give a new name (drdb makes it, mode "
                            "0700) or a directory of your own (chmod "
                            "go-w)", name);
        default:
            return fe_error("cannot create '%s': %s", name, strerror(-rc));
        }
        if (fd < 0)
            return fe_error("cannot open '%s': %s", name, strerror(errno));
        int empty = dir_empty(fd, name);
        close(fd);
        if (empty < 0)
            return 1;
        if (!empty)
            return fe_error("'%s' is not empty: drdb records into a new or "
                            "empty directory; choose another -o", name);
    }
    if (!realpath(name, path))
        return fe_error("cannot resolve '%s': %s", name, strerror(errno));
    (void)len;
    return 0;
}

/* Reserves the room of the run description in the new run directory DIR
 * (LOG_RUN_ROOM, log-format.h): 0, or -1 after an error (nothing fits). */
static int reserve_run_file(const char *dir)
{
    static const char zero[LOG_RUN_MAX];
    int dfd = util_dir_open(AT_FDCWD, dir, 1);
    int fd = dfd < 0 ? dfd : util_file_create(dfd, LOG_RUN_ROOM, O_WRONLY);
    int rc = fd < 0 ? fd : util_write_all(fd, zero, sizeof zero);
    if (fd >= 0 && close(fd) < 0 && rc == 0)
        rc = -errno;
    if (rc < 0 && fd >= 0)
        unlinkat(dfd, LOG_RUN_ROOM, 0);
    if (dfd >= 0)
        close(dfd);
    if (rc < 0)
        return fe_error("no room for the run description in '%s' (%s): "
                        "free some space or choose another -o", dir,
                        strerror(-rc));
    return 0;
}

/* The reserved room rank 0 did not take (it never reached MPI_Init). */
static void unreserve_run_file(const char *dir)
{
    int dfd = util_dir_open(AT_FDCWD, dir, 1);
    if (dfd >= 0) {
        unlinkat(dfd, LOG_RUN_ROOM, 0);
        close(dfd);
    }
}

/* Signs the finished run description (launch.h), so that this user's
 * replays start the run without asking: last, over every line. */
static void sign_run(const char *dir)
{
    char err[4600];
    if (launch_run_sign(dir, err, sizeof err) < 0)
        fprintf(stderr, "drdb: warning: %s; a replay of the run will need "
                "--trust, or 'drdb log sign %s' once that works\n", err, dir);
}

/* The ranks to record, as the recorder reads them (DRDB_ENV_RANKS: ranges
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

/* Whether PROG can be run as execvp() would find it: 0, or an errno. */
static int runnable(const char *prog)
{
    struct stat st;
    if (strchr(prog, '/')) {
        if (stat(prog, &st) < 0)
            return errno;
        return S_ISDIR(st.st_mode) ? EISDIR
               : access(prog, X_OK) < 0 ? errno : 0;
    }
    const char *path = getenv("PATH");
    char cand[PATH_MAX];
    for (const char *p = path && *path ? path : "/usr/bin:/bin"; p;) {
        const char *colon = strchr(p, ':');
        int n = colon ? (int)(colon - p) : (int)strlen(p);
        snprintf(cand, sizeof cand, "%.*s%s%s", n, p, n ? "/" : "", prog);
        if (stat(cand, &st) == 0 && S_ISREG(st.st_mode) &&
            access(cand, X_OK) == 0)
            return 0;
        p = colon ? colon + 1 : NULL;
    }
    return ENOENT;
}

/* DRDB_ENV_CAPTURE_INPUTS for the recorder (recorder/rec-files.c): the
 * working directory and each PATH given, absolute and normal, separated by
 * DRDB_CAPTURE_SEP. NULL after an error message. */
static char *capture_scope(char **paths, int n)
{
    char cwd[PATH_MAX], abs[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd)) {
        fe_error("cannot tell the working directory: %s", strerror(errno));
        return NULL;
    }
    size_t len = strlen(cwd) + 1;
    for (int i = 0; i < n; i++)
        len += PATH_MAX + 1;
    char *s = malloc(len);
    if (!s) {
        fe_error("out of memory");
        return NULL;
    }
    snprintf(s, len, "%s", cwd);
    for (int i = 0; i < n; i++) {
        if (util_path_abs(cwd, paths[i], abs, sizeof abs) < 0) {
            free(s);
            fe_error("--capture-inputs '%s': the path is too long", paths[i]);
            return NULL;
        }
        if (access(abs, F_OK) != 0)
            fprintf(stderr, "drdb: warning: --capture-inputs '%s': %s\n",
                    paths[i], strerror(errno));
        strcat(s, DRDB_CAPTURE_SEP);
        strcat(s, abs);
    }
    return s;
}

/* LOG_RECORDING_FILE in the run directory, locked while drdb record is
 * at work (log-format.h): -1 when there is none. */
static int recording_fd = -1;

/* Marks run DIR as being recorded: a drdb record killed before it
 * concluded the run leaves the mark unlocked, and `drdb log info` says the
 * run was interrupted. A mark that cannot be made costs only that. */
static void mark_recording(const char *dir)
{
    int dfd = util_dir_open(AT_FDCWD, dir, 1);
    int fd = dfd < 0 ? dfd : util_file_create(dfd, LOG_RECORDING_FILE, 0);
    if (dfd >= 0)
        close(dfd);
    if (fd >= 0 && flock(fd, LOCK_EX) == 0)
        recording_fd = fd;
    else if (fd >= 0)
        close(fd);
}

/* The run is concluded: the mark goes. */
static void unmark_recording(const char *dir)
{
    int dfd = util_dir_open(AT_FDCWD, dir, 1);
    if (dfd >= 0) {
        unlinkat(dfd, LOG_RECORDING_FILE, 0);
        close(dfd);
    }
    if (recording_fd >= 0)
        close(recording_fd);
    recording_fd = -1;
}

/*
 * Rank 0's standard input, recorded: a process of drdb's reads drdb's
 * standard input and writes it both to the run directory's LOG_STDIN_FILE
 * (mode 0600, made new) and to the pipe the launcher reads as its standard
 * input (mpiexec passes it on to rank 0). It ends with its input, or when
 * the launcher has ended. The launcher's end of the pipe into *LAUNCHER_IN;
 * the process, or -1 after an error message (then nothing is recorded).
 */
static pid_t tee_stdin(const char *dir, int *launcher_in)
{
    int p[2];
    int dfd = util_dir_open(AT_FDCWD, dir, 1);
    int fd = dfd < 0 ? dfd : util_file_create(dfd, LOG_STDIN_FILE, O_WRONLY);
    if (dfd >= 0)
        close(dfd);
    if (fd < 0 || pipe2(p, O_CLOEXEC) < 0) {
        fe_error("cannot record the standard input in '%s': %s; it goes to "
                 "the launcher unrecorded", dir,
                 strerror(fd < 0 ? -fd : errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    pid_t parent = getpid(), pid = fork();
    if (pid == 0) {
        char buf[65536];
        ssize_t got;
        close(p[0]);
        life_die_with_parent(parent);
        if (recording_fd >= 0)
            close(recording_fd); /* the mark's lock is drdb's alone */
        signal(SIGPIPE, SIG_IGN);
        int to_launcher = 1;
        while ((got = read(0, buf, sizeof buf)) != 0) {
            if (got < 0 && errno == EINTR)
                continue;
            if (got < 0 || util_write_all(fd, buf, (size_t)got) < 0)
                break;
            if (to_launcher && util_write_all(p[1], buf, (size_t)got) < 0)
                to_launcher = 0; /* the launcher closed it: record on */
        }
        _exit(0);
    }
    close(fd);
    close(p[1]);
    if (pid < 0) {
        close(p[0]);
        fe_error("cannot fork: %s", strerror(errno));
        return -1;
    }
    *launcher_in = p[0];
    return pid;
}

static pid_t child;
static volatile sig_atomic_t interrupted;

static void forward(int sig)
{
    if (child > 0)
        kill(child, sig);
}

/* Ctrl-C reaches the launcher through the terminal; drdb notes it. */
static void on_int(int sig)
{
    (void)sig;
    interrupted = 1;
}

struct record_opts {
    const char *outdir;
    char *ranks; /* as the recorder reads them (record_ranks) */
    int send_data, no_compress, no_stdin, no_libc, aslr;
    int zmode; /* --compress */
    struct fe_words capture;
    struct fe_rec_limits limits;
};

static int ranks_opt(void *dst, const struct fe_opt *o, const char *arg)
{
    (void)o;
    char **ranks = dst;
    free(*ranks);
    if (!(*ranks = record_ranks(arg)))
        return fe_error("--ranks '%s' is not a rank list like '0-3,8'", arg),
               -1;
    return 0;
}

static int compress_opt(void *dst, const struct fe_opt *o, const char *arg)
{
    (void)o;
    struct record_opts *r = dst;
    static const char *const modes[] = {"auto", "now", "background"};
    r->no_compress = !strcmp(arg, "no");
    for (int i = 0; i < 3; i++)
        if (!strcmp(arg, modes[i])) {
            r->zmode = i == 0 ? FE_Z_AUTO : i == 1 ? FE_Z_NOW
                                                   : FE_Z_BACKGROUND;
            return 0;
        }
    if (r->no_compress)
        return 0;
    return fe_error("--compress takes auto, now, background or no, not "
                    "'%s'", arg), -1;
}

static int limit_opt(void *dst, const struct fe_opt *o, const char *arg)
{
    (void)o;
    return fe_rec_limit_opt(dst, arg);
}

static int timeout_opt(void *dst, const struct fe_opt *o, const char *arg)
{
    (void)o;
    struct fe_rec_limits *l = dst;
    if (fe_parse_double(arg, &l->timeout) < 0 || !(l->timeout > 0))
        return fe_error("--timeout '%s' is not a number of seconds above 0, "
                        "like 30 or 2.5", arg), -1;
    return 0;
}

#define OFF(f) offsetof(struct record_opts, f)
static const struct fe_opt record_opts[] = {
    FE_STR('o', "output", "DIR", OFF(outdir), "run directory (default: a new "
     "./drdb-run-DATE-TIME): made mode 0700 with its parents, or an existing "
     "empty directory of yours that no one else can write"),
    FE_CALL('r', "ranks", "LIST", OFF(ranks), ranks_opt, "record only these "
     "ranks, e.g. 0-3,8 (default: all)"),
    FE_FLAG(0, "send-data", OFF(send_data), "also log the data of sends (for "
     "checking; larger logs)"),
    FE_CALL(0, "compress", "MODE", 0, compress_opt, "when to compress "
     "message data with zstd once the ranks have exited: now (drdb waits, "
     "showing progress), background (drdb returns; the run is usable "
     "meanwhile: 'drdb log compress --wait DIR' waits), no (--no-compress), "
     "auto (the default: in the background when the logs take 512 MB or "
     "more, else now)"),
    FE_FLAG(0, "no-compress", OFF(no_compress), NULL),
    FE_WORDS(0, "capture-inputs", "PATH", OFF(capture), "store in "
     "DIR/inputs/ the regular files each rank opens for reading under the "
     "working directory (and the PATHs, files or directories): the replay "
     "reads them there, on any machine"),
    FE_FLAG(0, "no-stdin", OFF(no_stdin), "do not record standard input (by "
     "default it is passed on to the launcher and kept in DIR/stdin for rank "
     "0's replay)"),
    FE_FLAG(0, "no-libc", OFF(no_libc), "do not record the results of the "
     "program's calls of time, gettimeofday, clock_gettime, getpid, getppid, "
     "getrandom, gethostname, uname... (recorded by default into "
     "DIR/rank-R.sys, so that the replay sees the same values); the replay "
     "then runs them live"),
    FE_FLAG(0, "aslr", OFF(aslr), "leave address-space randomization on (by "
     "default the ranks run without it, as the replay does, so that heap and "
     "stack addresses match)"),
    FE_CALL(0, "max-log-size", "SIZE", OFF(limits), limit_opt, "stop logging "
     "a rank when its log reaches SIZE (500M, 2G; at least 1M); total=SIZE: "
     "when the run's logs together reach it (shared by the ranks of a "
     "machine). The program goes on; the log is replayable up to the stop. "
     "Both may be given. While the run goes on, drdb warns when the logs' "
     "rate would fill the disk; the summary gives it"),
    FE_CALL(0, "timeout", "SECONDS", OFF(limits), timeout_opt, "stop a run "
     "still going after SECONDS (a hung run): SIGTERM to the launcher, "
     "SIGKILL 10 s later; the logs are kept, each rank's call in progress "
     "too, for `drdb check --checks 'deadlock.*'`"),
    FE_END,
};
#undef OFF

/* The environment the launcher passes on to every rank, for the recorder
 * LIB to record run DIR as O says, LAUNCHER the command (CAPTURE: the
 * inputs to capture, or NULL): 0, or -1 after an error message. */
static int record_env(const struct record_opts *o, const char *lib,
                      const char *dir, char **launcher, const char *capture)
{
    /* The real MPI, never drdb's replay stub, even if the caller's paths
     * name it. */
    fe_env_drop_stub("LD_LIBRARY_PATH");
    fe_env_drop_stub("LD_PRELOAD");
    unsetenv(DRDB_ENV_REPLAY_DIR);
    unsetenv(DRDB_ENV_REPLAY_RANK);
    const char *pre = getenv("LD_PRELOAD");
    size_t plen = strlen(lib) + (pre ? strlen(pre) : 0) + 2;
    char *preload = malloc(plen);
    if (!preload)
        return fe_error("out of memory"), -1;
    snprintf(preload, plen, "%s%s%s", lib, pre && *pre ? ":" : "",
             pre ? pre : "");
    size_t clen = 1;
    for (int i = 0; launcher[i]; i++)
        clen += strlen(launcher[i]) + 1;
    char *cmdline = calloc(1, clen);
    if (!cmdline) {
        free(preload);
        return fe_error("out of memory"), -1;
    }
    for (int i = 0; launcher[i]; i++) {
        strcat(cmdline, launcher[i]);
        if (launcher[i + 1])
            strcat(cmdline, " ");
    }
    setenv("LD_PRELOAD", preload, 1);
    setenv(DRDB_ENV_RUN_DIR, dir, 1);
    setenv(DRDB_ENV_COMMAND, cmdline, 1);
    if (o->ranks)
        setenv(DRDB_ENV_RANKS, o->ranks, 1);
    if (o->send_data)
        setenv(DRDB_ENV_SEND_DATA, "1", 1);
    if (capture)
        setenv(DRDB_ENV_CAPTURE_INPUTS, capture, 1);
    if (!o->no_libc)
        unsetenv(DRDB_ENV_NO_LIBC);
    else
        setenv(DRDB_ENV_NO_LIBC, "1", 1);
    free(preload);
    free(cmdline);
    return 0;
}

/* In the launcher's process, before its exec: no address-space
 * randomization (unless ASLR), for the ranks it starts. */
static void child_layout(int aslr)
{
    /* The ranks inherit it through the launcher's fork and exec: a
     * deterministic program's heap and stack are where the replay, run
     * the same way, puts them (docs/replaying.md). A kernel that refuses
     * it leaves randomization on: the run is still recorded. */
    if (aslr)
        return;
    int pers = personality(0xffffffff);
    if (pers != -1)
        personality((unsigned long)pers | ADDR_NO_RANDOMIZE);
    /* Room in the ranks' environment (and so on their stacks), which a
     * replay, whose environment holds more of drdb's variables (paths in
     * the run directory), gives back to lay the stack out as recorded
     * (launch_pad_env). */
    static char room[sizeof DRDB_ENV_STACK_ROOM "=" + 4096];
    memset(room, 'x', sizeof room - 1);
    memcpy(room, DRDB_ENV_STACK_ROOM "=", sizeof DRDB_ENV_STACK_ROOM "=" - 1);
    putenv(room);
}

/* Starts LAUNCHER recording into DIR (rank 0's standard input through a
 * tee unless NO_STDIN: *TEE). The launcher's pid; -1 when it could not
 * start (its exec failed: said, and the empty run directory removed), -2
 * when drdb could not fork (said). */
static pid_t launch(char **launcher, const char *dir, int no_stdin,
                    int aslr, pid_t *tee)
{
    /* The child reports a failed exec through a close-on-exec pipe: then
     * nothing ran, and the empty run directory goes. Made after the stdin
     * tee: the tee, which execs nothing and lives as long as the terminal
     * gives input, must not hold its writing end (the read below would
     * then wait for the user's Ctrl-D, the run long over). */
    int launcher_in = -1;
    *tee = no_stdin ? -1 : tee_stdin(dir, &launcher_in);
    int pfd[2];
    if (pipe2(pfd, O_CLOEXEC) < 0)
        return fe_error("cannot create a pipe: %s", strerror(errno)), -2;
    fflush(NULL);
    pid_t parent = getpid(), pid = fork();
    if (pid < 0)
        return fe_error("cannot fork: %s", strerror(errno)), -2;
    if (pid == 0) {
        close(pfd[0]);
        /* The job dies with drdb, even killed with SIGKILL: the launcher
         * first, and its ranks with it (mpiexec's proxies end their ranks
         * when it is gone; docs/security.md). */
        if (life_die_with_parent(parent) < 0)
            _exit(127);
        if (launcher_in >= 0)
            dup2(launcher_in, 0);
        child_layout(aslr);
        execvp(launcher[0], launcher);
        int err = errno;
        if (write(pfd[1], &err, sizeof err) < 0)
            _exit(127);
        _exit(127);
    }
    close(pfd[1]);
    if (launcher_in >= 0)
        close(launcher_in);
    int exec_err = 0;
    ssize_t got;
    while ((got = read(pfd[0], &exec_err, sizeof exec_err)) < 0 &&
           errno == EINTR)
        ;
    close(pfd[0]);
    if (got != (ssize_t)sizeof exec_err)
        return pid;
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
        ;
    if (*tee > 0) {
        kill(*tee, SIGKILL);
        waitpid(*tee, NULL, 0);
        int dfd = util_dir_open(AT_FDCWD, dir, 1);
        if (dfd >= 0) {
            unlinkat(dfd, LOG_STDIN_FILE, 0);
            close(dfd);
        }
    }
    unreserve_run_file(dir);
    fe_rec_limits_done(dir);
    unmark_recording(dir);
    rmdir(dir);
    fe_error("cannot run '%s': %s; nothing was recorded", launcher[0],
             strerror(exec_err));
    return -1;
}

/* Whether a rank of the run in DIR started: its log, or rank 0's run
 * description, is there. */
static int rank_started(const char *dir)
{
    int started = 0;
    DIR *d = opendir(dir);
    for (struct dirent *e; d && !started && (e = readdir(d));)
        started = !strncmp(e->d_name, "rank-", 5) ||
                  !strcmp(e->d_name, LOG_RUN_FILE);
    if (d)
        closedir(d);
    return started || !d;
}

/* After the launcher ended with STATUS: the run directory DIR finished,
 * what it holds said; the exit status of drdb record. */
static int conclude(const struct record_opts *o, const char *dir,
                    int status, const struct fe_rec_volume *vol)
{
    int code = WIFEXITED(status) ? WEXITSTATUS(status)
                                 : 128 + WTERMSIG(status);
    int run_interrupted = interrupted; /* (not a Ctrl-C after the run) */
    unreserve_run_file(dir);
    fe_rec_limits_done(dir);
    unmark_recording(dir);
    if (!rank_started(dir)) {
        /* The launcher failed before any rank reached MPI (a program it
         * cannot find: its own message above says so). */
        int dfd = util_dir_open(AT_FDCWD, dir, 1);
        if (dfd >= 0) {
            unlinkat(dfd, LOG_STDIN_FILE, 0);
            close(dfd);
        }
        int kept = rmdir(dir) < 0;
        if (code)
            fprintf(stderr, "drdb: no rank started: the launcher exited with "
                    "status %d before any reached MPI (its messages above "
                    "say why); nothing was recorded", code);
        else
            fprintf(stderr, "drdb: no rank called MPI (the launcher exited "
                    "with status 0): nothing was recorded; is the program an "
                    "MPI program built against MPICH?");
        fprintf(stderr, "%s%s\n", kept ? "; what is left is in " : "",
                kept ? dir : "");
        return code ? code : 1;
    }
    sign_run(dir);
    fe_rec_volume_print(vol, stderr);
    if (vol->stopped)
        fprintf(stderr, "drdb: the run was stopped at --timeout %g s (%s): "
                "each log ends at its rank's last completed call; `drdb "
                "check --checks 'deadlock.*' %s` says what the ranks were "
                "waiting for\n", o->limits.timeout,
                vol->stopped == 2 ? "SIGTERM, then SIGKILL" : "SIGTERM", dir);
    if (!o->no_compress)
        fe_rec_compress(dir, o->zmode);
    fe_log_summary(dir, stderr, 1);
    if (code)
        fprintf(stderr, "drdb: recorded run: %s (the launcher exited with "
                "status %d: a rank's own exit status, or the launcher's "
                "failure)\n", dir, code);
    else
        fprintf(stderr, "drdb: recorded run: %s\n", dir);
    /* The launcher's status, unless it succeeded and the recording is not
     * whole, or ranks ended early (a launcher may say success when its
     * ranks were interrupted): then 1, with the ranks named; 130 after a
     * Ctrl-C the launcher took for a success. */
    int ended = 0;
    int lost = fe_rec_verdict(dir, getenv(DRDB_ENV_RANKS), &ended);
    if (lost)
        fprintf(stderr, "drdb: the recording is not whole: %s\n",
                lost < 0 ? "the run cannot be opened"
                         : "the ranks above have no log or a cut one");
    if (run_interrupted)
        fprintf(stderr, "drdb: the run was interrupted (Ctrl-C): each log "
                "ends at its rank's last completed call, replayable that "
                "far\n");
    else if (!code && !lost && ended)
        fprintf(stderr, "drdb: the launcher exited with status 0, but the "
                "ranks above ended before MPI_Finalize\n");
    return code ? code : lost ? 1 : run_interrupted ? 130 : ended ? 1 : 0;
}

static int run(int argc, char **argv)
{
    static struct record_opts o = {.zmode = FE_Z_AUTO};
    struct fe_pos pos;
    if (fe_subcmd_parse(&fe_sub_record, argc, argv, &o, 0, &pos) < 0)
        return 2;
    if (pos.rest >= argc) {
        fe_error("no command to record; for example: drdb record -- "
                 "mpiexec -n 4 ./app");
        return 2;
    }
    char **launcher = argv + pos.rest;
    char *capture = NULL;
    if (o.capture.given &&
        !(capture = capture_scope(o.capture.v, o.capture.n)))
        return 2;

    char lib[PATH_MAX], dir[PATH_MAX];
    if (find_recorder(lib, sizeof lib) < 0)
        return fe_error("cannot find " DRDB_RECORDER_LIB "; set "
                        DRDB_ENV_RECORD_LIB " to its path");
    /* A launcher that cannot start is said once, before any directory is
     * made (execvp's own failure below covers what this cannot see). */
    int e = runnable(launcher[0]);
    if (e) {
        fe_error("cannot run '%s': %s; nothing was recorded", launcher[0],
                 strerror(e));
        return 127;
    }
    /* Another MPI's program, or launcher: the recorder would crash it. */
    if (launch_mpi_check_launch(launcher) < 0)
        return 1;
    if (make_run_dir(o.outdir, dir, sizeof dir))
        return 1;
    if (reserve_run_file(dir)) {
        rmdir(dir);
        return 1;
    }
    if (fe_rec_limits_apply(&o.limits, dir) < 0) {
        unreserve_run_file(dir);
        rmdir(dir);
        return 1;
    }
    int rc = record_env(&o, lib, dir, launcher, capture);
    free(o.ranks);
    free(capture);
    if (rc < 0)
        return 1;
    pid_t tee;
    mark_recording(dir);
    child = launch(launcher, dir, o.no_stdin, o.aslr, &tee);
    if (child < 0)
        return child == -1 ? 127 : 1;
    fprintf(stderr, "drdb: recording into %s\n", dir);
    /* Ctrl-C reaches the launcher through the terminal; TERM/HUP sent to
     * drdb alone are passed on, so the ranks are not left behind. */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_int;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    signal(SIGTERM, forward);
    signal(SIGHUP, forward);
    int status = 0;
    struct fe_rec_volume vol;
    fe_rec_wait(child, dir, &o.limits, &status, &vol);
    /* The launcher is gone: what it did not read is not rank 0's. (KILL:
     * a tee reading a terminal in the background is stopped.) */
    if (tee > 0) {
        kill(tee, SIGKILL);
        while (waitpid(tee, NULL, 0) < 0 && errno == EINTR)
            ;
    }
    return conclude(&o, dir, status, &vol);
}

const struct fe_subcmd fe_sub_record = {
    .name = "record",
    .args = "-- LAUNCHER [ARGS...]",
    .summary = "record an MPI run: every rank's MPI calls into a run directory",
    .help = "Runs LAUNCHER (mpiexec, srun, or the program itself) with the "
            "recorder preloaded\ninto every rank; each rank writes DIR/rank-R.log "
            "and rank 0 writes DIR/drdb.run.\nThe exit status is the "
            "launcher's, or 1 when it succeeded but a rank's log is\n"
            "missing or cut short (a full disk): the ranks are named.\n",
    .opts = record_opts,
    .more = "example:\n  drdb record -o run1 -- mpiexec -n 4 ./app input.dat\n",
    .run = run,
};
