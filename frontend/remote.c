/* The client of a drdb agent: frames, processes, requests (remote.h; the
 * connection itself: remote-conn.c). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "launch.h"
#include "life.h"
#include "remote.h"
#include "remote-int.h"
#include "util.h"
#include "wire.h"

/* The client's ends of a process's streams, as indexes of fd[] and q[]. */
enum { S_IN, S_OUT, S_ERR, S_TTY };

const char *remote_host(const struct remote *r)
{
    return r->host;
}

const char *remote_error(const struct remote *r)
{
    return r->err;
}

int remote_lost(const struct remote *r)
{
    return r->lost;
}

void remote__set_nonblock(int fd)
{
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0)
        fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

void remote__close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

/* Keeps the end of the agent's (ssh's) stderr; once connected, shows it. */
static void read_stderr(struct remote *r)
{
    char buf[4096];
    ssize_t n;
    while (r->err_fd >= 0 && (n = read(r->err_fd, buf, sizeof buf)) != 0) {
        if (n < 0) {
            if (errno != EINTR)
                break;
            continue;
        }
        if (r->hello && write(2, buf, (size_t)n) < 0) {
            /* nowhere to say it */
        }
        size_t have = strlen(r->tail), k = (size_t)n;
        if (k >= sizeof r->tail)
            have = 0, k = sizeof r->tail - 1;
        if (have + k >= sizeof r->tail) {
            size_t cut = have + k - (sizeof r->tail - 1);
            memmove(r->tail, r->tail + cut, have - cut + 1);
            have -= cut;
        }
        memcpy(r->tail + have, buf + n - (ssize_t)k, k);
        r->tail[have + k] = '\0';
    }
    if (r->err_fd >= 0 && n == 0)
        remote__close_fd(&r->err_fd);
}

/* The connection is gone: why, in r->err (once). */
static void lose(struct remote *r, const char *why)
{
    if (r->lost)
        return;
    r->lost = 1;
    if (!r->hello && !why) {
        /* Before HELLO: ssh's (or the shell's) exit status says why. */
        int st = -1;
        for (int i = 0; i < 100 && r->pid > 0; i++) {
            if (waitpid(r->pid, &st, WNOHANG) == r->pid) {
                r->pid = -1;
                break;
            }
            struct timespec t = {0, 20000000};
            nanosleep(&t, NULL);
            st = -1;
        }
        int fl = r->err_fd >= 0 ? fcntl(r->err_fd, F_GETFL) : -1;
        if (fl >= 0 && st != -1) {
            fcntl(r->err_fd, F_SETFL, fl & ~O_NONBLOCK);
            read_stderr(r);
        }
        if (r->srun)
            remote__srun_diagnose(r->host, r->drdb[0] ? r->drdb : NULL, st,
                                  r->tail, r->err, sizeof r->err);
        else
            remote__diagnose(r->host, r->drdb[0] ? r->drdb : NULL, r->local,
                             st, r->tail, r->err, sizeof r->err);
        return;
    }
    if (!why) {
        char line[600] = "";
        read_stderr(r);
        const char *t = r->tail + strlen(r->tail);
        while (t > r->tail && (t[-1] == '\n' || t[-1] == '\r'))
            t--;
        const char *s = t;
        while (s > r->tail && s[-1] != '\n')
            s--;
        snprintf(line, sizeof line, "%.*s", (int)(t - s), s);
        snprintf(r->err, sizeof r->err, "connection to %s lost%s%s%s",
                 r->host, line[0] ? " (" : "", line, line[0] ? ")" : "");
        return;
    }
    snprintf(r->err, sizeof r->err, "%s", why);
}

static struct remote_proc *find(struct remote *r, unsigned ch)
{
    for (size_t i = 0; i < r->nprocs; i++)
        if (r->procs[i]->ch == ch)
            return r->procs[i];
    return NULL;
}

/* The request in flight on channel CH, or NULL. */
static struct remote_pend *find_pend(struct remote *r, unsigned ch)
{
    for (size_t i = 0; i < r->npend; i++)
        if (r->pend[i].ch == ch)
            return &r->pend[i];
    return NULL;
}

/* Forgets the request on channel CH (its reply is not wanted, or was
 * taken: its buffers then swapped into r->reply and r->reply_end). */
static void drop_pend(struct remote *r, unsigned ch)
{
    struct remote_pend *q = find_pend(r, ch);
    if (!q)
        return;
    wire_buf_release(&q->data);
    wire_buf_release(&q->end);
    *q = r->pend[--r->npend];
}

static void on_hello(struct remote *r, const struct wire_frame *f)
{
    uint32_t proto;
    char *ver = NULL, msg[1024];
    if (wire_get_hello(f, &proto, &ver) < 0) {
        snprintf(msg, sizeof msg, "%s did not answer as a drdb agent (a "
                 "shell startup file there may print to standard output)",
                 r->host);
        lose(r, msg);
    } else if (proto != WIRE_PROTOCOL || strcmp(ver, wire_version())) {
        remote__mismatch(r->host, proto, ver, wire_version(), msg,
                         sizeof msg);
        lose(r, msg);
    } else {
        r->hello = 1;
    }
    free(ver);
}

/* One frame from the agent. */
static void on_frame(struct remote *r, const struct wire_frame *f)
{
    struct remote_proc *p = find(r, f->channel);
    struct wire_rd rd;
    uint32_t v;
    if (!r->hello) {
        on_hello(r, f);
        return;
    }
    switch (f->type) {
    case WIRE_ERROR:
        if (f->channel == 0) {
            char msg[1024];
            snprintf(msg, sizeof msg, "the drdb agent on %s: %.*s", r->host,
                     (int)(f->len < 900 ? f->len : 900), (const char *)f->data);
            lose(r, msg);
            return;
        }
        /* the reply to a request */
        __attribute__((fallthrough));
    case WIRE_STARTED:
    case WIRE_DATA:
    case WIRE_IMAGE: /* a part of the reply: it ends with IMAGE_END */
    case WIRE_IMAGE_END: {
        struct remote_pend *q = find_pend(r, f->channel);
        if (!q || q->type)
            return;
        if (f->type != WIRE_IMAGE)
            q->type = f->type;
        wire_buf_add(f->type == WIRE_IMAGE_END ? &q->end : &q->data, f->data,
                     f->len);
        return;
    }
    case WIRE_STDOUT:
    case WIRE_STDERR:
    case WIRE_TTY: {
        int s = f->type == WIRE_STDOUT ? S_OUT
                : f->type == WIRE_STDERR ? S_ERR : S_TTY;
        if (!p || p->fd[s] < 0)
            return;
        if (f->len) {
            /* Straight to the caller's end while nothing waits before. */
            size_t done = 0;
            while (!wire_buf_size(&p->q[s]) && done < f->len) {
                ssize_t n = write(p->fd[s], f->data + done, f->len - done);
                if (n <= 0)
                    break;
                done += (size_t)n;
            }
            wire_buf_add(&p->q[s], f->data + done, f->len - done);
        } else
            p->eof |= 1u << s; /* passed on once the queue is written */
        return;
    }
    case WIRE_EXIT:
        wire_rd_init(&rd, f);
        if (p && wire_get_u32(&rd, &v) == 0) {
            p->exited = 1;
            p->status = (int)v;
        }
        return;
    default:
        return;
    }
}

/* ---- the poll loop ------------------------------------------------------ */

int remote_pollfds(struct remote *r, struct pollfd *fds, int max)
{
    int n = 0, full = wire_buf_size(&r->c.outq) > WIRE_HIGH_WATER;
    int backed = 0;
    for (size_t i = 0; i < r->nprocs; i++)
        for (int s = S_OUT; s <= S_TTY; s++)
            backed |= wire_buf_size(&r->procs[i]->q[s]) > WIRE_HIGH_WATER;
    if (r->lost)
        return 0;
    wire_poll_add(fds, &n, max, r->c.in, backed ? 0 : POLLIN);
    if (wire_buf_size(&r->c.outq))
        wire_poll_add(fds, &n, max, r->c.out, POLLOUT);
    wire_poll_add(fds, &n, max, r->err_fd, POLLIN);
    for (size_t i = 0; i < r->nprocs; i++) {
        struct remote_proc *p = r->procs[i];
        wire_poll_add(fds, &n, max, p->fd[S_IN], full ? 0 : POLLIN);
        for (int s = S_OUT; s <= S_ERR; s++)
            if (wire_buf_size(&p->q[s]) || (p->eof & (1u << s)))
                wire_poll_add(fds, &n, max, p->fd[s], POLLOUT);
        if (p->fd[S_TTY] >= 0)
            wire_poll_add(fds, &n, max, p->fd[S_TTY],
                   (short)((full ? 0 : POLLIN) |
                           (wire_buf_size(&p->q[S_TTY]) ? POLLOUT : 0)));
    }
    return n;
}

/* Writes stream S's queue to the caller's end; passes its end on. */
static void write_q(struct remote_proc *p, int s)
{
    struct wire_buf *q = &p->q[s];
    while (wire_buf_size(q)) {
        ssize_t n = write(p->fd[s], q->p + q->off, wire_buf_size(q));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno == EAGAIN)
            return;
        if (n <= 0) { /* the caller closed its end: nobody reads it */
            wire_buf_drop(q, wire_buf_size(q));
            break;
        }
        wire_buf_drop(q, (size_t)n);
    }
    if (p->eof & (1u << s)) {
        p->eof &= ~(1u << s);
        if (s == S_TTY)
            shutdown(p->fd[s], SHUT_WR);
        else
            remote__close_fd(&p->fd[s]);
    }
}

/* Relays what the caller wrote to stream S (STDIN or TTY). */
static void read_in(struct remote *r, struct remote_proc *p, int s)
{
    char buf[WIRE_CHUNK];
    ssize_t n = read(p->fd[s], buf, sizeof buf);
    if (n < 0 && (errno == EAGAIN || errno == EINTR))
        return;
    unsigned type = s == S_IN ? WIRE_STDIN : WIRE_TTY;
    if (n > 0) {
        wire_send(&r->c, type, p->ch, buf, (size_t)n);
        return;
    }
    if (s == S_IN) {
        wire_send(&r->c, WIRE_STDIN, p->ch, NULL, 0);
        remote__close_fd(&p->fd[S_IN]);
    } else {
        remote__close_fd(&p->fd[S_TTY]); /* the caller is done with the terminal */
    }
}

int remote_process(struct remote *r, const struct pollfd *fds, int n)
{
    if (r->lost)
        return -1;
    wire_ready_take(&r->ready, fds, n);
    if (wire_ready_get(&r->ready, r->err_fd))
        read_stderr(r);
    if (wire_ready_get(&r->ready, r->c.in)) {
        int rc = wire_fill(&r->c), got;
        struct wire_frame f;
        while (!r->lost && (got = wire_next(&r->c, &f)) > 0)
            on_frame(r, &f);
        if (!r->lost && got < 0) {
            char msg[600];
            snprintf(msg, sizeof msg, "connection to %s broken: %s",
                     r->host, r->c.err);
            lose(r, msg);
        }
        if (!r->lost && rc <= 0)
            lose(r, NULL);
    }
    for (size_t i = 0; !r->lost && i < r->nprocs; i++) {
        struct remote_proc *p = r->procs[i];
        if (p->fd[S_IN] >= 0 && wire_ready_get(&r->ready, p->fd[S_IN]))
            read_in(r, p, S_IN);
        for (int s = S_OUT; s <= S_TTY; s++) {
            short ev = wire_ready_get(&r->ready, p->fd[s]);
            if (p->fd[s] >= 0 && (ev & (POLLOUT | POLLERR)))
                write_q(p, s);
        }
        short ev = wire_ready_get(&r->ready, p->fd[S_TTY]);
        if (p->fd[S_TTY] >= 0 && (ev & (POLLIN | POLLHUP)))
            read_in(r, p, S_TTY);
    }
    if (!r->lost && wire_flush(&r->c) < 0)
        lose(r, NULL);
    return r->lost ? -1 : 0;
}

int remote_wait(struct remote *const *rs, int n, int timeout)
{
    int max = 0, used = 0, rc = 0;
    for (int i = 0; i < n; i++)
        if (rs[i] && !rs[i]->lost)
            max += REMOTE_MAX_POLLFDS((int)rs[i]->nprocs);
    if (!max)
        return 0;
    struct pollfd *fds = calloc((size_t)max, sizeof *fds);
    int *k = calloc((size_t)n, sizeof *k);
    if (!fds || !k) {
        free(fds);
        free(k);
        return -1;
    }
    for (int i = 0; i < n; i++)
        if (rs[i] && !rs[i]->lost)
            used += k[i] = remote_pollfds(rs[i], fds + used, max - used);
    if (poll(fds, (nfds_t)used, timeout) < 0 && errno != EINTR)
        rc = -1;
    used = 0;
    for (int i = 0; rc == 0 && i < n; i++)
        if (k[i]) {
            remote_process(rs[i], fds + used, k[i]);
            used += k[i];
        }
    free(fds);
    free(k);
    return rc;
}

int remote__pump(struct remote *r, int timeout)
{
    if (remote_wait(&r, 1, timeout) < 0)
        lose(r, errno == ENOMEM ? "out of memory" : strerror(errno));
    return r->lost ? -1 : 0;
}

/* ---- requests ----------------------------------------------------------- */

/* A channel no process or request uses. */
unsigned remote__new_channel(struct remote *r)
{
    for (;;) {
        unsigned ch = r->next_ch++;
        if (r->next_ch > 65535)
            r->next_ch = 1;
        if (!find(r, ch) && !find_pend(r, ch))
            return ch;
    }
}

unsigned remote__send(struct remote *r, unsigned type, unsigned ch,
                      const struct wire_buf *b)
{
    if (r->lost)
        return 0;
    if (!ch)
        ch = remote__new_channel(r);
    if (util_grow(&r->pend, &r->pcap, r->npend + 1, sizeof *r->pend) < 0 ||
        wire_send_buf(&r->c, type, ch, b) < 0) {
        lose(r, "out of memory");
        return 0;
    }
    struct remote_pend *q = &r->pend[r->npend++];
    q->ch = ch;
    q->type = 0;
    wire_buf_init(&q->data);
    wire_buf_init(&q->end);
    return ch;
}

int remote__answered(struct remote *r, unsigned ch)
{
    struct remote_pend *q = find_pend(r, ch);
    return r->lost || !q || q->type;
}

void remote__drop(struct remote *r, unsigned ch)
{
    drop_pend(r, ch);
}

/* Pumps until the reply on channel CH came: its type, moved into r->reply
 * and r->reply_end, or -1 when the connection is lost (or CH is no
 * request in flight). */
static int take(struct remote *r, unsigned ch)
{
    struct remote_pend *q;
    while (!r->lost && (q = find_pend(r, ch)) && !q->type)
        remote__pump(r, -1);
    if (!(q = find_pend(r, ch)) || !q->type) {
        drop_pend(r, ch);
        if (!r->err[0])
            snprintf(r->err, sizeof r->err, "no request on channel %u", ch);
        return -1;
    }
    int type = q->type;
    struct wire_buf t = r->reply;
    r->reply = q->data;
    q->data = t;
    t = r->reply_end;
    r->reply_end = q->end;
    q->end = t;
    drop_pend(r, ch);
    return type;
}

/* The ERROR reply's text into ERR: "HOST refused: TEXT" (TEXT may be
 * lines of drdb's own, "drdb: " dropped from the first). */
static void reply_error(struct remote *r, char *err, size_t errlen)
{
    remote__refused(r, &r->reply, err, errlen);
}

void remote__refused(const struct remote *r, const struct wire_buf *text,
                     char *err, size_t errlen)
{
    const char *t = (const char *)text->p + text->off;
    int n = (int)wire_buf_size(text);
    if (n >= 6 && !strncmp(t, "drdb: ", 6))
        t += 6, n -= 6;
    snprintf(err, errlen, "%s refused: %.*s", r->host, n, t);
}

/* RD reads the payload of the reply request() took (r->reply). */
static void reply_rd(const struct remote *r, struct wire_rd *rd)
{
    struct wire_frame f = {WIRE_DATA, 0, (uint32_t)wire_buf_size(&r->reply),
                           r->reply.p + r->reply.off};
    wire_rd_init(rd, &f);
}

int remote__take(struct remote *r, unsigned ch, int want, char *err,
                 size_t errlen)
{
    int got = ch ? take(r, ch) : -1;
    if (got == want)
        return 0;
    if (got == WIRE_ERROR)
        reply_error(r, err, errlen);
    else
        snprintf(err, errlen, "%s", r->err);
    return -1;
}

int remote__ask(struct remote *r, unsigned type, const struct wire_buf *b,
                int want, char *err, size_t errlen)
{
    return remote__take(r, remote__send(r, type, 0, b), want, err, errlen);
}

struct remote_proc *remote__proc_new(struct remote *r, unsigned ch,
                                     int with_err, int with_tty, char *err,
                                     size_t errlen)
{
    struct remote_proc *p = calloc(1, sizeof *p);
    int sv[4][2];
    int ok = p && (p->q = calloc(4, sizeof *p->q)) &&
             util_grow(&r->procs, &r->cap, r->nprocs + 1,
                       sizeof *r->procs) == 0;
    for (int s = 0; s < 4; s++)
        sv[s][0] = sv[s][1] = -1;
    if (p)
        for (int s = 0; s < 4; s++)
            p->fd[s] = -1;
    for (int s = 0; ok && s < 4; s++) {
        if ((s == S_ERR && !with_err) || (s == S_TTY && !with_tty))
            continue;
        if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv[s]) < 0)
            ok = 0;
    }
    if (!ok) {
        snprintf(err, errlen, "cannot make sockets: %s", strerror(errno));
        for (int s = 0; s < 4; s++) {
            remote__close_fd(&sv[s][0]);
            remote__close_fd(&sv[s][1]);
        }
        if (p)
            free(p->q);
        free(p);
        return NULL;
    }
    p->r = r;
    p->ch = ch ? ch : remote__new_channel(r);
    p->in = sv[S_IN][0];
    p->out = sv[S_OUT][0];
    p->err = sv[S_ERR][0];
    p->tty = sv[S_TTY][0];
    for (int s = 0; s < 4; s++) {
        p->fd[s] = sv[s][1];
        if (p->fd[s] >= 0)
            remote__set_nonblock(p->fd[s]);
    }
    r->procs[r->nprocs++] = p;
    return p;
}

int remote__take_data(struct remote *r, unsigned ch, struct wire_rd *rd,
                      char *err, size_t errlen)
{
    if (remote__take(r, ch, WIRE_DATA, err, errlen) < 0)
        return -1;
    reply_rd(r, rd);
    return 0;
}

int remote__ask_data(struct remote *r, unsigned type,
                     const struct wire_buf *b, struct wire_rd *rd, char *err,
                     size_t errlen)
{
    return remote__take_data(r, remote__send(r, type, 0, b), rd, err, errlen);
}

/* Frees P, which never started (or whose start failed): nothing to kill. */
static void abandon(struct remote_proc *p)
{
    p->exited = 1;
    remote__close_fd(&p->in);
    remote__close_fd(&p->out);
    remote__close_fd(&p->err);
    remote__close_fd(&p->tty);
    remote_proc_free(p);
}

int remote_start_send(struct remote *r, const struct launch_desc *d,
                      struct remote_proc **out, char *err, size_t errlen)
{
    struct remote_proc *p =
        remote__proc_new(r, 0, !(d->flags & LAUNCH_PTY),
                         !!(d->flags & LAUNCH_TTY), err, errlen);
    if (!p)
        return -1;
    struct wire_buf b;
    wire_buf_init(&b);
    wire_put_desc(&b, d);
    unsigned ch = remote__send(r, WIRE_START, p->ch, &b);
    wire_buf_release(&b);
    if (!ch) {
        snprintf(err, errlen, "%s", r->err);
        abandon(p);
        return -1;
    }
    *out = p;
    return 0;
}

int remote_start_take(struct remote_proc *p, char *err, size_t errlen)
{
    struct remote *r = p->r;
    int type = take(r, p->ch);
    if (type == WIRE_STARTED) {
        struct wire_rd rd;
        uint32_t pid;
        reply_rd(r, &rd);
        char *tty = NULL;
        if (wire_get_u32(&rd, &pid) == 0 && (tty = wire_get_str(&rd))) {
            p->pid = (pid_t)pid;
            snprintf(p->tty_name, sizeof p->tty_name, "%s", tty);
            free(tty);
            return 0;
        }
        snprintf(err, errlen, "%s: a malformed STARTED", r->host);
    } else if (type == WIRE_ERROR) {
        reply_error(r, err, errlen);
    } else {
        snprintf(err, errlen, "%s", r->err);
    }
    abandon(p);
    return -1;
}

int remote_start(struct remote *r, const struct launch_desc *d,
                 struct remote_proc **out, char *err, size_t errlen)
{
    struct remote_proc *p;
    if (remote_start_send(r, d, &p, err, errlen) < 0 ||
        remote_start_take(p, err, errlen) < 0)
        return -1;
    *out = p;
    return 0;
}

int remote_signal(struct remote_proc *p, int sig)
{
    uint8_t v[4] = {(uint8_t)sig, 0, 0, 0};
    if (p->exited || p->r->lost)
        return -1;
    int rc = wire_send(&p->r->c, WIRE_SIGNAL, p->ch, v, sizeof v);
    wire_flush(&p->r->c);
    return rc;
}

int remote_proc_done(const struct remote_proc *p)
{
    return p->exited && p->fd[S_OUT] < 0 && p->fd[S_ERR] < 0;
}

void remote_proc_free(struct remote_proc *p)
{
    struct remote *r = p->r;
    if (!p->exited)
        remote_signal(p, SIGKILL);
    for (int s = 0; s < 4; s++) {
        remote__close_fd(&p->fd[s]);
        wire_buf_release(&p->q[s]);
    }
    free(p->q);
    free(p->label);
    drop_pend(r, p->ch); /* a START whose answer is not wanted now */
    for (size_t i = 0; i < r->nprocs; i++)
        if (r->procs[i] == p) {
            r->procs[i] = r->procs[--r->nprocs];
            break;
        }
    free(p);
}
