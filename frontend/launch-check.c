/*
 * The launcher's check of what it is about to run (launch.h): a run
 * directory names the program drdb starts, so before `drdb replay` or the
 * console starts anything, the program is shown (path, owner, build id:
 * not the run's free-text command line) and checked: a run directory,
 * drdb.run or program that another user owns or can write, or a program
 * that is not the recorded build, could make drdb run someone else's code
 * as this user.
 */
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fe.h"
#include "launch.h"
#include "log-reader.h"

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

int launch_check(const struct log_run *run, const char *dir, const char *exe,
                 int own, int trust, FILE *out, const char *prefix)
{
    char why[4][4600], path[4200], want[128] = "", have[128] = "", who[64];
    int nwhy = 0;
    struct stat st;

    int has_id = fe_build_id(exe, have, sizeof have) == 0;
    int known = stat(exe, &st) == 0;
    char line[4400];
    snprintf(line, sizeof line, "program: %s (owner %s, build id %s)", exe,
             known ? user_name(st.st_uid, who, sizeof who) : "?",
             has_id ? have : "none");
    if (out)
        fprintf(out, "%s%s\n", prefix, line);
    log_run_get(run, "exe_build_id", want, sizeof want);
    if (own) {
        /* The user's own choice of program: only say when it is another
         * build (the replay will likely diverge). */
        if (want[0] && has_id && strcmp(want, have) != 0)
            fprintf(stderr, "drdb: warning: '%s' is not the recorded "
                    "executable (build id %s, recorded %s): the replay will "
                    "likely diverge\n", exe, have, want);
        return 0;
    }
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
    if (stat(exe, &st) == 0 &&
        distrust(&st, "the program", exe, why[nwhy], sizeof why[0]))
        nwhy++;
    if (want[0] && (!has_id || strcmp(want, have) != 0))
        snprintf(why[nwhy++], sizeof why[0],
                 "the program is not the recorded build (build id %s, "
                 "recorded %s)", has_id ? have : "none", want);
    if (!want[0] && out)
        fprintf(out, "%s         (the run has no build id: drdb cannot tell "
                "it is the recorded program)\n", prefix);
    if (!nwhy)
        return 0;
    if (!out)
        fprintf(stderr, "drdb: %s\n", line);
    for (int i = 0; i < nwhy; i++)
        fprintf(stderr, "drdb: %s%s\n", why[i],
                trust ? " (--trust: running it anyway)" : "");
    if (trust)
        return 0;
    fprintf(stderr, "drdb: refusing to run '%s': a run directory names the "
            "program drdb starts, and this one may not be yours. Check it, "
            "then give --trust; or run a program of your own: -- PROGRAM "
            "ARGS\n", exe);
    return -1;
}
