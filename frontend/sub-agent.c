/* drdb agent: one per host, the processes of remote replays (agent.h). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "agent.h"
#include "fe.h"
#include "life.h"

/* Wait this long for a reaped process's streams to end before its EXIT
 * (a child of its own may keep them open). */
#define DRAIN_MS 2000
#define MAX_PROCS 1024

static struct agent_proc *procs[MAX_PROCS];
static int nprocs;
static int chld_pipe[2] = {-1, -1};

static int64_t now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static void on_chld(int sig)
{
    int e = errno;
    (void)sig;
    if (write(chld_pipe[1], "c", 1) < 0) {
        /* the pipe is full: a wake-up is pending anyway */
    }
    errno = e;
}

static struct agent_proc *find(unsigned ch)
{
    for (int i = 0; i < nprocs; i++)
        if (procs[i]->ch == ch)
            return procs[i];
    return NULL;
}

static int send_err(struct wire_conn *c, unsigned ch, const char *msg)
{
    return wire_send(c, WIRE_ERROR, ch, msg, strlen(msg));
}

static void start(struct wire_conn *c, const struct wire_frame *f)
{
    char msg[4096];
    if (f->channel == 0 || find(f->channel)) {
        snprintf(msg, sizeof msg, "channel %u is in use", f->channel);
        send_err(c, f->channel, msg);
        return;
    }
    struct agent_proc *p = calloc(1, sizeof *p);
    if (!p || nprocs == MAX_PROCS) {
        free(p);
        send_err(c, f->channel, "too many processes on this agent");
        return;
    }
    if (agent_proc_start(p, f, msg, sizeof msg) < 0) {
        free(p);
        send_err(c, f->channel, msg);
        return;
    }
    procs[nprocs++] = p;
    struct wire_buf b;
    wire_buf_init(&b);
    wire_put_u32(&b, (uint32_t)p->pid);
    wire_put_str(&b, msg);
    wire_send_buf(c, WIRE_STARTED, p->ch, &b);
    wire_buf_release(&b);
}

/* One frame from the client: 0, or -1 when the connection must end. */
static int handle(struct wire_conn *c, const struct wire_frame *f)
{
    struct agent_proc *p = find(f->channel);
    struct wire_rd r;
    uint32_t sig;
    switch (f->type) {
    case WIRE_START:
        start(c, f);
        return 0;
    case WIRE_STDIN:
    case WIRE_TTY:
        if (!p)
            return 0; /* it ended meanwhile */
        /* Nothing is kept for a stream that is closed already. */
        if (f->type == WIRE_TTY) {
            if (p->tty >= 0)
                wire_buf_add(&p->ttyq, f->data, f->len);
        } else if (!f->len) {
            p->in_eof = 1;
        } else if (p->in >= 0 && !p->in_eof) {
            wire_buf_add(&p->inq, f->data, f->len);
        }
        return p->inq.oom || p->ttyq.oom ? -1 : 0;
    case WIRE_SIGNAL:
        wire_rd_init(&r, f);
        if (p && !p->reaped && wire_get_u32(&r, &sig) == 0 && sig < 65)
            kill(-p->pid, (int)sig);
        return 0;
    case WIRE_READ:
    case WIRE_RUN:
    case WIRE_SETUP: {
        char msg[4400];
        struct wire_buf b;
        wire_buf_init(&b);
        if ((f->type == WIRE_READ  ? agent_read
             : f->type == WIRE_RUN ? agent_run
                                   : agent_setup)(f, &b, msg,
                                                  sizeof msg) < 0)
            send_err(c, f->channel, msg);
        else if (wire_send_buf(c, WIRE_DATA, f->channel, &b) < 0)
            send_err(c, f->channel, "out of memory");
        wire_buf_release(&b);
        return 0;
    }
    case WIRE_INDEX: {
        char msg[4400];
        if (agent_index(c, f, msg, sizeof msg) < 0)
            send_err(c, f->channel, msg);
        return 0;
    }
    default:
        snprintf(c->err, sizeof c->err, "an unexpected %s frame",
                 wire_type_name(f->type));
        return -1;
    }
}

/* Relays what stream *FD has as TYPE frames; at its end, an empty one. */
static void pump_out(struct wire_conn *c, struct agent_proc *p, int *fd,
                     unsigned type)
{
    long n = wire_send_read(c, type, p->ch, *fd);
    if (n < 0 && (errno == EAGAIN || errno == EINTR))
        return;
    if (n > 0)
        return;
    /* The end (a terminal's master says EIO once its slave is closed). */
    wire_send(c, type, p->ch, NULL, 0);
    if (*fd == p->in)
        p->in = -1;
    close(*fd);
    *fd = -1;
}

/* Writes queue Q to *FD; closes it after the queue when EOF_AFTER. */
static void pump_in(struct wire_buf *q, int *fd, int eof_after, int shared)
{
    while (wire_buf_size(q)) {
        ssize_t n = write(*fd, q->p + q->off, wire_buf_size(q));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno == EAGAIN)
            return;
        if (n <= 0) {
            wire_buf_drop(q, wire_buf_size(q)); /* nobody reads it */
            break;
        }
        wire_buf_drop(q, (size_t)n);
    }
    if (eof_after && !shared) {
        close(*fd);
        *fd = -1;
    }
}

static void reap(void)
{
    char buf[64];
    while (read(chld_pipe[0], buf, sizeof buf) > 0)
        ;
    int st;
    pid_t pid;
    while ((pid = waitpid(-1, &st, WNOHANG)) > 0)
        for (int i = 0; i < nprocs; i++)
            if (procs[i]->pid == pid) {
                procs[i]->reaped = 1;
                procs[i]->status = st;
                procs[i]->reaped_at = now_ms();
            }
}

/* The EXIT of each reaped process whose streams ended (or waited enough). */
static void finish(struct wire_conn *c)
{
    int64_t now = now_ms();
    for (int i = 0; i < nprocs; i++) {
        struct agent_proc *p = procs[i];
        if (!p->reaped ||
            ((p->out >= 0 || p->err >= 0) && now - p->reaped_at < DRAIN_MS))
            continue;
        if (p->out >= 0)
            wire_send(c, WIRE_STDOUT, p->ch, NULL, 0);
        if (p->err >= 0)
            wire_send(c, WIRE_STDERR, p->ch, NULL, 0);
        uint8_t st[4] = {(uint8_t)p->status, (uint8_t)(p->status >> 8),
                         (uint8_t)(p->status >> 16),
                         (uint8_t)(p->status >> 24)};
        wire_send(c, WIRE_EXIT, p->ch, st, sizeof st);
        /* Whatever it left in its group ends with it. */
        kill(-p->pid, SIGKILL);
        agent_proc_release(p);
        free(p);
        procs[i--] = procs[--nprocs];
    }
}

/* Serves the connection until it ends: the exit status. */
static int serve(struct wire_conn *c)
{
    static struct pollfd fds[3 + 4 * MAX_PROCS];
    const int max = (int)(sizeof fds / sizeof *fds);
    int hello = 0;
    for (;;) {
        int n = 0, full = wire_buf_size(&c->outq) > WIRE_HIGH_WATER;
        int waiting = 0;
        wire_poll_add(fds, &n, max, c->in, full ? 0 : POLLIN);
        if (wire_buf_size(&c->outq))
            wire_poll_add(fds, &n, max, c->out, POLLOUT);
        wire_poll_add(fds, &n, max, chld_pipe[0], POLLIN);
        for (int i = 0; i < nprocs; i++) {
            struct agent_proc *p = procs[i];
            short in = full ? 0 : POLLIN;
            if (p->out >= 0)
                wire_poll_add(fds, &n, max, p->out,
                       (short)(in | (p->out == p->in && wire_buf_size(&p->inq)
                                         ? POLLOUT : 0)));
            if (p->err >= 0)
                wire_poll_add(fds, &n, max, p->err, in);
            if (p->in >= 0 && p->in != p->out &&
                (wire_buf_size(&p->inq) || p->in_eof))
                wire_poll_add(fds, &n, max, p->in, POLLOUT);
            if (p->tty >= 0)
                wire_poll_add(fds, &n, max, p->tty,
                       (short)(in | (wire_buf_size(&p->ttyq) ? POLLOUT : 0)));
            waiting |= p->reaped;
        }
        if (poll(fds, (nfds_t)n, waiting ? 100 : -1) < 0 && errno != EINTR)
            return 1;
        if (wire_revents(fds, n, chld_pipe[0]))
            reap();
        if (wire_revents(fds, n, c->in)) {
            int rc = wire_fill(c);
            struct wire_frame f;
            int got;
            while ((got = wire_next(c, &f)) > 0) {
                if (!hello) {
                    uint32_t proto;
                    char *ver = NULL;
                    /* The client judges a mismatch and names this host. */
                    if (wire_get_hello(&f, &proto, &ver) < 0 ||
                        proto != WIRE_PROTOCOL ||
                        strcmp(ver, wire_version()) != 0) {
                        free(ver);
                        return 2;
                    }
                    free(ver);
                    hello = 1;
                    continue;
                }
                if (handle(c, &f) < 0)
                    return 2;
            }
            if (got < 0 || rc <= 0)
                return rc < 0 || got < 0 ? 2 : 0; /* the client is gone */
        }
        for (int i = 0; i < nprocs; i++) {
            struct agent_proc *p = procs[i];
            short ro = wire_revents(fds, n, p->out), re = wire_revents(fds, n, p->err);
            short ri = p->in != p->out ? wire_revents(fds, n, p->in) : 0;
            short rt = wire_revents(fds, n, p->tty);
            if (p->out >= 0 && (ro & (POLLIN | POLLHUP | POLLERR)))
                pump_out(c, p, &p->out, WIRE_STDOUT);
            if (p->err >= 0 && (re & (POLLIN | POLLHUP | POLLERR)))
                pump_out(c, p, &p->err, WIRE_STDERR);
            if (p->in >= 0 && ((ri | ro) & POLLOUT))
                pump_in(&p->inq, &p->in, p->in_eof, p->in == p->out);
            if (p->tty >= 0 && (rt & POLLOUT))
                pump_in(&p->ttyq, &p->tty, 0, 1);
            if (p->tty >= 0 && (rt & (POLLIN | POLLHUP | POLLERR)))
                pump_out(c, p, &p->tty, WIRE_TTY);
        }
        finish(c);
        if (wire_flush(c) < 0)
            return 2;
    }
}

static int run(int argc, char **argv)
{
    (void)argv;
    if (argc > 1) {
        fe_subcmd_usage(&fe_sub_agent, stderr);
        return 2;
    }
    if (isatty(0)) {
        fe_error("the agent speaks drdb's protocol on its standard input "
                 "and output: drdb starts it (drdb replay --host HOST)");
        return 2;
    }
    /* Everything started ends with the agent: at the connection's end
     * below, on HUP and TERM (life.h), and by SIGKILL (each child dies
     * with it). A write to a closed connection is an error, not a
     * signal. */
    life_install(LIFE_TERM);
    signal(SIGPIPE, SIG_IGN);
    signal(SIGINT, SIG_IGN);
    if (pipe2(chld_pipe, O_CLOEXEC | O_NONBLOCK) < 0)
        return fe_error("cannot make a pipe: %s", strerror(errno));
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_chld;
    sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
    sigaction(SIGCHLD, &sa, NULL);
    int fl0 = fcntl(0, F_GETFL), fl1 = fcntl(1, F_GETFL);
    if (fl0 < 0 || fl1 < 0 || fcntl(0, F_SETFL, fl0 | O_NONBLOCK) < 0 ||
        fcntl(1, F_SETFL, fl1 | O_NONBLOCK) < 0)
        return fe_error("cannot use standard input and output: %s",
                        strerror(errno));
    struct wire_conn c;
    struct wire_buf b;
    wire_conn_init(&c, 0, 1);
    wire_buf_init(&b);
    wire_put_hello(&b, wire_version());
    wire_send_buf(&c, WIRE_HELLO, 0, &b);
    wire_buf_release(&b);
    int rc = serve(&c);
    /* The connection ended: so does everything this agent started. */
    for (int i = 0; i < nprocs; i++)
        if (procs[i]->pid > 0)
            kill(-procs[i]->pid, SIGKILL);
    life_end();
    if (rc == 2 && c.err[0])
        fprintf(stderr, "drdb agent: %s\n", c.err);
    fcntl(1, F_SETFL, fl1);
    wire_flush(&c);
    wire_conn_release(&c);
    return rc == 2 ? 1 : rc;
}

const struct fe_subcmd fe_sub_agent = {
    .name = "agent",
    .hidden = 1,
    .args = "",
    .summary = "serve remote replays on this host (started by drdb itself)",
    .help =
        "Not for typing: 'drdb replay --host HOST' starts 'drdb agent' on "
        "HOST over ssh\n(ssh -T HOST drdb agent), or as a local child for "
        "localhost. The agent speaks\ndrdb's framed protocol on its "
        "standard input and output (docs/architecture.md):\nit starts the "
        "replays there, relays their output and exit statuses, and reads\n"
        "run files. Everything it started ends when its connection ends.\n"
        "See docs/remote.md.\n",
    .run = run,
};
