/* drdb agent: one per host, the processes of remote replays (agent.h). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
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

/* Keeping (agent.h). */
#define MAX_KEEP_S 604800
static struct {
    int able;              /* started with --keep */
    unsigned secs;         /* the time limit; 0: not keeping */
    char *note;            /* KEEP's */
    char id[16];
    int listen;            /* the session's socket, or -1 */
    char path[4200];
    int done;              /* to the process waiting on the connection */
    int resumed;           /* output to the connection, else to held */
    struct wire_conn held; /* (its outq) output while nobody takes it */
} keep = {.listen = -1, .done = -1, .resumed = 1};

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

int agent_started(pid_t pid)
{
    for (int i = 0; i < nprocs; i++)
        if (procs[i]->pid == pid && !procs[i]->reaped)
            return 1;
    return 0;
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

/* LIST's answer into B. */
static void list(struct wire_buf *b)
{
    struct wire_kept k[MAX_PROCS];
    for (int i = 0; i < nprocs; i++) {
        struct agent_proc *p = procs[i];
        unsigned fl = (p->out >= 0 ? WIRE_KEPT_OUT : 0) |
                      (p->err >= 0 ? WIRE_KEPT_ERR : 0) |
                      (p->tty >= 0 ? WIRE_KEPT_TTY : 0);
        k[i] = (struct wire_kept){p->ch, (uint32_t)p->pid, fl,
                                  (uint32_t)p->status, p->label,
                                  p->tty_name};
        if (p->reaped)
            k[i].flags |= WIRE_KEPT_EXITED;
    }
    wire_put_str(b, keep.id);
    wire_put_list(b, keep.note, k, (size_t)nprocs);
}

/* A frame of keeping (wire.h): 0, or -1 when the connection must end. */
static int keeping(struct wire_conn *c, const struct wire_frame *f,
                   struct agent_proc *p)
{
    struct wire_rd r;
    struct wire_buf b;
    uint32_t secs;
    char *s = NULL, msg[600];
    wire_rd_init(&r, f);
    wire_buf_init(&b);
    switch (f->type) {
    case WIRE_KEEP:
        if (!keep.able) {
            send_err(c, f->channel, "this agent was not started to keep "
                     "its processes: connect with keeping asked for "
                     "(remote_opts.keep_s)");
            break;
        }
        if (wire_get_u32(&r, &secs) < 0 || !(s = wire_get_str(&r)) ||
            r.at != r.len || strlen(s) > WIRE_MAX_NOTE ||
            secs > MAX_KEEP_S) {
            snprintf(msg, sizeof msg, "a malformed KEEP (a note over %u "
                     "bytes, or more than %u s)", WIRE_MAX_NOTE, MAX_KEEP_S);
            send_err(c, f->channel, msg);
            break;
        }
        free(keep.note);
        keep.note = s;
        s = NULL;
        keep.secs = secs;
        wire_put_str(&b, keep.id);
        wire_send_buf(c, WIRE_DATA, f->channel, &b);
        break;
    case WIRE_LABEL:
        if (p && (s = wire_get_str(&r)) && strlen(s) <= WIRE_MAX_LABEL) {
            free(p->label);
            p->label = s;
            s = NULL;
        }
        break;
    case WIRE_LIST:
        list(&b);
        if (wire_send_buf(c, WIRE_DATA, f->channel, &b) < 0)
            send_err(c, f->channel, "out of memory");
        break;
    case WIRE_RESUME:
        /* What was held for the next client, then the processes' output
         * straight again. */
        if (!keep.resumed) {
            wire_buf_add(&c->outq, keep.held.outq.p + keep.held.outq.off,
                         wire_buf_size(&keep.held.outq));
            wire_buf_drop(&keep.held.outq, wire_buf_size(&keep.held.outq));
            keep.resumed = 1;
        }
        break;
    case WIRE_SESSIONS:
        if (agent_sessions(&b, msg, sizeof msg) < 0)
            send_err(c, f->channel, msg);
        else
            wire_send_buf(c, WIRE_DATA, f->channel, &b);
        break;
    }
    free(s);
    wire_buf_release(&b);
    return c->outq.oom ? -1 : 0;
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
    case WIRE_SETUP:
    case WIRE_SHADOW: {
        char msg[4400];
        struct wire_buf b;
        wire_buf_init(&b);
        if ((f->type == WIRE_READ    ? agent_read
             : f->type == WIRE_RUN   ? agent_run
             : f->type == WIRE_SETUP ? agent_setup
                                     : agent_shadow)(f, &b, msg,
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
    case WIRE_KEEP:
    case WIRE_LABEL:
    case WIRE_LIST:
    case WIRE_RESUME:
    case WIRE_SESSIONS:
        return keeping(c, f, p);
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
        for (int i = agent_shadow_reaped(pid, st) ? nprocs : 0; i < nprocs;
             i++)
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

/* The connection ended while keeping: the processes go on, their output
 * held; what was queued for that connection is dropped with it (it may
 * end inside a frame). Its descriptors are let go, so the process ssh
 * started can end. */
static void detach(struct wire_conn *c)
{
    wire_buf_drop(&c->outq, wire_buf_size(&c->outq));
    wire_buf_drop(&c->inq, wire_buf_size(&c->inq));
    agent_null_stdio(3);
    c->in = c->out = -1;
    if (keep.done >= 0) {
        if (write(keep.done, "d", 1) < 0) {
            /* it is gone: nothing waits */
        }
        close(keep.done);
        keep.done = -1;
    }
    keep.resumed = 0;
}

static void send_hello(struct wire_conn *c)
{
    struct wire_buf b;
    wire_buf_init(&b);
    wire_put_hello(&b, wire_version());
    wire_send_buf(c, WIRE_HELLO, 0, &b);
    wire_buf_release(&b);
}

/* A connection handed over on the session's socket (agent_attach): it
 * becomes C when none is there: 1, else 0. */
static int take(struct wire_conn *c)
{
    int fd[3], s = accept4(keep.listen, NULL, NULL, SOCK_CLOEXEC);
    char err[600];
    if (s < 0)
        return 0;
    if (agent_keep_accept(s, fd, err, sizeof err) < 0) {
        close(s);
        return 0;
    }
    if (c->in >= 0) {
        /* Another client has it: it says so to this one, and ends. */
        struct wire_conn x;
        wire_conn_init(&x, fd[0], fd[1]);
        send_hello(&x);
        snprintf(err, sizeof err, "session %s is attached to another "
                 "connection: end that one first", keep.id);
        send_err(&x, 0, err);
        wire_flush(&x);
        wire_conn_release(&x);
        for (int i = 0; i < 3; i++)
            close(fd[i]);
        close(s);
        return 0;
    }
    for (int i = 0; i < 3; i++) {
        dup2(fd[i], i);
        close(fd[i]);
    }
    int fl0 = fcntl(0, F_GETFL), fl1 = fcntl(1, F_GETFL);
    if (fl0 >= 0)
        fcntl(0, F_SETFL, fl0 | O_NONBLOCK);
    if (fl1 >= 0)
        fcntl(1, F_SETFL, fl1 | O_NONBLOCK);
    c->in = 0;
    c->out = 1;
    keep.done = s;
    send_hello(c);
    return 1;
}

/* Serves the connection until it ends (kept: until nobody took the
 * session back for the time limit): the exit status. */
static int serve(struct wire_conn *c)
{
    static struct pollfd fds[4 + 4 * MAX_PROCS];
    static struct wire_ready ready;
    const int max = (int)(sizeof fds / sizeof *fds);
    int hello = 0, more = 0;
    int64_t deadline = 0;
    for (;;) {
        /* The processes' output: to the connection, or held. */
        struct wire_conn *o = keep.resumed ? c : &keep.held;
        int n = 0, full = wire_buf_size(&o->outq) > WIRE_HIGH_WATER;
        int waiting = 0, timeout = -1, end = 0;
        wire_poll_add(fds, &n, max, c->in,
                      wire_buf_size(&c->outq) > WIRE_HIGH_WATER ? 0 : POLLIN);
        if (wire_buf_size(&c->outq))
            wire_poll_add(fds, &n, max, c->out, POLLOUT);
        wire_poll_add(fds, &n, max, chld_pipe[0], POLLIN);
        wire_poll_add(fds, &n, max, keep.listen, POLLIN);
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
            waiting |= p->reaped && keep.resumed;
        }
        if (waiting)
            timeout = 100;
        int room = wire_buf_size(&c->outq) <= WIRE_HIGH_WATER;
        if (more && room)
            timeout = 0; /* requests read before, not handled yet */
        if (c->in < 0) { /* kept, nobody attached */
            int64_t left = deadline - now_ms();
            if (left <= 0)
                return 0; /* the time limit: everything ends */
            if (timeout < 0 || left < timeout)
                timeout = (int)left;
        }
        if (poll(fds, (nfds_t)n, timeout) < 0 && errno != EINTR)
            return 1;
        wire_ready_take(&ready, fds, n);
        if (wire_ready_get(&ready, chld_pipe[0]))
            reap();
        if (wire_ready_get(&ready, keep.listen) && take(c))
            hello = 0;
        /* Requests are handled while their answers find room: with
         * several INDEX requests read at once, the first copy goes out
         * while the next is made, and the client takes it meanwhile. */
        int readable = wire_ready_get(&ready, c->in);
        if (c->in >= 0 && (readable || (more && room))) {
            int rc = readable ? wire_fill(c) : 1;
            struct wire_frame f;
            int got = 0;
            more = 0;
            while (!end && !more && (got = wire_next(c, &f)) > 0) {
                if (!hello) {
                    uint32_t proto;
                    char *ver = NULL;
                    /* The client judges a mismatch and names this host. */
                    if (wire_get_hello(&f, &proto, &ver) < 0 ||
                        proto != WIRE_PROTOCOL ||
                        strcmp(ver, wire_version()) != 0)
                        end = 2;
                    free(ver);
                    hello = 1;
                    continue;
                }
                if (handle(c, &f) < 0)
                    end = 2;
                more = wire_buf_size(&c->outq) > WIRE_HIGH_WATER;
            }
            if (!end && (got < 0 || rc <= 0))
                end = rc < 0 || got < 0 ? 2 : 3; /* the client is gone */
        }
        if (end) {
            if (!keep.secs)
                return end == 3 ? 0 : end;
            detach(c);
            deadline = now_ms() + (int64_t)keep.secs * 1000;
            continue;
        }
        for (int i = 0; i < nprocs; i++) {
            struct agent_proc *p = procs[i];
            short ro = wire_ready_get(&ready, p->out), re = wire_ready_get(&ready, p->err);
            short ri = p->in != p->out ? wire_ready_get(&ready, p->in) : 0;
            short rt = wire_ready_get(&ready, p->tty);
            if (p->out >= 0 && (ro & (POLLIN | POLLHUP | POLLERR)))
                pump_out(o, p, &p->out, WIRE_STDOUT);
            if (p->err >= 0 && (re & (POLLIN | POLLHUP | POLLERR)))
                pump_out(o, p, &p->err, WIRE_STDERR);
            if (p->in >= 0 && ((ri | ro) & POLLOUT))
                pump_in(&p->inq, &p->in, p->in_eof, p->in == p->out);
            if (p->tty >= 0 && (rt & POLLOUT))
                pump_in(&p->ttyq, &p->tty, 0, 1);
            if (p->tty >= 0 && (rt & (POLLIN | POLLHUP | POLLERR)))
                pump_out(o, p, &p->tty, WIRE_TTY);
        }
        /* A process's end is told (and forgotten) only to a client that
         * took the session: LIST shows it exited until then. */
        if (keep.resumed)
            finish(c);
        if (c->out >= 0 && wire_flush(c) < 0) {
            if (!keep.secs)
                return 2;
            detach(c);
            deadline = now_ms() + (int64_t)keep.secs * 1000;
        }
    }
}

/* `drdb agent --keep S`: this process becomes the kept agent (agent.h):
 * 0, or 1 after saying why not. */
static int keep_start(long long secs)
{
    char err[4400];
    if (agent_keep_fork(&keep.done) < 0)
        return fe_error("cannot fork: %s", strerror(errno));
    snprintf(keep.id, sizeof keep.id, "%d", (int)getpid());
    keep.listen = agent_keep_listen(keep.id, keep.path, sizeof keep.path,
                                    err, sizeof err);
    if (keep.listen < 0)
        return fe_error("%s", err);
    keep.able = 1;
    keep.secs = (unsigned)secs;
    return 0;
}

struct agent_opts {
    long long keep_s;
    const char *attach; /* "": the only kept session */
};

static int attach_opt(void *dst, const struct fe_opt *o, const char *arg)
{
    (void)o;
    if (arg && !agent_id_ok(arg))
        return fe_error("'%s' is not a session id (digits)", arg), -1;
    *(const char **)dst = arg ? arg : "";
    return 0;
}

#define OFF(f) offsetof(struct agent_opts, f)
static const struct fe_opt agent_opts[] = {
    FE_INT(0, "keep", "SECONDS", OFF(keep_s), 1, MAX_KEEP_S, "seconds, 1 to "
     "604800", "the client may ask (KEEP) that the processes go on when the "
     "connection ends, for SECONDS with nobody attached; the agent listens "
     "on a socket of its user's meanwhile"),
    FE_CALL_OPT(0, "attach", "ID", OFF(attach), attach_opt, "hand this "
     "connection to kept session ID (the only one when not given): what "
     "'drdb attach HOST' runs there"),
    FE_END,
};
#undef OFF

static int run(int argc, char **argv)
{
    struct agent_opts o = {0};
    struct fe_pos pos;
    /* --attach ID: the id as the next word too */
    if (fe_subcmd_parse(&fe_sub_agent, argc, argv, &o, 1, &pos) < 0)
        return 2;
    if (o.attach && pos.n && attach_opt(&o.attach, NULL, pos.v[0]) < 0)
        return 2;
    if (pos.rest < argc || (pos.n && !o.attach) || (o.attach && o.keep_s))
        return fe_subcmd_misuse(&fe_sub_agent);
    if (o.attach)
        return agent_attach(o.attach[0] ? o.attach : NULL);
    if (isatty(0)) {
        fe_error("the agent speaks drdb's protocol on its standard input "
                 "and output: drdb starts it (drdb replay --host HOST)");
        return 2;
    }
    /* Before anything is started or installed: the parent of the fork
     * stays behind for ssh. */
    if (o.keep_s && keep_start(o.keep_s))
        return 1;
    wire_conn_init(&keep.held, -1, -1);
    fe_nofile_raise(); /* the host's ranks: their logs, GDBs' pipes */
    /* Everything started ends with the agent: at the connection's end
     * below (kept: at the time limit), on HUP and TERM (life.h), and by
     * SIGKILL (each child dies with it). A write to a closed connection
     * is an error, not a signal. */
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
    wire_conn_init(&c, 0, 1);
    send_hello(&c);
    int rc = serve(&c);
    /* The connection ended: so does everything this agent started. */
    for (int i = 0; i < nprocs; i++)
        if (procs[i]->pid > 0)
            kill(-procs[i]->pid, SIGKILL);
    life_end();
    if (keep.path[0])
        unlink(keep.path);
    free(keep.note);
    wire_conn_release(&keep.held);
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
        "run files. Everything it started ends when its connection ends.\n",
    .opts = agent_opts,
    .more = "See docs/remote.md, \"Keeping a session\".\n",
    .run = run,
};
