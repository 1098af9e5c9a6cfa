/*
 * The program's files in a replay: inputs served from the run directory,
 * outputs kept away from the recorded run's (docs/replaying.md, "Files").
 *
 * The stub interposes the libc functions that take a file's name (open
 * and its relatives, fopen, freopen, creat, stat, access, unlink, rename,
 * mkdir, rmdir) and maps the name:
 *
 *  - a name opened to write (or removed, renamed, made) goes to the
 *    replay's own directory, $DRDB_REPLAY_OUT: OUT/cwd/REL for a file
 *    under the recorded working directory, OUT/root/PATH for any other
 *    (/tmp/x: OUT/root/tmp/x); /dev, /proc, /sys, the run directory and
 *    drdb's own directories are never mapped. A file changed in place (not
 *    truncated) is first copied there from what it was (below). A name
 *    the replay removed is gone for the replay alone.
 *  - a name opened to read is, in order: the replay's own copy (it wrote
 *    the file), the file captured at the matching open of the recording
 *    (inputs/HASH, from the rank's index: the k-th open of a name gets the
 *    content of the k-th recorded one, the last one after that), or the
 *    name itself.
 *
 * Without $DRDB_REPLAY_OUT (drdb replay --write-in-place) writes go where
 * the program says. Names relative to a directory descriptor other than
 * the working directory are left alone. Calls the stub makes for itself
 * (inside an MPI call: drdb_current_fn; or from the stub's code, by the
 * caller's address: rpl_sys_wanted) pass through.
 *
 * Rank 0's recorded standard input: at load time, in rank 0,
 * $DRDB_REPLAY_STDIN becomes file descriptor 0.
 */
/* open and open64 (fopen, fopen64, stat, stat64...) are each defined here:
 * not the one under the other's name. */
#undef _FILE_OFFSET_BITS
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "interpose.h"
#include "log-format.h"
#include "rpl.h"
#include "util.h"

struct input {
    char *path;
    char hex[65];
    int used;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static __thread int busy;
static int state; /* 0: not set up, 1: mapping, -1: off */
static char run_dir[PATH_MAX], out_dir[PATH_MAX], rec_cwd[PATH_MAX],
    start_cwd[PATH_MAX], ckpt_dir[PATH_MAX], report_dir[PATH_MAX];
static struct input *inputs;
static size_t ninputs, cap_inputs;
static char **gone; /* removed by the replay */
static size_t ngone, cap_gone;

static void env_path(const char *name, char *out, int dir_of)
{
    const char *v = getenv(name);
    char cwd[PATH_MAX] = "/";
    out[0] = '\0';
    if (!v || !*v || (v[0] != '/' && !getcwd(cwd, sizeof cwd)) ||
        util_path_abs(cwd, v, out, PATH_MAX) < 0) {
        out[0] = '\0';
        return;
    }
    char *slash = dir_of ? strrchr(out, '/') : NULL;
    if (slash)
        *(slash == out ? slash + 1 : slash) = '\0';
}

/* Reads the rank's index of captured inputs (log-format.md). */
static void read_index(const char *rank)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/" LOG_INPUTS_DIR "/" LOG_INPUTS_INDEX,
             run_dir, atoi(rank));
    UTIL_REAL(int, open, (const char *, int, ...));
    int fd = real_open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return;
    char *text = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (util_grow(&text, &cap, len + 65537, 1) < 0)
            break;
        ssize_t got = read(fd, text + len, 65536);
        if (got <= 0)
            break;
        len += (size_t)got;
    }
    close(fd);
    if (!text)
        return;
    text[len] = '\0';
    for (char *line = text; *line;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        char *sp = strchr(line, ' '), *sp2 = sp ? strchr(sp + 1, ' ') : NULL;
        if (sp && sp - line == 64 && sp2 &&
            util_grow(&inputs, &cap_inputs, ninputs + 1, sizeof *inputs) == 0) {
            struct input *in = &inputs[ninputs];
            char *p = sp2 + 1, *q = p;
            for (; *p; p++) /* unescape in place */
                *q++ = p[0] == '\\' && p[1] ? (++p, *p == 'n' ? '\n' : *p)
                                            : *p;
            *q = '\0';
            memcpy(in->hex, line, 64);
            in->hex[64] = '\0';
            in->used = 0;
            if ((in->path = strdup(sp2 + 1)))
                ninputs++;
        }
        if (!nl)
            break;
        line = nl + 1;
    }
    free(text);
}

static void setup(void)
{
    struct log_run run;
    char err[256];
    const char *rank = getenv(DRDB_ENV_REPLAY_RANK);
    state = -1;
    env_path(DRDB_ENV_REPLAY_DIR, run_dir, 0);
    if (!run_dir[0] || !rank || !getcwd(start_cwd, sizeof start_cwd))
        return;
    env_path(DRDB_ENV_REPLAY_OUT, out_dir, 0);
    env_path(DRDB_ENV_CKPT_DIR, ckpt_dir, 0);
    env_path(DRDB_ENV_REPLAY_REPORT, report_dir, 1);
    snprintf(rec_cwd, sizeof rec_cwd, "%s", start_cwd);
    if (log_run_open(&run, run_dir, err, sizeof err) == 0) {
        char cwd[PATH_MAX];
        if (log_run_get(&run, "cwd", cwd, sizeof cwd) && cwd[0] == '/')
            util_path_abs("/", cwd, rec_cwd, sizeof rec_cwd);
        log_run_release(&run);
    }
    read_index(rank);
    state = 1;
}

/* Whether the call (from UTIL_CALLER) is the program's, and mapping is on: then
 * the lock is held (done() releases it). */
static int begin(const void *ra)
{
    if (busy || drdb_current_fn || !rpl_sys_wanted(ra))
        return 0;
    busy = 1;
    pthread_mutex_lock(&lock);
    if (state == 0)
        setup();
    if (state > 0)
        return 1;
    pthread_mutex_unlock(&lock);
    busy = 0;
    return 0;
}

static void done(void)
{
    pthread_mutex_unlock(&lock);
    busy = 0;
}

/* The key of PATH: absolute, normal, and under the recorded working
 * directory when it is under the replay's (which may be elsewhere). 0, or
 * -1 when it is not mapped. */
static int key_of(const char *path, char key[PATH_MAX])
{
    char cwd[PATH_MAX], abs[PATH_MAX];
    static const char *const never[] = {"/dev", "/proc", "/sys"};
    if (!path || (path[0] != '/' && !getcwd(cwd, sizeof cwd)) ||
        util_path_abs(cwd, path, abs, sizeof abs) < 0)
        return -1;
    for (size_t i = 0; i < sizeof never / sizeof never[0]; i++)
        if (util_path_under(abs, never[i]))
            return -1;
    const char *own[] = {run_dir, out_dir, ckpt_dir, report_dir};
    for (size_t i = 0; i < sizeof own / sizeof own[0]; i++)
        if (own[i][0] && util_path_under(abs, own[i]))
            return -1;
    const char *rest = util_path_under(abs, start_cwd);
    if (rest && strcmp(start_cwd, rec_cwd) != 0) {
        if (snprintf(key, PATH_MAX, "%s%s%s", rec_cwd, *rest ? "/" : "",
                     rest) >= PATH_MAX)
            return -1;
    } else {
        snprintf(key, PATH_MAX, "%s", abs);
    }
    return 0;
}

/* Where the replay keeps its copy of KEY (OUT must be set). */
static int out_of(const char *key, char out[PATH_MAX])
{
    const char *rest = util_path_under(key, rec_cwd);
    int n = rest ? snprintf(out, PATH_MAX, "%s/cwd%s%s", out_dir,
                            *rest ? "/" : "", rest)
                 : snprintf(out, PATH_MAX, "%s/root%s", out_dir, key);
    return n < PATH_MAX ? 0 : -1;
}

static int exists(const char *path)
{
    struct stat st;
    UTIL_REAL(int, lstat, (const char *, struct stat *));
    return real_lstat(path, &st) == 0;
}

static size_t gone_at(const char *key)
{
    for (size_t i = 0; i < ngone; i++)
        if (strcmp(gone[i], key) == 0)
            return i;
    return (size_t)-1;
}

static void set_gone(const char *key, int on)
{
    size_t i = gone_at(key);
    if (!on && i != (size_t)-1) {
        free(gone[i]);
        gone[i] = gone[--ngone];
    } else if (on && i == (size_t)-1 &&
               util_grow(&gone, &cap_gone, ngone + 1, sizeof *gone) == 0 &&
               (gone[ngone] = strdup(key))) {
        ngone++;
    }
}

/* The captured content of KEY's next open (CONSUME) or current one, as a
 * path into STORE; 0, or -1 when KEY was not captured. */
static int captured(const char *key, int consume, char store[PATH_MAX])
{
    struct input *last = NULL;
    for (size_t i = 0; i < ninputs; i++) {
        if (strcmp(inputs[i].path, key) != 0)
            continue;
        last = &inputs[i];
        if (!inputs[i].used)
            break;
    }
    if (!last)
        return -1;
    /* peeking: the content the last open served */
    if (!consume && !last->used)
        for (size_t i = (size_t)(last - inputs); i-- > 0;)
            if (inputs[i].used && strcmp(inputs[i].path, key) == 0) {
                last = &inputs[i];
                break;
            }
    if (consume)
        last->used = 1;
    return snprintf(store, PATH_MAX, "%s/" LOG_INPUTS_DIR "/%s", run_dir,
                    last->hex) < PATH_MAX ? 0 : -1;
}

/* PATH to read (CONSUME: an open, which takes the next captured content):
 * the name to use, in BUF or PATH itself. */
static const char *map_read(const char *path, int consume, char *buf,
                            const void *ra)
{
    char key[PATH_MAX];
    if (!begin(ra))
        return path;
    const char *use = path;
    if (key_of(path, key) == 0) {
        if (out_dir[0] && out_of(key, buf) == 0 &&
            (exists(buf) || gone_at(key) != (size_t)-1))
            use = buf;
        else if (captured(key, consume, buf) == 0)
            use = buf;
    }
    done();
    return use;
}

/* Makes the directories above OUT inside the replay's directory. */
static void make_parents(char *out)
{
    UTIL_REAL(int, mkdir, (const char *, mode_t));
    size_t base = strlen(out_dir);
    for (char *s = out + base + 1; (s = strchr(s, '/')); s++) {
        *s = '\0';
        real_mkdir(out, 0700);
        *s = '/';
    }
}

/* Copies FROM to the new file TO (mode 0600). */
static void copy_file(const char *from, const char *to)
{
    UTIL_REAL(int, open, (const char *, int, ...));
    char buf[65536];
    int in = real_open(from, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (in < 0 || fstat(in, &st) < 0 || !S_ISREG(st.st_mode)) {
        if (in >= 0)
            close(in);
        return;
    }
    int out = real_open(to, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
                        O_CLOEXEC, 0600);
    ssize_t got;
    while (out >= 0 && (got = read(in, buf, sizeof buf)) > 0)
        if (util_write_all(out, buf, (size_t)got) < 0)
            break;
    close(in);
    if (out >= 0)
        close(out);
}

/* PATH changed by the program (FLAGS: open's): the replay's copy, in BUF,
 * or PATH itself. The copy starts as the file was at the matching open of
 * the recording (its capture); without one, as the file is now, unless
 * O_TRUNC (its old content does not matter) or O_CREAT (it may not have
 * existed then: it starts empty). */
static const char *map_write(const char *path, int flags, char *buf,
                             const void *ra)
{
    char key[PATH_MAX], from[PATH_MAX];
    if (!begin(ra))
        return path;
    if (!out_dir[0]) {
        done();
        return path;
    }
    const char *use = path;
    if (key_of(path, key) == 0 && out_of(key, buf) == 0) {
        use = buf;
        make_parents(buf);
        if (!exists(buf) && !(flags & O_TRUNC) && gone_at(key) == (size_t)-1) {
            if (captured(key, 1, from) == 0)
                copy_file(from, buf);
            else if (!(flags & O_CREAT))
                copy_file(path, buf);
        }
        set_gone(key, 0);
    }
    done();
    return use;
}

/* ---- standard input ------------------------------------------------------- */

__attribute__((constructor)) static void recorded_stdin(void)
{
    const char *p = getenv(DRDB_ENV_REPLAY_STDIN);
    const char *rank = getenv(DRDB_ENV_REPLAY_RANK);
    if (!p || !*p || !rank || strcmp(rank, "0") != 0)
        return; /* rank 0's (mpiexec gives it to rank 0 alone) */
    UTIL_REAL(int, open, (const char *, int, ...));
    int fd = real_open(p, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        fprintf(stderr, "drdb-replay: cannot open the recorded standard "
                "input '%s': %s\n", p, strerror(errno));
        return;
    }
    dup2(fd, 0);
    close(fd);
}

/* ---- the interposed functions -------------------------------------------- */

/* Whether PATH names a file by the working directory or absolutely (a
 * name relative to another directory descriptor is left alone). */
static int by_cwd(int dirfd, const char *path)
{
    return path && (dirfd == AT_FDCWD || path[0] == '/');
}

static const char *map_open(int dirfd, const char *path, int flags, char *buf,
                            const void *ra)
{
    if (!by_cwd(dirfd, path))
        return path;
    return util_open_writes(flags) ? map_write(path, flags, buf, ra)
                         : map_read(path, 1, buf, ra);
}

static void opened(int dirfd, const char *path, int flags, int fd,
                   const void *ra)
{
    (void)dirfd, (void)flags, (void)ra;
    rpl_devrandom_opened(path, fd);
}

UTIL_INTERPOSE_OPEN(map_open, opened)

/* Looking at a name: what the replay would open. */
#define STAT_LIKE(name, st_type)                                            \
    int name(const char *path, struct st_type *st)                          \
    {                                                                       \
        char buf[PATH_MAX];                                                 \
        UTIL_REAL(int, name, (const char *, struct st_type *));                \
        return real_##name(map_read(path, 0, buf, UTIL_CALLER), st);                 \
    }
STAT_LIKE(stat, stat)
STAT_LIKE(stat64, stat64)
STAT_LIKE(lstat, stat)
STAT_LIKE(lstat64, stat64)

#define FSTATAT_LIKE(name, st_type)                                         \
    int name(int dirfd, const char *path, struct st_type *st, int fl)       \
    {                                                                       \
        char buf[PATH_MAX];                                                 \
        UTIL_REAL(int, name, (int, const char *, struct st_type *, int));      \
        return real_##name(dirfd, by_cwd(dirfd, path) ? map_read(path, 0,   \
                                                                 buf, UTIL_CALLER)  \
                                                      : path, st, fl);      \
    }
FSTATAT_LIKE(fstatat, stat)
FSTATAT_LIKE(fstatat64, stat64)

int access(const char *path, int how)
{
    char buf[PATH_MAX];
    UTIL_REAL(int, access, (const char *, int));
    return real_access(map_read(path, 0, buf, UTIL_CALLER), how);
}

int faccessat(int dirfd, const char *path, int how, int fl)
{
    char buf[PATH_MAX];
    UTIL_REAL(int, faccessat, (int, const char *, int, int));
    return real_faccessat(dirfd, by_cwd(dirfd, path)
                                     ? map_read(path, 0, buf, UTIL_CALLER) : path,
                          how, fl);
}

/* Removing a name: the replay's copy goes, and the name is gone for the
 * replay; the recorded run's file stays. */
static int remove_name(const char *path, int dir, const void *ra)
{
    char key[PATH_MAX], out[PATH_MAX];
    UTIL_REAL(int, unlink, (const char *));
    UTIL_REAL(int, rmdir, (const char *));
    int (*real)(const char *) = dir ? real_rmdir : real_unlink;
    if (!begin(ra))
        return real(path);
    if (!out_dir[0]) {
        done();
        return real(path);
    }
    int rc;
    if (key_of(path, key) < 0 || out_of(key, out) < 0) {
        done();
        return real(path);
    }
    char store[PATH_MAX];
    int there = gone_at(key) == (size_t)-1 &&
                (exists(path) || captured(key, 0, store) == 0);
    rc = real(out);
    if (rc < 0 && errno == ENOENT && there)
        rc = 0, errno = 0;
    if (rc == 0)
        set_gone(key, 1);
    done();
    return rc;
}

int unlink(const char *path)
{
    return remove_name(path, 0, UTIL_CALLER);
}

int rmdir(const char *path)
{
    return remove_name(path, 1, UTIL_CALLER);
}

int unlinkat(int dirfd, const char *path, int fl)
{
    UTIL_REAL(int, unlinkat, (int, const char *, int));
    if (!by_cwd(dirfd, path))
        return real_unlinkat(dirfd, path, fl);
    return remove_name(path, fl & AT_REMOVEDIR, UTIL_CALLER);
}

static int do_rename(const char *from, const char *to, const void *ra)
{
    char kf[PATH_MAX], kt[PATH_MAX], of[PATH_MAX], ot[PATH_MAX];
    UTIL_REAL(int, rename, (const char *, const char *));
    if (!begin(ra))
        return real_rename(from, to);
    if (!out_dir[0]) {
        done();
        return real_rename(from, to);
    }
    if (key_of(from, kf) < 0 || key_of(to, kt) < 0 || out_of(kf, of) < 0 ||
        out_of(kt, ot) < 0) {
        done();
        return real_rename(from, to);
    }
    make_parents(ot);
    make_parents(of);
    if (!exists(of) && gone_at(kf) == (size_t)-1) {
        /* the recorded run's file, or its capture: copied */
        char store[PATH_MAX];
        const char *src = captured(kf, 1, store) == 0 ? store : from;
        if (exists(src))
            copy_file(src, of);
    }
    int rc = real_rename(of, ot);
    if (rc == 0) {
        set_gone(kf, 1);
        set_gone(kt, 0);
    }
    done();
    return rc;
}

int rename(const char *from, const char *to)
{
    return do_rename(from, to, UTIL_CALLER);
}

int renameat(int dfrom, const char *from, int dto, const char *to)
{
    UTIL_REAL(int, renameat, (int, const char *, int, const char *));
    if (by_cwd(dfrom, from) && by_cwd(dto, to))
        return do_rename(from, to, UTIL_CALLER);
    return real_renameat(dfrom, from, dto, to);
}

static int do_mkdir(const char *path, mode_t mode, const void *ra)
{
    char buf[PATH_MAX];
    UTIL_REAL(int, mkdir, (const char *, mode_t));
    return real_mkdir(map_write(path, O_CREAT | O_TRUNC, buf, ra), mode);
}

int mkdir(const char *path, mode_t mode)
{
    return do_mkdir(path, mode, UTIL_CALLER);
}

int mkdirat(int dirfd, const char *path, mode_t mode)
{
    UTIL_REAL(int, mkdirat, (int, const char *, mode_t));
    if (!by_cwd(dirfd, path))
        return real_mkdirat(dirfd, path, mode);
    return do_mkdir(path, mode, UTIL_CALLER);
}
