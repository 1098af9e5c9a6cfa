/*
 * The launcher's check of what it is about to run (launch.h): a run
 * directory names the program drdb starts, its arguments and where it
 * runs, so before `drdb replay` or the console starts anything, the
 * program is shown (path, owner, build id: not the run's free-text command
 * line) and checked: a run this user did not record and sign
 * (launch-trust.c), a run directory, drdb.run or program that another user
 * owns or can write, or a program that is not the recorded build, could
 * make drdb run someone else's code as this user. Such a run is shown
 * whole (everything that would execute) and starts only with --trust.
 */
#include <errno.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "drdb-stub.h"
#include "fe.h"
#include "launch.h"
#include "log-reader.h"
#include "term-escape.h"

/* A user's name, or their number. */
static const char *user_name(uid_t uid, char *buf, size_t len)
{
    struct passwd *pw = getpwuid(uid);
    if (pw)
        snprintf(buf, len, "%s", pw->pw_name);
    else
        snprintf(buf, len, "user %u", (unsigned)uid);
    return buf;
}

/* The program line for EXE into LINE: path (and a link's owner and
 * target), owner, build id. */
static void program_line(const char *exe, char *line, size_t len)
{
    char have[128], who[64], link[PATH_MAX + 128] = "", to[PATH_MAX];
    struct stat st;
    int has_id = fe_build_id(exe, have, sizeof have) == 0;
    ssize_t n = readlink(exe, to, sizeof to - 1);
    if (n > 0 && lstat(exe, &st) == 0) {
        to[n] = '\0';
        snprintf(link, sizeof link, " (a symbolic link of %s to %s)",
                 user_name(st.st_uid, who, sizeof who), to);
    }
    int known = stat(exe, &st) == 0;
    snprintf(line, len, "program: %s%s (owner %s, build id %s)", exe, link,
             known ? user_name(st.st_uid, who, sizeof who) : "?",
             has_id ? have : "none");
}

/* Why the file ST (named WHAT, PATH) cannot be trusted into WHY, or 0:
 * it belongs to neither this user nor root, or others can write it (its
 * group may, when that group is this user's own). */
static int distrust(const struct stat *st, const char *what, const char *path,
                    char *why, size_t len)
{
    char who[64];
    if (st->st_uid != getuid() && st->st_uid != 0) {
        snprintf(why, len, "%s '%s' belongs to %s", what, path,
                 user_name(st->st_uid, who, sizeof who));
        return 1;
    }
    if ((st->st_mode & S_IWOTH) ||
        ((st->st_mode & S_IWGRP) && st->st_gid != getgid())) {
        snprintf(why, len, "%s '%s' can be written by others (mode %03o)",
                 what, path, (unsigned)(st->st_mode & 0777));
        return 1;
    }
    return 0;
}

/* S shown exactly on a terminal into OUT (LEN bytes, cut short when too
 * few): term-escape.h's field escapes, a backslash, tab and newline too. */
static const char *shown(const char *s, char *out, size_t len)
{
    char *t = term_escape(s, TERM_ESCAPE_FIELD);
    snprintf(out, len, "%s", t ? t : "?");
    free(t);
    return out;
}

/* The libraries preloaded by the setting PRELOAD (LD_PRELOAD's value),
 * each with its owner, on F after P. */
static void show_preload(FILE *f, const char *p, const char *preload)
{
    char *list = strdup(preload), *save = NULL, esc[4 * PATH_MAX], who[64];
    for (char *lib = list ? strtok_r(list, ": ", &save) : NULL; lib;
         lib = strtok_r(NULL, ": ", &save)) {
        struct stat st;
        int known = stat(lib, &st) == 0;
        fprintf(f, "%s    %s (owner %s)\n", p,
                shown(lib, esc, sizeof esc),
                known ? user_name(st.st_uid, who, sizeof who) : "?, missing");
    }
    free(list);
}

/* What a replay of run DIR (RUN) runs, the program being LINE: its
 * arguments, working directory, the environment drdb gives it and the
 * libraries that environment preloads, each line on F after P. */
static void show_run(FILE *f, const char *p, const char *line,
                     const struct log_run *run, const char *dir)
{
    static char buf[LOG_RUN_MAX], esc[4 * LOG_RUN_MAX];
    char stub[PATH_MAX], out[PATH_MAX + 64];
    fprintf(f, "%s%s\n", p, shown(line, esc, sizeof esc));
    fprintf(f, "%s  arguments:", p);
    char **argv = log_run_get(run, "argv", buf, sizeof buf)
                      ? launch_split_argv(buf) : NULL;
    for (int i = 0; argv && argv[i]; i++)
        fprintf(f, " '%s'", shown(argv[i], esc, sizeof esc));
    fprintf(f, "%s\n", argv ? "" : " (none recorded)");
    free(argv);
    if (log_run_get(run, "cwd", buf, sizeof buf))
        fprintf(f, "%s  working directory: %s%s\n", p,
                shown(buf, esc, sizeof esc),
                launch_dir_ok(buf) ? "" : " (missing here: the current one)");
    /* As launch_env_replay() and launch_env_files() make it for a rank R
     * of `drdb replay` (the console's GDB preloads the stub alone). */
    struct launch_env e;
    launch_env_init(&e);
    snprintf(out, sizeof out, "%s/" LAUNCH_OUT_DIR "/rank-R", dir);
    if (fe_find_stub(stub, sizeof stub) < 0)
        snprintf(stub, sizeof stub, "(drdb's replay stub, not found)");
    if (launch_env_replay(&e, stub, dir, 0, 1) < 0 ||
        launch_env_set(&e, DRDB_ENV_REPLAY_RANK, "R") < 0 ||
        launch_env_files(&e, dir, out, 1) < 0)
        fprintf(f, "%s  environment: (out of memory)\n", p);
    else
        fprintf(f, "%s  environment drdb sets (R: the rank replayed):\n", p);
    for (size_t i = 0; i < e.n; i++)
        fprintf(f, "%s    %s\n", p, shown(e.v[i], esc, sizeof esc));
    for (size_t i = 0; i < e.n; i++)
        if (!strncmp(e.v[i], "LD_PRELOAD=", 11)) {
            fprintf(f, "%s  preloaded libraries:\n", p);
            show_preload(f, p, e.v[i] + 11);
        }
    launch_env_release(&e);
}

void launch_show(const struct log_run *run, const char *dir, const char *exe,
                 FILE *out, const char *prefix)
{
    char line[4400];
    program_line(exe, line, sizeof line);
    show_run(out, prefix, line, run, dir);
}

int launch_check(const struct log_run *run, const char *dir, const char *exe,
                 int own, int trust, FILE *out, const char *prefix)
{
    char why[6][4600], path[4200], want[128] = "", have[128] = "";
    char line[4400], esc[4 * 4400];
    int nwhy = 0;
    struct stat st;

    /* Another MPI's program would run that MPI, not the stub, and no
     * --trust makes it replayable. */
    if (launch_mpi_refuse(exe, "replays") < 0)
        return -1;
    int has_id = fe_build_id(exe, have, sizeof have) == 0;
    program_line(exe, line, sizeof line);
    log_run_get(run, "exe_build_id", want, sizeof want);
    if (own) {
        if (out)
            fprintf(out, "%s%s\n", prefix, shown(line, esc, sizeof esc));
        /* The user's own choice of program: only say when it is another
         * build (the replay will likely diverge). */
        if (want[0] && has_id && strcmp(want, have) != 0)
            fprintf(stderr, "drdb: warning: '%s' is not the recorded "
                    "executable (build id %s, recorded %s): the replay will "
                    "likely diverge\n", shown(exe, esc, sizeof esc),
                    have, shown(want, path, sizeof path));
        return 0;
    }
    if (!launch_run_signed(dir, why[nwhy], sizeof why[0]))
        nwhy++;
    if (lstat(dir, &st) == 0 &&
        distrust(&st, "the run directory", dir, why[nwhy], sizeof why[0]))
        nwhy++;
    snprintf(path, sizeof path, "%s/%s", dir, LOG_RUN_FILE);
    if (lstat(path, &st) == 0) {
        if (S_ISLNK(st.st_mode))
            snprintf(why[nwhy++], sizeof why[0], "'%s' is a symbolic link",
                     path);
        else if (distrust(&st, "the run description", path, why[nwhy],
                          sizeof why[0]))
            nwhy++;
    }
    /* A link's owner can point it at another program at any time. */
    if (lstat(exe, &st) == 0 && S_ISLNK(st.st_mode) &&
        distrust(&st, "the program's link", exe, why[nwhy], sizeof why[0]))
        nwhy++;
    if (stat(exe, &st) == 0 &&
        distrust(&st, "the program", exe, why[nwhy], sizeof why[0]))
        nwhy++;
    if (want[0] && (!has_id || strcmp(want, have) != 0))
        snprintf(why[nwhy++], sizeof why[0],
                 "the program is not the recorded build (build id %s, "
                 "recorded %s)", has_id ? have : "none", want);
    if (!nwhy) {
        if (out)
            fprintf(out, "%s%s\n", prefix, shown(line, esc, sizeof esc));
        if (!want[0] && out)
            fprintf(out, "%s         (the run has no build id: drdb cannot "
                    "tell it is the recorded program)\n", prefix);
        return 0;
    }
    /* Everything the run makes drdb execute, so that the user can judge
     * it: on OUT when it runs anyway, else with the reasons. */
    FILE *to = trust && out ? out : stderr;
    show_run(to, to == out ? prefix : "drdb: ", line, run, dir);
    for (int i = 0; i < nwhy; i++)
        fprintf(stderr, "drdb: %s%s\n", shown(why[i], esc, sizeof esc),
                trust ? " (--trust: running it anyway)" : "");
    if (trust)
        return 0;
    fprintf(stderr, "drdb: refusing to run '%s': a run directory names the "
            "program drdb starts, its arguments and where it runs, and this "
            "one may not be yours. Check what it would run (above), then "
            "give --trust; or run a program of your own: -- PROGRAM ARGS\n",
            shown(exe, esc, sizeof esc));
    return -1;
}
