/*
 * test-keep.c - keeping a remote session and attaching to it (remote.h,
 * "keeping a session"; docs/remote.md), through the real code paths: a
 * real agent (`DRDB agent --keep`, `DRDB agent --attach`), started as a
 * local child, or over ssh to HOST with the -o options given (the test
 * sshd of test-remote.sh: the "host" is this machine, so the processes
 * there are seen in /proc here).
 *
 * Covered: a process started with keep outlives its connection (killed:
 * ssh, or the local agent's starter); what it wrote meanwhile (stdout and
 * stderr) arrives after attach, before what it writes next; its label, pid
 * and the session note come back; input reaches it; its end is told; a
 * second attach while attached is refused; keeping turned off ends
 * everything with the connection; the time limit ends everything (the
 * process, the agent, its socket); an agent started without keep refuses
 * KEEP; unknown and malformed ids. With no HOST, also the socket
 * directory's checks (a symbolic link, a directory others can write:
 * refused by the real agent) and, as root, another uid (SO_PEERCRED).
 *
 * usage: test-keep DRDB [HOST [SSH-OPTION...]]
 *        test-keep --hold DRDB HOST [SSH-OPTION...]: starts a kept session
 *        (a `sleep` labelled "rank 5", note "hold note") and exits without
 *        ending it; prints "ID PID".
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "agent.h"
#include "check.h"
#include "launch.h"
#include "remote-int.h"
#include "remote.h"
#include "wire.h"

static struct remote_opts opts;
static char tmp[256];

static int64_t now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static void nap(void)
{
    struct timespec t = {0, 20000000};
    nanosleep(&t, NULL);
}

static int alive(pid_t pid)
{
    return kill(pid, 0) == 0 || errno != ESRCH;
}

/* Waits (up to MS) until COND(ARG) holds: 1, else 0. */
static int wait_for(int (*cond)(long), long arg, int ms)
{
    int64_t end = now_ms() + ms;
    while (!cond(arg)) {
        if (now_ms() > end)
            return 0;
        nap();
    }
    return 1;
}

static int gone(long pid)
{
    return !alive((pid_t)pid);
}

/* The kept agent PID let its connection go (its stdin is /dev/null). */
static int detached(long pid)
{
    char path[64], to[64];
    snprintf(path, sizeof path, "/proc/%ld/fd/0", pid);
    ssize_t n = readlink(path, to, sizeof to - 1);
    return n == 9 && !memcmp(to, "/dev/null", 9);
}

static int exists(long path)
{
    return access((const char *)path, F_OK) == 0;
}

/* Pumps R until *FD's text (read into BUF, NUL-terminated) holds WANT or
 * P is done (WANT NULL), for up to 20 s: 1, else 0. */
static int read_until(struct remote *r, struct remote_proc *p, int *fd,
                      char *buf, size_t cap, const char *want)
{
    size_t have = strlen(buf);
    int64_t end = now_ms() + 20000;
    while (now_ms() < end) {
        if (want ? strstr(buf, want) != NULL
                 : p && remote_proc_done(p) && *fd < 0)
            return 1;
        struct pollfd fds[REMOTE_MAX_POLLFDS(4) + 1];
        int n = remote_pollfds(r, fds, REMOTE_MAX_POLLFDS(4)), base = n;
        if (*fd >= 0)
            fds[n++] = (struct pollfd){.fd = *fd, .events = POLLIN};
        poll(fds, (nfds_t)n, 200);
        if (remote_process(r, fds, base) < 0)
            return 0;
        if (n > base && fds[base].revents) {
            ssize_t k = read(*fd, buf + have, cap - 1 - have);
            if (k <= 0) {
                close(*fd);
                *fd = -1;
            } else {
                have += (size_t)k;
            }
            buf[have] = '\0';
        }
    }
    return 0;
}

static struct remote_proc *start(struct remote *r, const char *script,
                                 const char *label)
{
    char *argv[] = {"sh", "-c", (char *)script, NULL}, err[1024];
    struct launch_desc d;
    struct remote_proc *p = NULL;
    launch_desc_init(&d);
    launch_desc_argv(&d, argv);
    if (remote_start(r, &d, &p, err, sizeof err) < 0) {
        printf("# start: %s\n", err);
        p = NULL;
    }
    launch_desc_release(&d);
    if (p && label)
        remote_label(p, label);
    return p;
}

/* The connection dropped the hard way: what carries it (ssh, or the
 * local agent's starter) killed, then the client's side let go. */
static void drop(struct remote *r)
{
    kill(r->pid, SIGKILL);
    remote_close(r);
}

static struct remote *connect_keep(int secs, char *err, size_t errlen)
{
    struct remote *r = NULL;
    struct remote_opts o = opts;
    o.keep_s = secs;
    if (remote_connect(&r, &o, err, errlen) < 0)
        return NULL;
    return r;
}

TEST(kept_and_attached)
{
    char err[1024], go[300], wrote[300], id[16];
    snprintf(go, sizeof go, "%s/go", tmp);
    snprintf(wrote, sizeof wrote, "%s/wrote", tmp);
    char script[1024];
    snprintf(script, sizeof script,
             "echo start; while [ ! -e '%s' ]; do sleep 0.02; done; "
             "echo while-away; echo err-away >&2; touch '%s'; exec cat",
             go, wrote);
    struct remote *r = connect_keep(30, err, sizeof err);
    CHECK_MSG(r != NULL, "connect: %s", err);
    REQUIRE(r);
    snprintf(id, sizeof id, "%s", remote_session(r));
    CHECK_MSG(agent_id_ok(id), "session id '%s'", id);
    struct remote_proc *p = start(r, script, "rank 3");
    REQUIRE(p);
    /* A request answered after the label: the agent has it. */
    REQUIRE(remote_keep(r, 30, "run=/x\nbreak main", err, sizeof err) == 0);
    CHECK(!strcmp(remote_session(r), id));
    pid_t pid = p->pid;
    char out[4096] = "", errb[4096] = "";
    CHECK(read_until(r, p, &p->out, out, sizeof out, "start\n"));
    close(p->in);
    close(p->out);
    close(p->err);
    p->in = p->out = p->err = -1;
    drop(r);
    pid_t agent = (pid_t)atol(id);
    CHECK_MSG(wait_for(detached, agent, 10000), "agent %d kept its "
              "connection", (int)agent);
    CHECK_MSG(alive(pid), "process %d ended with the connection", (int)pid);
    /* It writes while nobody is attached. */
    FILE *f = fopen(go, "w");
    REQUIRE(f);
    fclose(f);
    CHECK(wait_for(exists, (long)wrote, 10000));

    /* Listed on a plain connection to the host. */
    struct remote *q;
    REQUIRE(remote_connect(&q, &opts, err, sizeof err) == 0);
    char **ids;
    size_t nids;
    REQUIRE(remote_sessions(q, &ids, &nids, err, sizeof err) == 0);
    int listed = 0;
    for (size_t i = 0; i < nids; i++) {
        listed |= !strcmp(ids[i], id);
        free(ids[i]);
    }
    free(ids);
    CHECK_MSG(listed, "session %s not listed", id);
    /* A plain agent does not keep. */
    CHECK(remote_keep(q, 10, NULL, err, sizeof err) < 0);
    CHECK_MSG(strstr(err, "not started to keep") != NULL, "'%s'", err);
    remote_close(q);

    struct remote *a;
    struct remote_proc **procs;
    size_t n;
    char *note;
    int attached = remote_attach(&a, &opts, id, &procs, &n, &note, err,
                                 sizeof err) == 0;
    CHECK_MSG(attached, "attach: %s", err);
    REQUIRE(attached);
    REQUIRE(n == 1);
    CHECK_MSG(!strcmp(note, "run=/x\nbreak main"), "note '%s'", note);
    free(note);
    struct remote_proc *k = procs[0];
    free(procs);
    CHECK(k->pid == pid && k->label && !strcmp(k->label, "rank 3") &&
          !k->exited && k->in >= 0 && k->out >= 0 && k->err >= 0);
    CHECK(read_until(a, k, &k->out, out, sizeof out, "while-away\n"));
    CHECK(read_until(a, k, &k->err, errb, sizeof errb, "err-away\n"));
    /* A second client cannot take it meanwhile. */
    struct remote *b;
    CHECK(remote_attach(&b, &opts, id, &procs, &n, &note, err,
                        sizeof err) < 0);
    CHECK_MSG(strstr(err, "attached to another connection") != NULL, "'%s'",
              err);
    CHECK(write(k->in, "typed\n", 6) == 6);
    CHECK(read_until(a, k, &k->out, out, sizeof out, "typed\n"));
    CHECK_MSG(!strcmp(out, "start\nwhile-away\ntyped\n"), "out '%s'", out);
    close(k->in);
    k->in = -1;
    CHECK(read_until(a, k, &k->out, out, sizeof out, NULL));
    CHECK(k->exited && WIFEXITED(k->status) && WEXITSTATUS(k->status) == 0);
    /* Keeping off: the agent ends with this connection, socket and all. */
    CHECK(remote_keep(a, 0, NULL, err, sizeof err) == 0);
    remote_close(a);
    CHECK_MSG(wait_for(gone, agent, 10000), "agent %d still runs",
              (int)agent);
}

TEST(time_limit)
{
    char err[1024];
    struct remote *r = connect_keep(1, err, sizeof err);
    CHECK_MSG(r != NULL, "connect: %s", err);
    REQUIRE(r);
    pid_t agent = (pid_t)atol(remote_session(r));
    struct remote_proc *p = start(r, "sleep 100 & exec sleep 100", "rank 0");
    REQUIRE(p);
    pid_t pid = p->pid;
    drop(r);
    int64_t t0 = now_ms();
    CHECK(wait_for(detached, agent, 10000));
    CHECK_MSG(alive(pid) && kill(-pid, 0) == 0, "ended at once");
    CHECK_MSG(wait_for(gone, pid, 10000), "process %d kept past the limit",
              (int)pid);
    int64_t took = now_ms() - t0;
    CHECK_MSG(took >= 900, "ended after %lld ms, before the limit",
              (long long)took);
    CHECK(wait_for(gone, agent, 5000));
    CHECK(kill(-pid, 0) < 0 && errno == ESRCH); /* its group too */
    /* Its socket went with it: attaching says there is no such session. */
    struct remote *a;
    struct remote_proc **procs;
    size_t n;
    char *note, id[16];
    snprintf(id, sizeof id, "%d", (int)agent);
    CHECK(remote_attach(&a, &opts, id, &procs, &n, &note, err,
                        sizeof err) < 0);
    CHECK_MSG(strstr(err, "no kept session") != NULL, "'%s'", err);
}

/* The resident memory of process PID in KiB (-1 unknown). */
static long rss_kib(pid_t pid)
{
    char path[64], line[256];
    long kib = -1;
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "VmRSS:", 6))
            kib = atol(line + 6);
    if (f)
        fclose(f);
    return kib;
}

TEST(held_is_bounded)
{
    /* 40 MB written while nobody is attached: the agent holds a bounded
     * part, the writer waits (it is still there), and after attach every
     * byte arrives, in order. */
    char err[1024];
    struct remote *r = connect_keep(30, err, sizeof err);
    CHECK_MSG(r != NULL, "connect: %s", err);
    REQUIRE(r);
    pid_t agent = (pid_t)atol(remote_session(r));
    char id[16];
    snprintf(id, sizeof id, "%s", remote_session(r));
    struct remote_proc *p = start(r, "read x; head -c 40000000 /dev/zero | "
                                  "tr '\\0' x; echo end", "rank 1");
    REQUIRE(p);
    pid_t pid = p->pid;
    drop(r);
    REQUIRE(wait_for(detached, agent, 10000));
    struct remote *a;
    struct remote_proc **procs;
    size_t n;
    char *note;
    /* Its input, through a connection that looks and goes away. */
    int ok = remote_peek(&a, &opts, id, &procs, &n, &note, err,
                         sizeof err) == 0;
    CHECK_MSG(ok, "peek: %s", err);
    REQUIRE(ok && n == 1);
    free(note);
    CHECK(write(procs[0]->in, "go\n", 3) == 3);
    free(procs);
    /* Two requests answered: the input, sent with the first, was taken. */
    CHECK(remote_keep(a, 30, NULL, err, sizeof err) == 0);
    CHECK(remote_keep(a, 30, NULL, err, sizeof err) == 0);
    drop(a);
    REQUIRE(wait_for(detached, agent, 10000));
    int64_t end = now_ms() + 600;
    while (now_ms() < end)
        nap();
    long kib = rss_kib(agent);
    printf("# the agent's resident memory, 40 MB written meanwhile: %ld KiB\n",
           kib);
    CHECK_MSG(alive(pid), "the writer ended: its output was not held");
    CHECK_MSG(kib > 0 && kib < 24 * 1024, "the agent holds %ld KiB", kib);
    ok = remote_attach(&a, &opts, id, &procs, &n, &note, err,
                       sizeof err) == 0;
    CHECK_MSG(ok, "attach: %s", err);
    REQUIRE(ok && n == 1);
    free(note);
    struct remote_proc *k = procs[0];
    free(procs);
    size_t total = 0, bad = 0;
    char tail[8] = "";
    end = now_ms() + 30000;
    while (!(remote_proc_done(k) && k->out < 0) && now_ms() < end) {
        struct pollfd fds[REMOTE_MAX_POLLFDS(1) + 1];
        int m = remote_pollfds(a, fds, REMOTE_MAX_POLLFDS(1)), base = m;
        if (k->out >= 0)
            fds[m++] = (struct pollfd){.fd = k->out, .events = POLLIN};
        poll(fds, (nfds_t)m, 200);
        if (remote_process(a, fds, base) < 0)
            break;
        if (m > base && fds[base].revents) {
            char buf[65536];
            ssize_t got = read(k->out, buf, sizeof buf);
            if (got <= 0) {
                close(k->out);
                k->out = -1;
                continue;
            }
            for (ssize_t i = 0; i < got; i++, total++) {
                if (total < 40000000 && buf[i] != 'x')
                    bad++;
                if (total >= 40000000 && total < 40000004)
                    tail[total - 40000000] = buf[i];
            }
        }
    }
    CHECK_MSG(total == 40000004 && !bad && !strcmp(tail, "end\n"),
              "%zu bytes, %zu wrong, ending '%s'", total, bad, tail);
    CHECK(k->exited && WIFEXITED(k->status) && WEXITSTATUS(k->status) == 0);
    remote_keep(a, 0, NULL, err, sizeof err);
    remote_close(a);
    CHECK(wait_for(gone, agent, 10000));
}

TEST(ids)
{
    char err[1024];
    struct remote *a;
    struct remote_proc **procs;
    size_t n;
    char *note;
    CHECK(remote_attach(&a, &opts, "../x", &procs, &n, &note, err,
                        sizeof err) < 0);
    CHECK_MSG(strstr(err, "is not a session id") != NULL, "'%s'", err);
    CHECK(remote_attach(&a, &opts, "", &procs, &n, &note, err,
                        sizeof err) < 0);
    /* No such session: the host's agent says so. */
    CHECK(remote_attach(&a, &opts, "999999999", &procs, &n, &note, err,
                        sizeof err) < 0);
    CHECK_MSG(strstr(err, "no kept session 999999999") != NULL, "'%s'", err);
}

/* Runs DRDB agent --keep 5 with XDG_RUNTIME_DIR=DIR: connects; 0 or -1. */
static int keep_in(const char *dir, char *err, size_t errlen)
{
    setenv("XDG_RUNTIME_DIR", dir, 1);
    struct remote *r = connect_keep(5, err, errlen);
    if (r) {
        remote_keep(r, 0, NULL, err, errlen);
        remote_close(r);
    }
    snprintf(err + strlen(err), errlen - strlen(err), "%s", "");
    return r ? 0 : -1;
}

TEST(socket_directory)
{
    char dir[300], target[300], err[1024], path[400];
    /* A link where the directory should be: refused, not followed. */
    snprintf(dir, sizeof dir, "%s/xdg-link", tmp);
    snprintf(target, sizeof target, "%s/elsewhere", tmp);
    REQUIRE(mkdir(dir, 0700) == 0 && mkdir(target, 0700) == 0);
    snprintf(path, sizeof path, "%s/drdb-agent", dir);
    REQUIRE(symlink(target, path) == 0);
    CHECK(keep_in(dir, err, sizeof err) < 0);
    CHECK_MSG(strstr(err, "is not a directory of its own") != NULL, "'%s'",
              err);
    /* Others can write it: refused. */
    snprintf(dir, sizeof dir, "%s/xdg-open", tmp);
    snprintf(path, sizeof path, "%s/drdb-agent", dir);
    REQUIRE(mkdir(dir, 0700) == 0 && mkdir(path, 0700) == 0 &&
            chmod(path, 0777) == 0);
    CHECK(keep_in(dir, err, sizeof err) < 0);
    CHECK_MSG(strstr(err, "mode 777") != NULL, "'%s'", err);
    /* Made by the agent: the user's, 0700; its socket 0600. */
    snprintf(dir, sizeof dir, "%s/xdg-new", tmp);
    REQUIRE(mkdir(dir, 0700) == 0);
    setenv("XDG_RUNTIME_DIR", dir, 1);
    struct remote *r = connect_keep(5, err, sizeof err);
    CHECK_MSG(r != NULL, "'%s'", err);
    REQUIRE(r);
    struct stat st;
    snprintf(path, sizeof path, "%s/drdb-agent", dir);
    CHECK(lstat(path, &st) == 0 && S_ISDIR(st.st_mode) &&
          (st.st_mode & 0777) == 0700 && st.st_uid == getuid());
    snprintf(path, sizeof path, "%s/drdb-agent/%s.sock", dir,
             remote_session(r));
    CHECK(lstat(path, &st) == 0 && S_ISSOCK(st.st_mode) &&
          (st.st_mode & 0777) == 0600);
    remote_keep(r, 0, NULL, err, sizeof err);
    remote_close(r);
    CHECK(wait_for(gone, atol(strrchr(path, '/') + 1), 5000));
    CHECK_MSG(access(path, F_OK) < 0, "socket left: %s", path);
    snprintf(dir, sizeof dir, "%s/xdg", tmp);
    setenv("XDG_RUNTIME_DIR", dir, 1);
}

TEST(another_user)
{
    /* SO_PEERCRED: a connection from another uid is refused (as root: a
     * child becomes nobody). */
    if (getuid() != 0) {
        printf("# skipped: not root, no other uid to connect as\n");
        return;
    }
    char path[100], err[512];
    if (snprintf(path, sizeof path, "%s/open.sock", tmp) >= (int)sizeof path)
        return;
    int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    snprintf(a.sun_path, sizeof a.sun_path, "%s", path);
    REQUIRE(s >= 0 && bind(s, (struct sockaddr *)&a, sizeof a) == 0 &&
            chmod(path, 0777) == 0 && chmod(tmp, 0755) == 0 &&
            listen(s, 1) == 0);
    pid_t child = fork();
    if (child == 0) {
        if (setuid(65534) < 0)
            _exit(2);
        int c = socket(AF_UNIX, SOCK_STREAM, 0);
        if (connect(c, (struct sockaddr *)&a, sizeof a) < 0)
            _exit(3);
        agent_hand_over(c);
        char x;
        _exit(read(c, &x, 1) <= 0 ? 0 : 4); /* closed on it */
    }
    int c = accept(s, NULL, NULL);
    int fd[3];
    CHECK(c >= 0 && agent_keep_accept(c, fd, err, sizeof err) < 0);
    CHECK_MSG(strstr(err, "refused a connection of uid 65534") != NULL,
              "'%s'", err);
    close(c);
    int st;
    waitpid(child, &st, 0);
    CHECK_MSG(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child %d", st);
    close(s);
    unlink(path);
    chmod(tmp, 0700);
    /* And the session directory keeps it out before that: 0700. */
    char dir[300];
    REQUIRE(agent_keep_dir(dir, sizeof dir, 0, err, sizeof err) == 0);
    char xdg[300];
    snprintf(xdg, sizeof xdg, "%s/xdg", tmp);
    chmod(tmp, 0755); /* the way to it open: the directory itself stops */
    chmod(xdg, 0755);
    child = fork();
    if (child == 0) {
        if (setuid(65534) < 0)
            _exit(2);
        struct stat x;
        _exit(stat(dir, &x) == 0 && access(dir, X_OK) < 0 ? 0 : 5);
    }
    waitpid(child, &st, 0);
    chmod(xdg, 0700);
    chmod(tmp, 0700);
    CHECK_MSG(WIFEXITED(st) && WEXITSTATUS(st) == 0, "nobody can enter %s",
              dir);
}

/* --hold: a kept session left for the shell test. */
static int hold(void)
{
    char err[1024];
    struct remote *r = connect_keep(30, err, sizeof err);
    if (!r) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    struct remote_proc *p;
    if (remote_keep(r, 30, "hold note", err, sizeof err) < 0 ||
        !(p = start(r, "exec sleep 100", "rank 5"))) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    /* The label is sent: a request answered after it. */
    remote_keep(r, 30, "hold note", err, sizeof err);
    printf("%s %d\n", remote_session(r), (int)p->pid);
    fflush(stdout);
    drop(r);
    return 0;
}

int main(int argc, char **argv)
{
    int held = argc > 1 && !strcmp(argv[1], "--hold");
    argv += held;
    argc -= held;
    if (argc < 2) {
        fprintf(stderr, "usage: test-keep [--hold] DRDB [HOST [OPT...]]\n");
        return 2;
    }
    opts.drdb = argv[1];
    opts.host = argc > 2 ? argv[2] : NULL;
    opts.ssh_opts = (const char *const *)argv + 3;
    opts.nssh_opts = argc > 3 ? argc - 3 : 0;
    if (held)
        return hold();
    snprintf(tmp, sizeof tmp, "%s/drdb-test-keep-XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(tmp))
        return 2;
    if (!opts.host) {
        /* A local agent: its sessions in this test's own directory. */
        char dir[300];
        snprintf(dir, sizeof dir, "%s/xdg", tmp);
        mkdir(dir, 0700);
        setenv("XDG_RUNTIME_DIR", dir, 1);
    }
    RUN(kept_and_attached);
    RUN(time_limit);
    RUN(ids);
    if (!opts.host) {
        RUN(held_is_bounded);
        RUN(socket_directory);
        RUN(another_user);
    }
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    if (system(cmd) != 0)
        printf("# cannot remove %s\n", tmp);
    return check_done();
}
