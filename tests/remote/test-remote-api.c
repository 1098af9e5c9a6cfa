/*
 * test-remote-api.c - the client API the console builds on (remote.h),
 * against a real local agent (DRDB agent, started by remote_connect for
 * "localhost": the code path of a remote host but ssh).
 *
 * A process with pipes (stdin in, stdout and stderr out, its exit
 * status), a signal, a process on a terminal, GDB with pipes and its
 * program on the agent's extra terminal (the console's shape), file
 * ranges of a run directory, the refusals, and the end of everything
 * with the connection.
 *
 * usage: test-remote-api DRDB
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "launch.h"
#include "remote.h"
#include "wire.h"

static const char *drdb;
static struct remote *r;

struct got {
    char out[65536], err[4096], tty[4096];
    size_t nout, nerr, ntty;
};

static void take(int *fd, char *buf, size_t *n, size_t cap)
{
    ssize_t k = read(*fd, buf + *n, cap - 1 - *n);
    if (k <= 0) {
        close(*fd);
        *fd = -1;
        return;
    }
    *n += (size_t)k;
    buf[*n] = '\0';
}

/* Pumps until P is done (or UNTIL appears in its tty output, or the
 * deadline): 0, or -1 (lost or timed out). */
static int drain(struct remote_proc *p, struct got *g, const char *until)
{
    time_t end = time(NULL) + 30;
    while (time(NULL) < end) {
        if (remote_proc_done(p) && p->out < 0 && p->err < 0)
            return 0;
        if (until && strstr(g->tty, until) &&
            strstr(g->out, "*stopped,reason=\"exited"))
            return 0;
        struct pollfd fds[REMOTE_MAX_POLLFDS(4) + 3];
        int n = remote_pollfds(r, fds, REMOTE_MAX_POLLFDS(4)), base = n;
        int *mine[3] = {&p->out, &p->err, &p->tty};
        for (int i = 0; i < 3; i++)
            fds[n++] = (struct pollfd){.fd = *mine[i], .events = POLLIN};
        poll(fds, (nfds_t)n, 1000);
        if (remote_process(r, fds, base) < 0)
            return -1;
        if (fds[base].revents)
            take(&p->out, g->out, &g->nout, sizeof g->out);
        if (fds[base + 1].revents)
            take(&p->err, g->err, &g->nerr, sizeof g->err);
        if (fds[base + 2].revents)
            take(&p->tty, g->tty, &g->ntty, sizeof g->tty);
    }
    return -1;
}

static struct remote_proc *start(unsigned flags, char *const *argv,
                                 char *err, size_t errlen)
{
    struct launch_desc d;
    struct remote_proc *p = NULL;
    launch_desc_init(&d);
    launch_desc_argv(&d, argv);
    d.flags = flags;
    launch_env_set(&d.env, "DRDB_TEST_SETTING", "from the description");
    if (remote_start(r, &d, &p, err, errlen) < 0)
        p = NULL;
    launch_desc_release(&d);
    return p;
}

TEST(pipes_and_status)
{
    char err[512];
    char *argv[] = {"sh", "-c", "read x; echo \"got:$x $DRDB_TEST_SETTING\"; "
                    "echo oops >&2; exit 3", NULL};
    struct remote_proc *p = start(0, argv, err, sizeof err);
    REQUIRE(p);
    CHECK(p->pid > 0 && p->in >= 0 && p->out >= 0 && p->err >= 0 &&
          p->tty < 0);
    CHECK(write(p->in, "hello\n", 6) == 6);
    close(p->in);
    struct got g = {0};
    CHECK(drain(p, &g, NULL) == 0);
    CHECK_MSG(!strcmp(g.out, "got:hello from the description\n"), "out '%s'",
              g.out);
    CHECK_MSG(!strcmp(g.err, "oops\n"), "err '%s'", g.err);
    CHECK(p->exited && WIFEXITED(p->status) && WEXITSTATUS(p->status) == 3);
    remote_proc_free(p);
}

/* Each process the agent starts leads a session of its own, as the
 * console's local GDBs do (the kernel's autogroup scheduler gives each
 * session its share: a host's GDBs must not share one). */
TEST(own_session)
{
    char err[512];
    char *argv[] = {"sleep", "30", NULL};
    struct remote_proc *p = start(0, argv, err, sizeof err);
    REQUIRE(p);
    pid_t sid = getsid(p->pid); /* the local agent: the same machine */
    CHECK_MSG(sid == p->pid, "the session of %d is %d", (int)p->pid,
              (int)sid);
    CHECK(getpgid(p->pid) == p->pid);
    remote_proc_free(p);
}

/* Starts in flight together (remote_start_send, then the takes): each
 * answer reaches its own process, a refusal among them included. */
TEST(pipelined_starts)
{
    char err[512];
    char *echo[] = {"sh", "-c", "echo $$", NULL};
    char *none[] = {"/nonexistent/drdb-test-program", NULL};
    struct remote_proc *p[4];
    struct launch_desc d;
    for (int i = 0; i < 4; i++) {
        launch_desc_init(&d);
        launch_desc_argv(&d, i == 2 ? none : echo);
        REQUIRE(remote_start_send(r, &d, &p[i], err, sizeof err) == 0);
        launch_desc_release(&d);
    }
    for (int i = 0; i < 4; i++) {
        int rc = remote_start_take(p[i], err, sizeof err);
        if (i == 2) {
            CHECK_MSG(rc < 0 && strstr(err, "cannot run"), "err '%s'", err);
            continue;
        }
        REQUIRE(rc == 0);
        close(p[i]->in);
        struct got g = {0};
        CHECK(drain(p[i], &g, NULL) == 0);
        CHECK_MSG(atoi(g.out) == (int)p[i]->pid, "process %d said '%s'",
                  (int)p[i]->pid, g.out);
        remote_proc_free(p[i]);
    }
}

TEST(big_output)
{
    /* More than a frame and than the sockets hold: flow through. */
    char err[512];
    char *argv[] = {"sh", "-c", "head -c 3000000 /dev/zero | tr '\\0' x", NULL};
    struct remote_proc *p = start(0, argv, err, sizeof err);
    REQUIRE(p);
    close(p->in);
    size_t total = 0;
    struct got g = {0};
    time_t end = time(NULL) + 30;
    while (!(remote_proc_done(p) && p->out < 0 && p->err < 0) &&
           time(NULL) < end) {
        struct pollfd fds[REMOTE_MAX_POLLFDS(1) + 2];
        int n = remote_pollfds(r, fds, REMOTE_MAX_POLLFDS(1)), base = n;
        fds[n++] = (struct pollfd){.fd = p->out, .events = POLLIN};
        fds[n++] = (struct pollfd){.fd = p->err, .events = POLLIN};
        poll(fds, (nfds_t)n, 1000);
        REQUIRE(remote_process(r, fds, base) == 0);
        if (fds[base].revents) {
            char buf[65536];
            ssize_t k = read(p->out, buf, sizeof buf);
            if (k <= 0) {
                close(p->out);
                p->out = -1;
            } else {
                for (ssize_t i = 0; i < k; i++)
                    CHECK(buf[i] == 'x');
                total += (size_t)k;
            }
        }
        if (fds[base + 1].revents)
            take(&p->err, g.err, &g.nerr, sizeof g.err);
    }
    CHECK_MSG(total == 3000000, "%zu bytes", total);
    remote_proc_free(p);
}

TEST(signal)
{
    char err[512];
    char *argv[] = {"sleep", "100", NULL};
    struct remote_proc *p = start(0, argv, err, sizeof err);
    REQUIRE(p);
    close(p->in);
    CHECK(remote_signal(p, SIGTERM) == 0);
    struct got g = {0};
    CHECK(drain(p, &g, NULL) == 0);
    CHECK(p->exited && WIFSIGNALED(p->status) &&
          WTERMSIG(p->status) == SIGTERM);
    remote_proc_free(p);
}

TEST(terminal)
{
    char err[512];
    char *argv[] = {"sh", "-c", "test -t 0 && test -t 1 && test -t 2 && "
                    "echo on a terminal", NULL};
    struct remote_proc *p = start(LAUNCH_PTY, argv, err, sizeof err);
    REQUIRE(p);
    CHECK(p->err < 0);
    struct got g = {0};
    CHECK(drain(p, &g, NULL) == 0);
    CHECK_MSG(strstr(g.out, "on a terminal") != NULL, "out '%s'", g.out);
    CHECK(p->exited && WIFEXITED(p->status) && WEXITSTATUS(p->status) == 0);
    remote_proc_free(p);
}

TEST(gdb_with_a_terminal)
{
    /* The console's shape: GDB/MI on pipes, the program on the host's
     * terminal the agent made (-inferior-tty-set). */
    char err[512];
    char *argv[] = {"gdb", "-nx", "-q", "--interpreter=mi3", NULL};
    struct remote_proc *p = start(LAUNCH_TTY, argv, err, sizeof err);
    REQUIRE(p);
    REQUIRE(p->tty >= 0 && !strncmp(p->tty_name, "/dev/", 5));
    char cmds[512];
    int n = snprintf(cmds, sizeof cmds,
                     "-inferior-tty-set %s\n"
                     "-file-exec-and-symbols /bin/echo\n"
                     "-exec-arguments through-the-terminal\n"
                     "-exec-run\n", p->tty_name);
    CHECK(write(p->in, cmds, (size_t)n) == n);
    struct got g = {0};
    CHECK(drain(p, &g, "through-the-terminal") == 0);
    CHECK_MSG(strstr(g.tty, "through-the-terminal") != NULL, "tty '%s'",
              g.tty);
    CHECK_MSG(strstr(g.out, "*stopped,reason=\"exited-normally\"") != NULL,
              "out '%s'", g.out);
    CHECK(!strstr(g.out, "through-the-terminal\r") &&
          !strstr(g.out, "\nthrough-the-terminal"));
    CHECK(write(p->in, "-gdb-exit\n", 10) == 10);
    close(p->in);
    CHECK(drain(p, &g, NULL) == 0);
    CHECK(p->exited && WIFEXITED(p->status) && WEXITSTATUS(p->status) == 0);
    remote_proc_free(p);
}

TEST(refusals)
{
    char err[512];
    char *argv[] = {"/nonexistent/program", NULL};
    CHECK(!start(0, argv, err, sizeof err));
    CHECK_MSG(strstr(err, "localhost refused: cannot run "
                     "'/nonexistent/program': No such file") != NULL,
              "'%s'", err);
    struct launch_desc d;
    struct remote_proc *p;
    char *sh[] = {"true", NULL};
    launch_desc_init(&d);
    launch_desc_argv(&d, sh);
    d.rundir = strdup("/nonexistent/run");
    CHECK(remote_start(r, &d, &p, err, sizeof err) < 0);
    CHECK_MSG(strstr(err, "/nonexistent/run") != NULL, "'%s'", err);
    launch_desc_release(&d);
}

TEST(read_ranges)
{
    char dir[] = "/tmp/drdb-test-api-XXXXXX", path[64], err[512], buf[64];
    REQUIRE(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/rank-0.log", dir);
    FILE *f = fopen(path, "w");
    REQUIRE(f);
    fputs("0123456789abcdef", f);
    fclose(f);
    CHECK(remote_read(r, dir, "rank-0.log", 3, buf, 5, err, sizeof err) == 5);
    CHECK(!memcmp(buf, "34567", 5));
    CHECK(remote_read(r, dir, "rank-0.log", 14, buf, 10, err, sizeof err) ==
          2);
    CHECK(remote_read(r, dir, "rank-0.log", 100, buf, 10, err, sizeof err) ==
          0);
    CHECK(remote_read(r, dir, "../etc", 0, buf, 10, err, sizeof err) < 0);
    CHECK(strstr(err, "not a file name") != NULL);
    CHECK(remote_read(r, dir, "..", 0, buf, 10, err, sizeof err) < 0);
    CHECK(remote_read(r, dir, "none", 0, buf, 10, err, sizeof err) < 0);
    CHECK(strstr(err, "No such file") != NULL);
    unlink(path);
    rmdir(dir);
}

/* SHADOW: only of a process the agent started (or a descendant); its
 * directory on the host, polled, listed, stopped and removed. */
TEST(shadows)
{
    char err[512], dir[4200];
    pid_t id;
    CHECK(remote_shadow_start(r, getpid(), NULL, 0, 0, 4, &id, dir,
                              sizeof dir, err, sizeof err) < 0);
    CHECK_MSG(strstr(err, "was not started by this agent") != NULL, "%s",
              err);
    CHECK(remote_shadow_start(r, 1, NULL, 0, 0, 4, &id, dir, sizeof dir,
                              err, sizeof err) < 0);
    CHECK(strstr(err, "was not started by this agent") != NULL);
    int st;
    CHECK(remote_shadow_poll(r, 12345, &st, err, sizeof err) < 0);
    CHECK_MSG(strstr(err, "no such shadow") != NULL, "%s", err);
    char *argv[] = {"sh", "-c", "sleep 100; :", NULL};
    struct remote_proc *p = start(0, argv, err, sizeof err);
    REQUIRE(p);
    int ok = -1;
    for (int i = 0; i < 20 && ok < 0; i++) {
        ok = remote_shadow_start(r, p->pid, NULL, 0, 0, 4, &id, dir,
                                 sizeof dir, err, sizeof err);
        if (ok < 0)
            usleep(20000);
    }
    CHECK_MSG(ok == 0, "%s", err);
    struct stat sb;
    CHECK(ok == 0 && stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode) &&
          (sb.st_mode & 0777) == 0700);
    CHECK(strstr(dir, "/drdb-shadow-") && strstr(dir, "/rank-0"));
    CHECK(ok == 0 && remote_shadow_poll(r, id, &st, err, sizeof err) == 0);
    struct launch_shadow_file *f = NULL;
    CHECK(ok == 0 && remote_shadow_list(r, id, &f, err, sizeof err) == 0);
    free(f);
    CHECK(ok == 0 && remote_shadow_stop(r, id, 1, err, sizeof err) == 0);
    CHECK(ok == 0 && stat(dir, &sb) < 0 && errno == ENOENT);
    CHECK(remote_shadow_poll(r, id, &st, err, sizeof err) < 0);
    remote_signal(p, SIGKILL);
    struct got g = {0};
    drain(p, &g, NULL);
    remote_proc_free(p);
}

TEST(end_with_the_connection)
{
    char err[512];
    char *argv[] = {"sh", "-c", "sleep 100 & sleep 100", NULL};
    struct remote_proc *p = start(0, argv, err, sizeof err);
    REQUIRE(p);
    pid_t pid = p->pid;
    close(p->in);
    close(p->out);
    close(p->err);
    CHECK(kill(pid, 0) == 0);
    remote_close(r);
    r = NULL;
    int gone = 0;
    for (int i = 0; i < 100 && !gone; i++) {
        gone = kill(pid, 0) < 0 && errno == ESRCH;
        gone = gone && kill(-pid, 0) < 0 && errno == ESRCH;
        if (!gone)
            usleep(50000);
    }
    CHECK_MSG(gone, "process group %d still runs", (int)pid);
}

int main(int argc, char **argv)
{
    char err[512];
    if (argc != 2) {
        fprintf(stderr, "usage: test-remote-api DRDB\n");
        return 2;
    }
    drdb = argv[1];
    struct remote_opts o = {.host = "localhost", .drdb = drdb};
    if (remote_connect(&r, &o, err, sizeof err) < 0) {
        printf("not ok 1 - connect: %s\n1..1\n", err);
        return 1;
    }
    RUN(pipes_and_status);
    RUN(own_session);
    RUN(pipelined_starts);
    RUN(big_output);
    RUN(signal);
    RUN(terminal);
    RUN(gdb_with_a_terminal);
    RUN(refusals);
    RUN(read_ranges);
    RUN(shadows);
    RUN(end_with_the_connection);
    return check_done();
}
