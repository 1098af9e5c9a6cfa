/*
 * The replay's files (launch.h): the directory where a replayed rank's
 * writes go, so that the recorded run's outputs are never overwritten, and
 * rank 0's recorded standard input (docs/replaying.md, "Files").
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "drdb-stub.h"
#include "fe.h"
#include "launch.h"
#include "life.h"
#include "log-format.h"
#include "util.h"

/* Removes everything inside directory FD, never through a link: a link
 * is removed, not followed. */
static void clear_tree(int fd, int depth)
{
    int d2 = dup(fd);
    DIR *d = d2 >= 0 ? fdopendir(d2) : NULL;
    struct dirent *de;
    if (!d) {
        if (d2 >= 0)
            close(d2);
        return;
    }
    while ((de = readdir(d))) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        if (unlinkat(fd, de->d_name, 0) == 0 || errno != EISDIR)
            continue;
        int sub = openat(fd, de->d_name,
                         O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (sub >= 0 && depth < 256) {
            clear_tree(sub, depth + 1);
            close(sub);
        } else if (sub >= 0) {
            close(sub);
        }
        unlinkat(fd, de->d_name, AT_REMOVEDIR);
    }
    closedir(d);
}

/* This process's directory for the replay's files when the run directory
 * cannot hold them: made once, $TMPDIR/drdb-replay-PID-XXXXXX (mode 0700),
 * removed with what it holds when drdb ends, however it ends (life.h).
 * Its path, or NULL (errno set). */
static const char *own_root(void)
{
    static char root[PATH_MAX];
    if (!root[0]) {
        snprintf(root, sizeof root, "%s/" LIFE_REPLAY_PREFIX "-%d-XXXXXX",
                 life_tmpdir(), (int)getpid());
        if (!mkdtemp(root)) {
            root[0] = '\0';
            return NULL;
        }
        life_dir_add(root);
    }
    return root;
}

/* Opens directory NAME in DFD (made, 0700, when missing), emptied: 0, or
 * -errno (a link under its name refused: util.h). DFD is closed. */
static int fresh_dir(int dfd, const char *name)
{
    int rc = dfd < 0 ? dfd : util_dir_create(dfd, name, 1);
    int fd = rc < 0 ? rc : util_dir_open(dfd, name, 1);
    if (dfd >= 0)
        close(dfd);
    if (fd < 0)
        return fd;
    clear_tree(fd, 0);
    close(fd);
    return 0;
}

int launch_out_dir(const char *dir, const char *who, int rank, char *out,
                   size_t len)
{
    char name[64];
    snprintf(name, sizeof name, "%s-%d", who, rank);
    int dfd = util_dir_open(AT_FDCWD, dir, 1);
    int rc = dfd < 0 ? dfd : util_dir_create(dfd, LAUNCH_OUT_DIR, 1);
    int ofd = rc < 0 ? rc : util_dir_open(dfd, LAUNCH_OUT_DIR, 1);
    if (dfd >= 0)
        close(dfd);
    rc = fresh_dir(ofd, name);
    if (rc == 0) {
        snprintf(out, len, "%s/" LAUNCH_OUT_DIR "/%s", dir, name);
        return 0;
    }
    /* A run directory this user cannot write (someone else's), or a link
     * there: a directory of drdb's own instead, said (the banner names the
     * run directory's). */
    const char *root = own_root();
    int trc = root ? fresh_dir(util_dir_open(AT_FDCWD, root, 1), name)
                   : -errno;
    if (trc < 0)
        return fe_error("cannot make a directory for the replay's files in "
                        "'%s' (%s) nor in '%s' (%s); give --write-in-place "
                        "or set TMPDIR", dir, strerror(-rc), life_tmpdir(),
                        strerror(-trc));
    snprintf(out, len, "%s/%s", root, name);
    fprintf(stderr, "drdb: %s %d writes its files in %s, removed when drdb "
            "ends: '%s/" LAUNCH_OUT_DIR "/%s' cannot hold them (%s)\n", who,
            rank, out, dir, name,
            rc == -ELOOP ? "a symbolic link there, not followed"
                         : strerror(-rc));
    return 0;
}

int launch_env_files(struct launch_env *e, const char *dir,
                     const char *out, int stdin_recorded)
{
    char path[PATH_MAX + 32];
    if (out && launch_env_set(e, DRDB_ENV_REPLAY_OUT, out) < 0)
        return -1;
    snprintf(path, sizeof path, "%s/" LOG_STDIN_FILE, dir);
    /* Every rank gets the same setting (the stub applies it to rank 0):
     * environments of one size lay the ranks' stacks out alike, so the
     * console merges their answers (argv=0x...). */
    struct stat st;
    if (stdin_recorded && lstat(path, &st) == 0 && S_ISREG(st.st_mode))
        return launch_env_set(e, DRDB_ENV_REPLAY_STDIN, path);
    return 0;
}
