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

int launch_out_dir(const char *dir, const char *who, int rank, char *out,
                   size_t len)
{
    char name[64];
    snprintf(name, sizeof name, "%s-%d", who, rank);
    int dfd = util_dir_open(AT_FDCWD, dir, 1);
    int rc = dfd < 0 ? dfd : util_dir_create(dfd, LAUNCH_OUT_DIR, 1);
    int ofd = rc < 0 ? rc : util_dir_open(dfd, LAUNCH_OUT_DIR, 1);
    rc = ofd < 0 ? ofd : util_dir_create(ofd, name, 1);
    int rfd = rc < 0 ? rc : util_dir_open(ofd, name, 1);
    if (dfd >= 0)
        close(dfd);
    if (ofd >= 0)
        close(ofd);
    if (rfd >= 0) {
        clear_tree(rfd, 0);
        close(rfd);
        snprintf(out, len, "%s/" LAUNCH_OUT_DIR "/%s", dir, name);
        return 0;
    }
    /* A run directory this user cannot write (someone else's): a new
     * directory of the replay's own instead. */
    snprintf(out, len, "%s/drdb-replay-out-%s-XXXXXX", life_tmpdir(), name);
    if (!mkdtemp(out))
        return fe_error("cannot make a directory for the replay's files in "
                        "'%s' (%s) nor in '%s' (%s); give --write-in-place "
                        "or set TMPDIR", dir, strerror(-rc), life_tmpdir(),
                        strerror(errno));
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
