/*
 * What a rank's replay under GDB needs from the host it runs on
 * (launch.h's struct launch_gdb): the console's local ranks make it here,
 * a remote rank's agent there (wire.h's SETUP), by this one function.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ckpt-file.h"
#include "drdb-stub.h"
#include "fe.h"
#include "launch.h"
#include "log-reader.h"

/* GDB's index cache ($XDG_CACHE_HOME/drdb/gdb-index): the ranks' GDBs read
 * the same executable and libraries; with the index of the first, the
 * others load their symbols much faster. "" when it cannot be made. */
static void index_cache(char *dir, size_t len)
{
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    dir[0] = '\0';
    if (xdg && *xdg)
        snprintf(dir, len, "%s/drdb/gdb-index", xdg);
    else if (home && *home)
        snprintf(dir, len, "%s/.cache/drdb/gdb-index", home);
    else
        return;
    for (char *p = strchr(dir + 1, '/'); p; p = strchr(p + 1, '/')) {
        *p = '\0';
        mkdir(dir, 0700);
        *p = '/';
    }
    if (mkdir(dir, 0700) < 0 && errno != EEXIST)
        dir[0] = '\0';
}

/* Will the checkpoint library track writes with SIGSEGV (whose traffic
 * GDB must let pass)? */
static int mprotect_backend(void)
{
    const char *b = getenv(DRDB_ENV_CKPT_BACKEND);
    char why[256];
    if (b && *b)
        return strcmp(b, "mprotect") == 0;
    return !ckpt_uffd_available(why, sizeof why);
}

void launch_stack_recorded(const char *dir, int rank, uint32_t *strings,
                           uint32_t *nenv)
{
    struct log_file_header h;
    char path[PATH_MAX];
    log_path(path, sizeof path, dir, rank);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0 || pread(fd, &h, sizeof h, 0) != (ssize_t)sizeof h)
        memset(&h, 0, sizeof h);
    if (fd >= 0)
        close(fd);
    *strings = h.stack_strings;
    *nenv = h.stack_nenv;
}

int launch_gdb_prepare(struct launch_gdb *g, const char *dir, int rank,
                       int in_place, char *err, size_t errlen)
{
    char path[PATH_MAX + 32], stub[PATH_MAX], lib[PATH_MAX] = "";
    char index[PATH_MAX], out[4200] = "", cwd[4096];
    struct log_run run;
    launch_gdb_init(g);
    log_path(path, sizeof path, dir, rank);
    if (access(path, R_OK) != 0) {
        snprintf(err, errlen, "rank %d was not recorded: no %s", rank, path);
        return -1;
    }
    if (fe_find_stub(stub, sizeof stub) < 0) {
        snprintf(err, errlen, "cannot find the replay stub (" DRDB_STUB_LIB
                 " of drdb); set " DRDB_ENV_REPLAY_LIB_DIR " to its "
                 "directory");
        return -1;
    }
    launch_stack_recorded(dir, rank, &g->stack_strings, &g->stack_nenv);
    if (log_run_open(&run, dir, err, errlen) < 0)
        return -1;
    if (log_run_get(&run, "cwd", cwd, sizeof cwd) && launch_dir_ok(cwd))
        g->flags |= LAUNCH_GDB_CWD;
    log_run_release(&run);
    if (fe_find_gdb_xstate(lib, sizeof lib) < 0)
        lib[0] = '\0';
    index_cache(index, sizeof index);
    if (mprotect_backend())
        g->flags |= LAUNCH_GDB_MPROTECT;
    /* The replay's environment (over GDB's own): the stub, the run, the
     * files (launch_out_dir said why when it fails: the rank goes on as
     * recorded). */
    if (in_place || launch_out_dir(dir, "rank", rank, out, sizeof out) < 0) {
        g->flags |= LAUNCH_GDB_IN_PLACE;
        out[0] = '\0';
    }
    if (!(g->stub = strdup(stub)) || !(g->xstate = strdup(lib)) ||
        !(g->index = strdup(index)) || !(g->out = strdup(out)) ||
        launch_env_replay(&g->env, stub, dir, rank, 0) < 0 ||
        launch_env_files(&g->env, dir, out[0] ? out : NULL, 1) < 0 ||
        /* the console shows the stub's reports itself */
        launch_env_set(&g->env, DRDB_ENV_REPLAY_QUIET, "1") < 0) {
        launch_gdb_release(g);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    return 0;
}
