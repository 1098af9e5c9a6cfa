/*
 * Nothing drdb starts outlives it: its children killed and its
 * directories removed on every way of ending (life.h).
 *
 * What runs in a signal handler uses only async-signal-safe calls: open,
 * read, getdents64 (a raw system call, as readdir() may allocate), kill,
 * unlinkat, fstat.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <termios.h>
#include <unistd.h>

#include "life.h"

#define LIFE__NDIRS 8
/* How deep a directory of drdb's is removed: the replay's files hold the
 * program's own directories (and each level takes 4 KiB of the handler's
 * 64 KiB stack). */
#define LIFE__DEPTH 8

static pid_t owner;                 /* who called life_install() */
static char dirs[LIFE__NDIRS][PATH_MAX];
static volatile sig_atomic_t ending;
/* The terminal as it was before readline changed it: given back when a
 * signal ends drdb in the middle of a line (no echo left behind). */
static struct termios tty_saved;
static int tty_ok;

struct life__dent {                 /* the kernel's linux_dirent64 */
    uint64_t ino;
    int64_t off;
    unsigned short reclen;
    unsigned char type;
    char name[];
};

static int is_dot(const char *s)
{
    return s[0] == '.' && (!s[1] || (s[1] == '.' && !s[2]));
}

/* A decimal number (the whole of S up to END, or to its end): -1 if not. */
static long number(const char *s, const char *end)
{
    long v = 0;
    if (s == end || !*s)
        return -1;
    for (; *s && s != end; s++) {
        if (*s < '0' || *s > '9' || v > LONG_MAX / 10 - 10)
            return -1;
        v = v * 10 + (*s - '0');
    }
    return v;
}

/* /proc/PID/stat's parent and process group: 0, or -1. */
static int proc_parent(long pid, long *ppid, long *pgrp)
{
    char path[64], buf[512];
    /* no snprintf in a handler: "/proc/" PID "/stat" by hand */
    char digits[24];
    int n = 0;
    do
        digits[n++] = (char)('0' + pid % 10);
    while ((pid /= 10) > 0);
    memcpy(path, "/proc/", 6);
    int k = 6;
    while (n > 0)
        path[k++] = digits[--n];
    memcpy(path + k, "/stat", 6);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t got = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (got <= 0)
        return -1;
    buf[got] = '\0';
    /* "PID (COMM) STATE PPID PGRP ...": COMM may hold anything, so from
     * the last ')' */
    char *p = strrchr(buf, ')');
    if (!p || p[1] != ' ' || !p[2] || p[3] != ' ')
        return -1;
    p += 4;
    char *sp = strchr(p, ' ');
    if (!sp)
        return -1;
    *ppid = number(p, sp);
    char *sp2 = strchr(sp + 1, ' ');
    *pgrp = sp2 ? number(sp + 1, sp2) : -1;
    return *ppid < 0 || *pgrp < 0 ? -1 : 0;
}

/* Calls FN(FD, entry, UD) for each entry of directory FD but "." and "..":
 * getdents64, as readdir() may allocate. */
static void each_entry(int fd, void (*fn)(int, const struct life__dent *,
                                          void *), void *ud)
{
    char buf[4096];
    long got;
    while ((got = syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0)
        for (long o = 0; o < got;) {
            const struct life__dent *d = (const void *)(buf + o);
            o += d->reclen;
            if (!is_dot(d->name))
                fn(fd, d, ud);
        }
}

/* SIGKILL to /proc's entry D when it is a child of this process (*UD), and
 * to the group it leads. */
static void kill_child(int fd, const struct life__dent *d, void *ud)
{
    long pid = number(d->name, NULL), ppid, pgrp;
    (void)fd;
    if (pid <= 0 || proc_parent(pid, &ppid, &pgrp) < 0 ||
        ppid != *(long *)ud)
        return;
    if (pgrp == pid)
        kill(-(pid_t)pid, SIGKILL);
    kill((pid_t)pid, SIGKILL);
}

static void kill_children(void)
{
    long me = (long)getpid();
    int fd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return;
    each_entry(fd, kill_child, &me);
    close(fd);
}

static void remove_entry(int fd, const struct life__dent *d, void *ud);

/* Removes NAME in DIRFD: a file or link, or a directory of the user's
 * with what it holds (DEPTH levels of directories below it). */
static void remove_tree(int dirfd, const char *name, int depth)
{
    if (unlinkat(dirfd, name, 0) == 0 || (errno != EISDIR && errno != EPERM))
        return;
    int fd = openat(dirfd, name,
                    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    if (fd < 0)
        return;
    if (fstat(fd, &st) < 0 || st.st_uid != getuid()) {
        close(fd);
        return;
    }
    each_entry(fd, remove_entry, &depth);
    close(fd);
    unlinkat(dirfd, name, AT_REMOVEDIR);
}

/* Removes entry D of directory FD (*UD: the levels of directories left). */
static void remove_entry(int fd, const struct life__dent *d, void *ud)
{
    int depth = *(int *)ud;
    if (d->type == DT_DIR || d->type == DT_UNKNOWN) {
        if (depth > 0)
            remove_tree(fd, d->name, depth - 1);
    } else {
        unlinkat(fd, d->name, 0);
    }
}

/* Removes directory PATH (absolute or relative) and what it holds. */
static void remove_path(const char *path, int depth)
{
    const char *slash = strrchr(path, '/');
    if (!slash) {
        remove_tree(AT_FDCWD, path, depth);
        return;
    }
    char parent[PATH_MAX];
    size_t len = slash == path ? 1 : (size_t)(slash - path);
    if (len >= sizeof parent)
        return;
    memcpy(parent, path, len);
    parent[len] = '\0';
    int fd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return;
    remove_tree(fd, slash + 1, depth);
    close(fd);
}

void life_end(void)
{
    if (!owner || getpid() != owner || ending)
        return;
    ending = 1;
    kill_children();
    for (int i = 0; i < LIFE__NDIRS; i++)
        if (dirs[i][0])
            remove_path(dirs[i], LIFE__DEPTH);
    ending = 0;
}

static void on_fatal(int sig)
{
    int e = errno;
    life_end();
    /* (every signal is blocked here: no SIGTTOU from the background) */
    if (tty_ok)
        tcsetattr(0, TCSANOW, &tty_saved);
    signal(sig, SIG_DFL);
    errno = e;
    raise(sig);
}

static void at_exit(void)
{
    life_end();
}

void life_install(int flags)
{
    static const int crash[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
    static const int term[] = {SIGHUP, SIGTERM, SIGQUIT};
    /* a stack for the handler: a SIGSEGV from a stack overflow too */
    static char altstack[64 * 1024];
    if (owner)
        return;
    owner = getpid();
    tty_ok = isatty(0) && tcgetattr(0, &tty_saved) == 0;
    stack_t ss = {.ss_sp = altstack, .ss_size = sizeof altstack};
    sigaltstack(&ss, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fatal;
    sa.sa_flags = SA_ONSTACK | SA_RESETHAND;
    sigfillset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof crash / sizeof crash[0]; i++)
        sigaction(crash[i], &sa, NULL);
    for (size_t i = 0; (flags & LIFE_TERM) && i < sizeof term / sizeof *term;
         i++)
        sigaction(term[i], &sa, NULL);
    atexit(at_exit);
}

int life_dir_add(const char *path)
{
    for (int i = 0; i < LIFE__NDIRS; i++)
        if (!dirs[i][0]) {
            sigset_t all, old;
            sigfillset(&all);
            sigprocmask(SIG_BLOCK, &all, &old);
            snprintf(dirs[i], sizeof dirs[i], "%s", path);
            sigprocmask(SIG_SETMASK, &old, NULL);
            return 0;
        }
    return -1;
}

int life_die_with_parent(pid_t parent)
{
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0)
        return 0;
    /* the parent may have ended before the prctl: then ours is another */
    return getppid() == parent ? 0 : -1;
}

const char *life_tmpdir(void)
{
    const char *t = getenv("TMPDIR");
    return t && *t ? t : "/tmp";
}

int life_sweep(const char *dir, const char *prefix)
{
    size_t plen = strlen(prefix);
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), removed = 0;
    DIR *d = fd < 0 ? NULL : fdopendir(fd);
    if (!d) {
        if (fd >= 0)
            close(fd);
        return 0;
    }
    struct dirent *de;
    while ((de = readdir(d))) {
        /* PREFIX-PID-XXXXXX */
        const char *s = de->d_name;
        if (strncmp(s, prefix, plen) != 0 || s[plen] != '-')
            continue;
        const char *end = strchr(s + plen + 1, '-');
        long pid = end ? number(s + plen + 1, end) : -1;
        if (pid <= 0 || pid > INT_MAX || (pid_t)pid == getpid() ||
            kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue;
        struct stat st;
        if (fstatat(fd, s, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
            !S_ISDIR(st.st_mode) || st.st_uid != getuid())
            continue;
        remove_tree(fd, s, LIFE__DEPTH);
        removed += fstatat(fd, s, &st, AT_SYMLINK_NOFOLLOW) < 0;
    }
    closedir(d);
    return removed;
}
