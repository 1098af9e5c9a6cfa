/*
 * test-mi-link.c - mi_gdb_attach(): a real GDB that the test starts
 * itself, driven through given descriptors and callbacks, as the console
 * drives a GDB on another host. Between GDB and the driver a relay moves
 * bytes only when the driver calls the link's pump (as a remote
 * connection does), so every blocking call must pump; the program's
 * terminal is the test's own pty, named to GDB by tty_name. A GDB that
 * still answers an earlier driver's commands: first_token keeps those
 * answers from being taken for the new driver's.
 *
 * usage: test-mi-link PATH-TO-MI-INFERIOR
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "check.h"
#include "mi.h"

static const char *inferior;

/* The "host" side: GDB's pipes, and the relay to the driver's ends. */
struct host {
    pid_t pid;
    int gin, gout, gerr;    /* GDB's stdin (we write), stdout, stderr */
    int rin, rout, rerr;    /* the relay's ends of the driver's sockets */
    int pty_master;
    char pty_name[64];
    int pumps, released, status;
    int sigs[8], nsigs;
};

/* Copies what *FROM has to *TO; at its end, closes both. */
static void relay(int *from, int *to)
{
    char buf[65536];
    ssize_t n = read(*from, buf, sizeof buf);
    if (n <= 0) {
        if (n == 0 || errno != EAGAIN) {
            close(*to);
            close(*from);
            *to = *from = -1;
        }
        return;
    }
    for (ssize_t off = 0; off < n && *to >= 0;) {
        ssize_t w = write(*to, buf + off, (size_t)(n - off));
        if (w <= 0)
            break;
        off += w;
    }
}

static int link_pump(void *ud, int timeout_ms)
{
    struct host *h = ud;
    struct pollfd fds[3] = {{h->gout, POLLIN, 0}, {h->gerr, POLLIN, 0},
                            {h->rin, POLLIN, 0}};
    h->pumps++;
    if (poll(fds, 3, timeout_ms) < 0 && errno != EINTR)
        return -1;
    if (h->gout >= 0 && fds[0].revents)
        relay(&h->gout, &h->rout);
    if (h->gerr >= 0 && fds[1].revents)
        relay(&h->gerr, &h->rerr);
    if (h->rin >= 0 && fds[2].revents)
        relay(&h->rin, &h->gin);
    return 0;
}

static int link_alive(void *ud, int *status)
{
    struct host *h = ud;
    int st;
    if (h->status == -1 && waitpid(h->pid, &st, WNOHANG) == h->pid)
        h->status = st;
    *status = h->status;
    return h->status == -1;
}

static void link_signal(void *ud, int sig)
{
    struct host *h = ud;
    if (h->nsigs < 8)
        h->sigs[h->nsigs++] = sig;
    kill(-h->pid, sig);
}

static void link_release(void *ud)
{
    struct host *h = ud;
    h->released++;
}

/* Starts GDB in its own session with pipes, and the driver on a link
 * with OPT (may be NULL); STALE commands (may be NULL) reach GDB first,
 * as an earlier driver's last ones would. */
static struct mi_gdb *start_with(struct host *h,
                                 const struct mi_gdb_options *opt,
                                 const char *stale)
{
    int in[2], out[2], err[2], sin[2], sout[2], serr[2];
    struct termios t;
    memset(h, 0, sizeof *h);
    h->status = -1;
    REQUIRE(pipe(in) == 0 && pipe(out) == 0 && pipe(err) == 0);
    REQUIRE(socketpair(AF_UNIX, SOCK_STREAM, 0, sin) == 0 &&
            socketpair(AF_UNIX, SOCK_STREAM, 0, sout) == 0 &&
            socketpair(AF_UNIX, SOCK_STREAM, 0, serr) == 0);
    h->pty_master = posix_openpt(O_RDWR | O_NOCTTY);
    REQUIRE(h->pty_master >= 0 && grantpt(h->pty_master) == 0 &&
            unlockpt(h->pty_master) == 0 &&
            ptsname_r(h->pty_master, h->pty_name, sizeof h->pty_name) == 0);
    int slave = open(h->pty_name, O_RDWR | O_NOCTTY);
    REQUIRE(slave >= 0);
    if (tcgetattr(slave, &t) == 0) {
        cfmakeraw(&t);
        tcsetattr(slave, TCSANOW, &t);
    }
    h->pid = fork();
    REQUIRE(h->pid >= 0);
    if (h->pid == 0) {
        setsid();
        dup2(in[0], 0);
        dup2(out[1], 1);
        dup2(err[1], 2);
        execlp("gdb", "gdb", "-nx", "-q", "--interpreter=mi3", (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    close(err[1]);
    h->gin = in[1];
    h->gout = out[0];
    h->gerr = err[0];
    h->rin = sin[1];
    h->rout = sout[1];
    h->rerr = serr[1];
    /* the slave stays open here (as the agent keeps it): the master
       would report a hang-up between runs otherwise */
    struct mi_gdb_link l = {
        .in = sin[0], .out = sout[0], .err = serr[0],
        .pty_fd = h->pty_master, .tty_name = h->pty_name, .pid = h->pid,
        .alive = link_alive, .signal = link_signal, .pump = link_pump,
        .release = link_release, .ud = h,
    };
    if (stale)
        REQUIRE(write(h->gin, stale, strlen(stale)) ==
                (ssize_t)strlen(stale));
    struct mi_gdb *g = NULL;
    char msg[256];
    int r = mi_gdb_attach(&g, opt, &l, msg, sizeof msg);
    CHECK_MSG(r == 0, "attach: %s: %s", mi_strerror(r), msg);
    return g;
}

static struct mi_gdb *start(struct host *h)
{
    return start_with(h, NULL, NULL);
}

static void host_close(struct host *h)
{
    int fds[] = {h->gin, h->gout, h->gerr, h->rin, h->rout, h->rerr};
    for (size_t i = 0; i < sizeof fds / sizeof fds[0]; i++)
        if (fds[i] >= 0)
            close(fds[i]);
    if (h->status == -1) {
        kill(-h->pid, SIGKILL);
        waitpid(h->pid, NULL, 0);
    }
}

/* Setup, a breakpoint, a run to it with the program's output on the given
 * terminal, an interrupt through the signal callback, and the end. */
TEST(linked_gdb)
{
    struct host h;
    struct mi_gdb *g = start(&h);
    struct mi_reply rep;
    REQUIRE(g);
    int r = mi_gdb_wait_ready(g, 20000);
    CHECK_MSG(r == 0, "setup over the link: %s: %s", mi_strerror(r),
              mi_gdb_error(g));
    CHECK_MSG(h.pumps > 0, "the setup pumped the link (%d)", h.pumps);
    CHECK(mi_gdb_has_feature(g, "thread-info"));
    CHECK(mi_gdb_pty_fd(g) == h.pty_master);
    CHECK(mi_gdb_pty_name(g) && strcmp(mi_gdb_pty_name(g), h.pty_name) == 0);

    char *cmd = NULL;
    REQUIRE(asprintf(&cmd, "-file-exec-and-symbols %s", inferior) > 0);
    CHECK_INT_EQ(mi_gdb_exec_sync(g, cmd, &rep, 20000), 0);
    mi_reply_release(&rep);
    free(cmd);
    /* the program on the given terminal: its output is there */
    CHECK_INT_EQ(mi_gdb_exec_sync(g, "-exec-arguments loop", &rep, 20000), 0);
    mi_reply_release(&rep);
    CHECK_INT_EQ(mi_gdb_exec_sync(g, "-exec-run", &rep, 20000), 0);
    mi_reply_release(&rep);
    char out[256] = "";
    size_t len = 0;
    int64_t end = mi_now_ms() + 20000;
    while (!strstr(out, "looping") && mi_now_ms() < end) {
        mi_gdb_step(g, 100);
        ssize_t n = read(h.pty_master, out + len, sizeof out - 1 - len);
        if (n > 0)
            out[len += (size_t)n] = '\0';
    }
    CHECK_MSG(strstr(out, "looping"), "program output on the given tty: "
              "'%s'", out);
    CHECK(mi_gdb_running(g));
    /* -exec-interrupt stops it (the SIGINT fallback goes through the
     * callback when GDB does not answer) */
    CHECK_INT_EQ(mi_gdb_interrupt(g), 0);
    end = mi_now_ms() + 20000;
    while (mi_gdb_running(g) && mi_now_ms() < end)
        mi_gdb_step(g, 100);
    CHECK(!mi_gdb_running(g));
    CHECK(mi_gdb_check_alive(g) == 1);
    /* GDB killed from outside: the driver learns it from alive() */
    kill(-h.pid, SIGKILL);
    while (waitpid(h.pid, &h.status, 0) < 0 && errno == EINTR)
        ;
    r = mi_gdb_exec_sync(g, "-data-evaluate-expression 1", &rep, 20000);
    CHECK_MSG(r == MI_EEXITED, "a dead linked gdb fails its command: %s",
              mi_strerror(r));
    CHECK_MSG(strstr(mi_gdb_error(g), "killed by signal 9"),
              "its end says how: %s", mi_gdb_error(g));
    mi_reply_release(&rep);
    mi_gdb_free(g);
    CHECK_INT_EQ(h.released, 1);
    host_close(&h);
}

/* Freeing a live linked GDB ends it through the callback (SIGKILL) and
 * releases the owner's side once. */
TEST(free_kills)
{
    struct host h;
    struct mi_gdb *g = start(&h);
    REQUIRE(g);
    CHECK_INT_EQ(mi_gdb_wait_ready(g, 20000), 0);
    mi_gdb_free(g);
    int killed = 0;
    for (int i = 0; i < h.nsigs; i++)
        killed |= h.sigs[i] == SIGKILL;
    CHECK_MSG(killed, "SIGKILL through the signal callback");
    CHECK_INT_EQ(h.released, 1);
    int st;
    CHECK(waitpid(h.pid, &st, 0) == h.pid && WIFSIGNALED(st));
    h.status = st;
    host_close(&h);
}

/* A GDB an earlier driver drove (a kept session's, attached again) may
 * still answer that driver's last commands, tokens 1 to 40 here: with
 * first_token above them, those answers are not taken for this driver's
 * (with tokens from 1, its setup and its first command got them). */
static void stale_answers(uint64_t first, int *features, char *value,
                          size_t len)
{
    char stale[2048] = "";
    for (int t = 1; t <= 40; t++)
        snprintf(stale + strlen(stale), sizeof stale - strlen(stale),
                 "%d-data-evaluate-expression 111\n", t);
    struct host h;
    struct mi_gdb_options opt = {.first_token = first};
    struct mi_gdb *g = start_with(&h, &opt, stale);
    struct mi_reply rep;
    REQUIRE(g);
    int ready = mi_gdb_wait_ready(g, 20000);
    CHECK_MSG(!first || ready == 0, "ready: %s", mi_strerror(ready));
    *features = mi_gdb_has_feature(g, "thread-info");
    int r = mi_gdb_exec_sync(g, "-data-evaluate-expression 2+3", &rep,
                             20000);
    CHECK_MSG(!first || r == 0, "2+3: %s", mi_strerror(r));
    const char *v = rep.record ? mi_get_str(rep.record, "value") : NULL;
    snprintf(value, len, "%s", v ? v : "(none)");
    mi_reply_release(&rep);
    mi_gdb_free(g);
    host_close(&h);
}

TEST(first_token)
{
    int features;
    char value[64];
    stale_answers(1000, &features, value, sizeof value);
    CHECK(features);
    CHECK_STR_EQ(value, "5");
    /* the control: from 1, the earlier answers are taken */
    stale_answers(0, &features, value, sizeof value);
    CHECK_MSG(!features || strcmp(value, "5") != 0,
              "tokens from 1 took no stale answer (features %d, value %s): "
              "the test shows nothing", features, value);
}

/* A link without its callbacks is refused, its descriptors closed. */
TEST(bad_link)
{
    int sv[2];
    REQUIRE(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
    struct mi_gdb_link l = {.in = sv[0], .out = -1, .err = -1, .pty_fd = -1};
    struct mi_gdb *g = (struct mi_gdb *)1;
    CHECK_INT_EQ(mi_gdb_attach(&g, NULL, &l, NULL, 0), MI_EINVAL);
    CHECK(g == NULL);
    CHECK(fcntl(sv[0], F_GETFD) < 0); /* closed */
    close(sv[1]);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test-mi-link MI-INFERIOR\n");
        return 2;
    }
    inferior = argv[1];
    signal(SIGPIPE, SIG_IGN);
    RUN(linked_gdb);
    RUN(free_kills);
    RUN(first_token);
    RUN(bad_link);
    return check_done();
}
