/* A shadow of a replay (launch.h): its directory and its start, the same
 * for the console's local ranks (con-ckpt.c) and for a host's agent
 * (agent-shadow.c). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ckpt-file.h"
#include "drdb-stub.h"
#include "launch.h"
#include "life.h"
#include "util.h"

int launch_shadow_dir(char *root, size_t rootlen, int rank, char *dir,
                      size_t len)
{
    if (!root[0]) {
        snprintf(root, rootlen, "%s/" LIFE_SHADOW_PREFIX "-%d-XXXXXX",
                 life_tmpdir(), (int)getpid());
        if (!mkdtemp(root)) {
            int e = errno;
            root[0] = '\0';
            return -e;
        }
        life_dir_add(root);
    }
    /* rank-R in the private root (mkdtemp, 0700): made 0700, a link under
     * its name refused (util.h). */
    char sub[32];
    snprintf(sub, sizeof sub, "rank-%d", rank);
    snprintf(dir, len, "%s/%s", root, sub);
    int rfd = util_dir_open(AT_FDCWD, root, 1);
    int made = rfd < 0 ? rfd : util_dir_create(rfd, sub, 1);
    if (rfd >= 0)
        close(rfd);
    if (made < 0)
        return made;
    launch_clear_dir(dir);
    return 0;
}

pid_t launch_shadow_of(pid_t fg, const char *dir, const char *rundir,
                       int rank, double interval, unsigned long long every,
                       char *err, size_t errlen)
{
    /* The foreground's own environment and arguments, so that the stack
     * and the mappings are laid out alike; checkpoints go to files (not
     * where or when the foreground's go). */
    struct launch_proc p;
    if (launch_proc_read(&p, fg) < 0) {
        snprintf(err, errlen, "cannot read the environment of process %d",
                 (int)fg);
        return -1;
    }
    char num[64], out[8400], status[8400];
    launch_env_unset(&p.env, DRDB_ENV_CKPT_INTERVAL);
    launch_env_unset(&p.env, DRDB_ENV_CKPT_EVERY);
    launch_env_unset(&p.env, DRDB_ENV_CKPT_EVENTS);
    int rc = launch_env_set(&p.env, DRDB_ENV_CKPT_DIR, dir);
    /* Its writes go to a directory of its own, not the foreground's. */
    char shadow_out[8400];
    if (rundir && launch_out_dir(rundir, "shadow", rank, shadow_out,
                                 sizeof shadow_out) == 0)
        rc |= launch_env_set(&p.env, DRDB_ENV_REPLAY_OUT, shadow_out);
    if (interval > 0) {
        snprintf(num, sizeof num, "%g", interval);
        rc |= launch_env_set(&p.env, DRDB_ENV_CKPT_INTERVAL, num);
    } else {
        snprintf(num, sizeof num, "%llu", every > 0 ? every : 1ULL);
        rc |= launch_env_set(&p.env, DRDB_ENV_CKPT_EVERY, num);
    }
    snprintf(out, sizeof out, "%s/output", dir);
    snprintf(status, sizeof status, "%s/status", dir);
    pid_t a = rc < 0 ? -1 : launch_shadow(&p, out, status);
    if (rc < 0)
        errno = ENOMEM;
    if (a < 0)
        snprintf(err, errlen, "cannot start a shadow: %s", strerror(errno));
    launch_proc_release(&p);
    return a;
}

int launch_shadow_files(const char *dir, struct launch_shadow_file **out)
{
    struct launch_shadow_file *v = NULL;
    size_t n = 0, cap = 0;
    DIR *d = opendir(dir);
    struct dirent *de;
    while (d && (de = readdir(d))) {
        size_t l = strlen(de->d_name);
        if (strncmp(de->d_name, "ckpt-", 5) || l < 8 ||
            strcmp(de->d_name + l - 7, ".drdbck") || l >= sizeof v->name)
            continue;
        char path[8400], e[512];
        struct ckpt_info inf;
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        if (ckpt_file_info(path, &inf, e, sizeof e) < 0 ||
            util_grow(&v, &cap, n + 1, sizeof *v) < 0)
            continue;
        struct launch_shadow_file x = {.id = inf.id, .parent = inf.parent,
                                       .event = inf.event, .time = inf.time,
                                       .pages = inf.pages,
                                       .bytes = inf.bytes};
        snprintf(x.name, sizeof x.name, "%s", de->d_name);
        v[n++] = x;
    }
    if (d)
        closedir(d);
    *out = v;
    return (int)n;
}
