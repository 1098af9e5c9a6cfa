/*
 * The program's input files, captured (`drdb record --capture-inputs`).
 *
 * The recorder interposes the functions that open files by name (open,
 * openat, creat, fopen, freopen and their 64-bit and fortified forms).
 * Each regular file the program opens without truncating it, under one of
 * the directories of DRDB_ENV_CAPTURE_INPUTS (the working directory and the
 * paths given), is copied, as it is at that open, into the run directory's
 * inputs/, named by the SHA-256 of its content: a file read by every rank,
 * or at every step, is stored once. The rank's index (inputs/rank-R.index,
 * log-format.md) lists, in the order of the opens, each path with the
 * content it had, so a file that changed between two opens is served as it
 * was at each. A file this rank has opened for writing is its own output
 * from then on: later opens of it are not captured (the replay writes it
 * again). Opens made by MPI (MPICH's own, during MPI_Init; MPI-IO's) are
 * not the program's: rec_sys_from_mpi().
 *
 * The copy is read from the program's own descriptor (pread: its offset
 * stays), so it is the file the program opened. Files in inputs/ are made
 * new with util/file.c (mode 0600, O_EXCL|O_NOFOLLOW, renamed into place):
 * a link planted under a content's name is replaced, never followed.
 * Opens are not a hot path: a mutex serializes this code.
 */
/* open and open64 (fopen, fopen64, ...) are each defined here: not the
 * one under the other's name. */
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

#include "log-format.h"
#include "interpose.h"
#include "rec.h"
#include "util.h"

/* Whether an open made from RA is MPI's own (MPICH's shared-memory and
 * /proc files during MPI_Init, MPI-IO's files): by the caller's object
 * (log_sys_caller_is_mpi), until the recorder marks every MPI call
 * (issue 16, class 10). */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static __thread int busy; /* this code's own opens pass through */
static int state;         /* 0: not looked at yet, 1: capturing, -1: off */
static char scope[8192];  /* the directories, '\0'-separated, "" ends */
static char run_dir[PATH_MAX];
static int inputs_fd = -1;
static int index_fd = -1; /* once the rank is known (rec_files_rank) */
static char *pending;     /* index lines from before it */
static size_t npending, cap_pending;
static char **written;    /* paths this rank opened for writing */
static size_t nwritten, cap_written;

/* What the warnings below say follows when a file is not captured. */
#define NOT_CAPTURED "; the replay will read it where it is"

/* Reads DRDB_ENV_CAPTURE_INPUTS (directories separated by
 * DRDB_CAPTURE_SEP). */
static void setup(void)
{
    const char *env = getenv(DRDB_ENV_CAPTURE_INPUTS);
    const char *dir = getenv(DRDB_ENV_RUN_DIR);
    char cwd[PATH_MAX];
    state = -1;
    if (!env || !*env || !dir || !*dir || !getcwd(cwd, sizeof cwd) ||
        util_path_abs(cwd, dir, run_dir, sizeof run_dir) < 0)
        return;
    size_t n = 0;
    for (const char *p = env; *p;) {
        const char *e = strchr(p, DRDB_CAPTURE_SEP[0]);
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len && n + len + 2 < sizeof scope) {
            memcpy(scope + n, p, len);
            n += len;
            scope[n++] = '\0';
        }
        p = e ? e + 1 : p + len;
    }
    scope[n] = '\0';
    state = 1;
}

/* The run directory's inputs/, made at the first capture: -errno when it
 * cannot be (then nothing is captured). */
static int open_store(void)
{
    if (inputs_fd >= 0)
        return 0;
    int dfd = util_dir_open(AT_FDCWD, run_dir, 1);
    int rc = dfd < 0 ? dfd : util_dir_create(dfd, LOG_INPUTS_DIR, 1);
    if (rc == 0)
        rc = inputs_fd = util_dir_open(dfd, LOG_INPUTS_DIR, 1);
    if (dfd >= 0)
        close(dfd);
    if (rc < 0) {
        rec_warn("cannot make the inputs directory in '%s': %s" NOT_CAPTURED,
                 run_dir, rec_strerror(-rc));
        state = -1;
        return rc;
    }
    return 0;
}

static int in_scope(const char *path)
{
    if (util_path_under(path, run_dir))
        return 0; /* drdb's own files */
    for (const char *d = scope; *d; d += strlen(d) + 1)
        if (util_path_under(path, d))
            return 1;
    return 0;
}

static int was_written(const char *path)
{
    for (size_t i = 0; i < nwritten; i++)
        if (strcmp(written[i], path) == 0)
            return 1;
    return 0;
}

static void mark_written(const char *path)
{
    char *s;
    if (was_written(path) ||
        util_grow(&written, &cap_written, nwritten + 1, sizeof *written) < 0 ||
        !(s = strdup(path)))
        return;
    written[nwritten++] = s;
}

/* One index line: "HASH SIZE PATH", the path's newlines and backslashes
 * escaped. */
static void index_add(const char *hex, long long size, const char *path)
{
    char line[PATH_MAX * 2 + 100];
    size_t n = (size_t)snprintf(line, sizeof line, "%s %lld ", hex, size);
    for (const char *p = path; *p && n + 3 < sizeof line; p++) {
        if (*p == '\n' || *p == '\\') {
            line[n++] = '\\';
            line[n++] = *p == '\n' ? 'n' : '\\';
        } else {
            line[n++] = *p;
        }
    }
    line[n++] = '\n';
    if (index_fd >= 0) {
        util_write_all(index_fd, line, n);
    } else if (util_grow(&pending, &cap_pending, npending + n, 1) == 0) {
        memcpy(pending + npending, line, n);
        npending += n;
    }
}

/* Stores the content of FD (PATH, for messages) in inputs/: its hash into
 * HEX, its size into *SIZE. 0, or -errno. */
static int store(int fd, const char *path, char hex[65], long long *size)
{
    char tmp[128];
    static char buf[1 << 16];
    struct util_sha256 sha;
    int rc = open_store();
    if (rc < 0)
        return rc;
    int out = util_file_create_tmp(inputs_fd, "capture", tmp, sizeof tmp,
                                   O_WRONLY);
    if (out < 0)
        return out;
    util_sha256_init(&sha);
    off_t off = 0;
    for (;;) {
        ssize_t got = pread(fd, buf, sizeof buf, off);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            rc = -errno;
            break;
        }
        if (got == 0)
            break;
        util_sha256_update(&sha, buf, (size_t)got);
        if ((rc = util_write_all(out, buf, (size_t)got)) < 0)
            break;
        off += got;
    }
    if (close(out) < 0 && rc == 0)
        rc = -errno;
    util_sha256_hex(&sha, hex);
    *size = (long long)off;
    /* The same content stored before (by this rank or another): keep it,
     * if it is a regular file of ours; anything else under the name is
     * replaced by the rename, never followed. */
    struct stat st;
    if (rc == 0 && fstatat(inputs_fd, hex, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
        S_ISREG(st.st_mode) && st.st_uid == geteuid() &&
        (long long)st.st_size == *size) {
        unlinkat(inputs_fd, tmp, 0);
        return 0;
    }
    if (rc == 0)
        rc = util_file_replace(inputs_fd, tmp, hex);
    if (rc < 0) {
        unlinkat(inputs_fd, tmp, 0);
        rec_warn("cannot capture '%s': %s" NOT_CAPTURED, path,
                 rec_strerror(-rc));
    }
    return rc;
}

/* After a call from RA opened PATH (relative to DIRFD) with FLAGS as FD. */
static void opened(int dirfd, const char *path, int flags, int fd,
                   const void *ra)
{
    if (fd < 0 || !path)
        return;
    rec_devrandom_opened(path, fd);
    if (busy || rec_sys_from_mpi(ra))
        return;
    if (state == 0)
        setup();
    if (state < 0 || (dirfd != AT_FDCWD && path[0] != '/'))
        return;
    int saved = errno;
    busy = 1;
    pthread_mutex_lock(&lock);
    char cwd[PATH_MAX], abs[PATH_MAX];
    struct stat st;
    int acc = flags & O_ACCMODE;
    if ((path[0] == '/' || getcwd(cwd, sizeof cwd)) &&
        util_path_abs(cwd, path, abs, sizeof abs) == 0 && in_scope(abs) &&
        !was_written(abs)) {
        /* Written from here on: the program's output. Opened to change
         * (not truncated), its content before is captured too: the
         * replay's copy starts from it. */
        if (acc != O_RDONLY || (flags & (O_TRUNC | O_CREAT)))
            mark_written(abs);
        if (!(flags & O_TRUNC) && fstat(fd, &st) == 0 &&
            S_ISREG(st.st_mode)) {
            UTIL_REAL(int, open, (const char *, int, ...));
            int rfd = acc == O_WRONLY ? real_open(abs, O_RDONLY | O_CLOEXEC)
                                      : fd;
            char hex[65];
            long long size;
            if (rfd >= 0 && store(rfd, abs, hex, &size) == 0)
                index_add(hex, size, abs);
            if (rfd >= 0 && rfd != fd)
                close(rfd);
        }
    }
    pthread_mutex_unlock(&lock);
    busy = 0;
    errno = saved;
}

void rec_files_rank(int rank, int recorded)
{
    char name[64];
    pthread_mutex_lock(&lock);
    busy = 1;
    if (state == 0)
        setup();
    snprintf(name, sizeof name, LOG_INPUTS_INDEX, rank);
    if (state > 0 && index_fd < 0 && recorded && open_store() == 0) {
        index_fd = util_file_create(inputs_fd, name, O_WRONLY);
        if (index_fd < 0)
            rec_warn("cannot create the index of inputs '%s': %s"
                     NOT_CAPTURED, name, rec_strerror(-index_fd));
        else if (npending)
            util_write_all(index_fd, pending, npending);
    }
    free(pending);
    pending = NULL;
    npending = cap_pending = 0;
    busy = 0;
    pthread_mutex_unlock(&lock);
}

/* ---- the interposed functions (util/interpose.h) ------------------------ */

/* The recorder opens what the program names. */
static const char *same_name(int dirfd, const char *path, int flags,
                             char *buf, const void *ra)
{
    (void)dirfd, (void)flags, (void)buf, (void)ra;
    return path;
}

UTIL_INTERPOSE_OPEN(same_name, opened)
