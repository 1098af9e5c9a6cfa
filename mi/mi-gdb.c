/*
 * mi-gdb.c - one GDB process driven over GDB/MI, non-blocking: its
 * commands, replies, records, its death, timers and polling (starting and
 * closing it: mi-gdb-proc.c).
 *
 * Life cycle: mi_gdb_start() forks and execs GDB (argv, never a shell) in
 * its own session, dying with its driver (PR_SET_PDEATHSIG), with stdin a
 * socket (so writes use MSG_NOSIGNAL: a dead GDB gives EPIPE, never SIGPIPE
 * in the caller) and stdout/stderr pipes, and
 * queues the setup commands; the caller's poll loop then calls
 * mi_gdb_process(). Each command line goes out as "<token><command>\n";
 * GDB answers every command with exactly one result record carrying that
 * token, which is how completion is detected (never by timing). Async and
 * stream records are handed to the callbacks; ~ output that arrives while a
 * command is the oldest pending one is also collected into its reply
 * (GDB executes commands one at a time, in order).
 *
 * When GDB's stdout reaches EOF (exit, crash, SIGKILL) the process is
 * reaped and every pending command is failed with MI_EEXITED and a message
 * naming the command and how GDB ended.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "mi-gdb-int.h"

int64_t mi_now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void mi__seterr(struct mi_gdb *g, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(g->err, sizeof g->err, fmt, ap);
    va_end(ap);
}

int mi__nonblock(int fd)
{
    int fl = fcntl(fd, F_GETFL);

    return fl < 0 ? -1 : fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

void mi__close(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

/* ---------------------------------------------------------------- replies */

static void mi__pending_free(struct mi__pending *p)
{
    free(p->command);
    free(p->console);
    free(p);
}

/* Deliver the outcome of `p` (already unlinked) and free it. `rec` may be
   NULL; ownership of rec passes here. */
static void mi__complete(struct mi_gdb *g, struct mi__pending *p, int status,
                         struct mi_record *rec, const char *msg)
{
    struct mi_reply r;

    memset(&r, 0, sizeof r);
    r.token = p->token;
    r.status = status;
    r.record = rec;
    r.command = p->command;
    r.message = msg;
    if (!msg && rec && rec->result_class == MI_CLASS_ERROR)
        r.message = mi_get_str(rec, "msg");
    if (!r.message)
        r.message = status ? mi_strerror(status) : "";
    r.console = p->console;
    r.console_len = p->console_len;
    if (p->sync_out) {
        /* Hand everything over to the blocked caller. */
        *p->sync_out = r;
        p->sync_out->command = p->command;
        p->sync_out->message = NULL;
        p->command = NULL;
        p->console = NULL;
        *p->sync_flag = 1;
        /* message: copy into the reply's own storage (see mi_reply_release) */
        if (r.message) {
            size_t n = strlen(r.message);
            char *m = malloc(n + 1);
            if (m)
                memcpy(m, r.message, n + 1);
            p->sync_out->message = m;
        }
        if (!p->sync_out->console) {
            p->sync_out->console = calloc(1, 1);
            p->sync_out->console_len = 0;
        }
        mi__pending_free(p);
        return;
    }
    if (!r.console)
        r.console = (char *)"";
    if (p->done)
        p->done(g, &r, p->ud);
    mi_record_free(rec);
    mi__pending_free(p);
}

void mi_reply_release(struct mi_reply *r)
{
    if (!r)
        return;
    mi_record_free(r->record);
    free((char *)r->command);
    free((char *)r->message);
    free(r->console);
    memset(r, 0, sizeof *r);
}

static struct mi__pending *mi__unlink_token(struct mi_gdb *g, uint64_t tok)
{
    struct mi__pending **pp, *prev = NULL;

    for (pp = &g->head; *pp; prev = *pp, pp = &(*pp)->next) {
        struct mi__pending *p = *pp;
        if (p->token != tok)
            continue;
        *pp = p->next;
        if (g->tail == p)
            g->tail = prev;
        g->npending--;
        return p;
    }
    return NULL;
}

/* Fail every pending command (GDB is gone). */
static void mi__fail_all(struct mi_gdb *g, int status, const char *why)
{
    while (g->head) {
        struct mi__pending *p = g->head;
        char msg[768];
        g->head = p->next;
        if (!g->head)
            g->tail = NULL;
        g->npending--;
        snprintf(msg, sizeof msg, "%s while '%s' was pending", why,
                 p->command ? p->command : "");
        mi__complete(g, p, status, NULL, msg);
    }
}

/* ---------------------------------------------------------------- death */

static void mi__describe_status(int st, char *buf, size_t sz)
{
    if (st < 0)
        snprintf(buf, sz, "closed its output");
    else if (WIFEXITED(st))
        snprintf(buf, sz, "exited with status %d", WEXITSTATUS(st));
    else if (WIFSIGNALED(st))
        snprintf(buf, sz, "was killed by signal %d (%s)", WTERMSIG(st),
                 strsignal(WTERMSIG(st)));
    else
        snprintf(buf, sz, "ended (status 0x%x)", st);
}

void mi__signal(struct mi_gdb *g, int sig)
{
    if (g->linked) {
        g->link.signal(g->link.ud, sig);
        return;
    }
    kill(-g->pid, sig);
    if (sig == SIGKILL)
        kill(g->pid, sig);
}

/* Reap GDB: wait up to `ms` for it to exit by itself, then SIGKILL it. A
 * linked GDB's status is what its callback knows now: its exit arrives
 * through the same streams, which nobody pumps here. */
static void mi__reap(struct mi_gdb *g, int ms)
{
    int st, i;

    if (g->linked) {
        if (g->wait_status != -1)
            return;
        if (g->link.alive(g->link.ud, &st)) {
            g->link.signal(g->link.ud, SIGKILL);
            st = -1;
        }
        g->wait_status = st < 0 ? -2 : st;
        return;
    }
    if (g->pid <= 0 || g->wait_status != -1)
        return;
    for (i = 0; i <= ms; i++) {
        pid_t r = waitpid(g->pid, &st, WNOHANG);
        if (r == g->pid) {
            g->wait_status = st;
            return;
        }
        if (r < 0 && errno != EINTR) {
            g->wait_status = -2; /* someone else reaped it */
            return;
        }
        if (i < ms) {
            struct timespec ts = {0, 1000000};
            nanosleep(&ts, NULL);
        }
    }
    kill(-g->pid, SIGKILL);
    kill(g->pid, SIGKILL);
    while (waitpid(g->pid, &st, 0) < 0 && errno == EINTR)
        ;
    g->wait_status = -2; /* we killed it: report "closed its output" */
}

void mi__dead(struct mi_gdb *g, const char *cause)
{
    char how[128], why[512];

    if (g->dead)
        return;
    g->dead = 1;
    mi__close(&g->in_fd);
    mi__close(&g->out_fd);
    mi__close(&g->err_fd);
    mi__reap(g, 200);
    mi__describe_status(g->wait_status, how, sizeof how);
    snprintf(why, sizeof why, "gdb (pid %ld) %s%s%s",
             g->linked ? g->link.pid : (long)g->pid, how,
             cause ? ": " : "", cause ? cause : "");
    mi__seterr(g, "%s", why);
    if (g->state == MI__STARTING)
        g->state = MI_EEXITED;
    g->running = 0;
    mi__fail_all(g, MI_EEXITED, why);
}

int mi_gdb_check_alive(struct mi_gdb *g)
{
    int st;
    pid_t r;

    if (g->dead)
        return 0;
    if (g->linked) {
        if (g->link.alive(g->link.ud, &st))
            return 1;
        g->wait_status = st < 0 ? -2 : st;
        mi__dead(g, NULL);
        return 0;
    }
    r = waitpid(g->pid, &st, WNOHANG);
    if (r == g->pid || (r < 0 && errno == ECHILD)) {
        g->wait_status = r == g->pid ? st : -2; /* -2: reaped by someone else */
        mi__dead(g, NULL);
        return 0;
    }
    return 1;
}

/* ---------------------------------------------------------------- writing */

static int mi__flush(struct mi_gdb *g)
{
    while (g->woff < g->wlen) {
        ssize_t n = send(g->in_fd, g->wbuf + g->woff, g->wlen - g->woff,
                         MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK)
                return 0;
            mi__dead(g, strerror(errno));
            return MI_EEXITED;
        }
        g->woff += (size_t)n;
    }
    g->woff = g->wlen = 0;
    return 0;
}

static int64_t mi__queue(struct mi_gdb *g, const char *cmd, int timeout_ms,
                         mi_reply_fn *done, void *ud, struct mi_reply *sync_out,
                         int *sync_flag)
{
    struct mi__pending *p;
    uint64_t tok_val;
    char tok[24];
    size_t clen;
    int tl;

    if (!cmd || !cmd[0] || strpbrk(cmd, "\r\n") || (cmd[0] >= '0' && cmd[0] <= '9'))
        return MI_EINVAL;
    if (g->dead)
        return MI_EEXITED;
    clen = strlen(cmd);
    p = calloc(1, sizeof *p);
    if (!p || !(p->command = malloc(clen + 1))) {
        free(p);
        return MI_ENOMEM;
    }
    memcpy(p->command, cmd, clen + 1);
    p->token = g->next_token++;
    tl = snprintf(tok, sizeof tok, "%llu", (unsigned long long)p->token);
    if (mi__buf_append(&g->wbuf, &g->wlen, &g->wcap, tok, (size_t)tl) < 0 ||
        mi__buf_append(&g->wbuf, &g->wlen, &g->wcap, cmd, clen) < 0 ||
        mi__buf_append(&g->wbuf, &g->wlen, &g->wcap, "\n", 1) < 0) {
        mi__pending_free(p);
        return MI_ENOMEM;
    }
    p->deadline = timeout_ms > 0 ? mi_now_ms() + timeout_ms : 0;
    p->done = done;
    p->ud = ud;
    p->sync_out = sync_out;
    p->sync_flag = sync_flag;
    if (g->tail)
        g->tail->next = p;
    else
        g->head = p;
    g->tail = p;
    g->npending++;
    tok_val = p->token;
    mi__flush(g); /* may find GDB dead: p is then failed and freed */
    return (int64_t)tok_val;
}

int64_t mi_gdb_send(struct mi_gdb *g, const char *cmd, int timeout_ms,
                    mi_reply_fn *done, void *ud)
{
    return mi__queue(g, cmd, timeout_ms, done, ud, NULL, NULL);
}

/* ---------------------------------------------------------------- reading */

static void mi__abandon_add(struct mi_gdb *g, uint64_t tok)
{
    struct mi__abandoned *a = malloc(sizeof *a);

    if (!a)
        return; /* the late reply then goes to on_async: harmless */
    a->token = tok;
    a->next = g->abandoned;
    g->abandoned = a;
}

static int mi__abandon_take(struct mi_gdb *g, uint64_t tok)
{
    struct mi__abandoned **pp;

    for (pp = &g->abandoned; *pp; pp = &(*pp)->next)
        if ((*pp)->token == tok) {
            struct mi__abandoned *a = *pp;
            *pp = a->next;
            free(a);
            return 1;
        }
    return 0;
}

static void mi__dispatch(struct mi_gdb *g, struct mi_record *rec)
{
    struct mi__pending *p;

    switch (rec->kind) {
    case MI_RECORD_RESULT:
        p = rec->has_token ? mi__unlink_token(g, rec->token) : NULL;
        if (p) {
            int st = rec->result_class == MI_CLASS_ERROR ? MI_EGDB : 0;
            if (rec->result_class == MI_CLASS_RUNNING)
                g->running = 1;
            mi__complete(g, p, st, rec, NULL);
            return;
        }
        if (rec->has_token && mi__abandon_take(g, rec->token))
            break;
        if (g->on_async)
            g->on_async(g, rec, g->ud);
        break;
    case MI_RECORD_EXEC:
        if (strcmp(rec->klass, "running") == 0) {
            g->running = 1;
        } else if (strcmp(rec->klass, "stopped") == 0) {
            g->running = 0;
            g->interrupt_at = 0;
        }
        /* fall through */
    case MI_RECORD_STATUS:
    case MI_RECORD_NOTIFY:
        if (rec->kind == MI_RECORD_NOTIFY && strcmp(rec->klass, "thread-group-exited") == 0)
            g->running = 0;
        if (g->on_async)
            g->on_async(g, rec, g->ud);
        break;
    case MI_RECORD_CONSOLE:
        if (g->head && (g->head->sync_out || g->head->done)) {
            struct mi__pending *h = g->head;
            mi__buf_append(&h->console, &h->console_len, &h->console_cap,
                           rec->text, rec->text_len);
        }
        /* fall through */
    case MI_RECORD_TARGET:
    case MI_RECORD_LOG:
    case MI_RECORD_INVALID:
    case MI_RECORD_STDERR:
        if (g->on_stream)
            g->on_stream(g, rec, g->ud);
        break;
    case MI_RECORD_PROMPT:
        break;
    }
    mi_record_free(rec);
}

static void mi__drain(struct mi_gdb *g, int at_eof)
{
    struct mi_record *rec;
    int r;

    while ((r = at_eof ? mi_parser_finish(&g->parser, &rec)
                       : mi_parser_next(&g->parser, &rec)) == 1)
        mi__dispatch(g, rec);
}

static void mi__read_err(struct mi_gdb *g);

static void mi__read_out(struct mi_gdb *g)
{
    char chunk[65536];
    int rounds;

    for (rounds = 0; rounds < 16 && g->out_fd >= 0; rounds++) {
        ssize_t n = read(g->out_fd, chunk, sizeof chunk);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK)
                return;
            mi__drain(g, 1);
            mi__dead(g, strerror(errno));
            return;
        }
        if (n == 0) {
            mi__drain(g, 1);
            if (g->err_fd >= 0)
                mi__read_err(g); /* GDB's last words, if any */
            mi__dead(g, NULL);
            return;
        }
        if (mi_parser_feed(&g->parser, chunk, (size_t)n) < 0) {
            mi__seterr(g, "out of memory reading gdb output");
            return;
        }
        mi__drain(g, 0);
        if ((size_t)n < sizeof chunk)
            return;
    }
}

static void mi__stderr_line(struct mi_gdb *g, const char *s, size_t n)
{
    struct mi_record *rec;

    while (n > 0 && s[n - 1] == '\r')
        n--;
    rec = mi__record_raw(MI_RECORD_STDERR, s, n);
    if (rec)
        mi__dispatch(g, rec);
}

static void mi__read_err(struct mi_gdb *g)
{
    char chunk[16384];

    for (;;) {
        ssize_t n = read(g->err_fd, chunk, sizeof chunk), i, st = 0;
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)) {
                if (g->errlen)
                    mi__stderr_line(g, g->errbuf, g->errlen);
                g->errlen = 0;
                mi__close(&g->err_fd);
            }
            return;
        }
        for (i = 0; i < n; i++) {
            if (chunk[i] != '\n')
                continue;
            if (g->errlen) {
                mi__buf_append(&g->errbuf, &g->errlen, &g->errcap, chunk + st,
                               (size_t)(i - st));
                mi__stderr_line(g, g->errbuf, g->errlen);
                g->errlen = 0;
            } else {
                mi__stderr_line(g, chunk + st, (size_t)(i - st));
            }
            st = i + 1;
        }
        /* keep the partial line, but never more than 64 KiB of it */
        if (st < n && g->errlen < 65536)
            mi__buf_append(&g->errbuf, &g->errlen, &g->errcap, chunk + st,
                           (size_t)(n - st));
    }
}

/* ---------------------------------------------------------------- timers */

/*
 * GDB's death normally shows as EOF on its stdout, but a child of GDB that
 * inherited the pipe (a `shell` command, a process started by `run` without
 * a tty) keeps it open. So while commands are pending or the inferior runs
 * we also ask waitpid() every MI__LIVE_MS.
 */
#define MI__LIVE_MS 250

static int mi__needs_live_check(const struct mi_gdb *g)
{
    return !g->dead && (g->npending > 0 || g->running);
}

static void mi__check_timers(struct mi_gdb *g)
{
    int64_t now = mi_now_ms();
    struct mi__pending *p;

    if (mi__needs_live_check(g) && now >= g->live_at) {
        g->live_at = now + MI__LIVE_MS;
        if (!mi_gdb_check_alive(g))
            return;
    }

    if (g->interrupt_at && now >= g->interrupt_at && !g->dead) {
        /* -exec-interrupt had no effect: GDB may be busy. Its own SIGINT
           handler interrupts the inferior (which is in another process
           group, so it does not get this SIGINT). */
        g->interrupt_at = 0;
        if (g->running)
            mi__signal(g, SIGINT);
    }
    /* One expired command at a time, from the head: its callback may send
       commands, or find GDB dead and fail (free) the whole list. */
    for (;;) {
        char msg[768];
        for (p = g->head; p; p = p->next)
            if (p->deadline && now >= p->deadline)
                break;
        if (!p || g->dead)
            break;
        mi__unlink_token(g, p->token);
        mi__abandon_add(g, p->token);
        snprintf(msg, sizeof msg, "gdb did not answer '%s' in time",
                 p->command ? p->command : "");
        mi__complete(g, p, MI_ETIMEDOUT, NULL, msg);
    }
}

int mi_gdb_timeout(const struct mi_gdb *g)
{
    int64_t now = mi_now_ms(), best = -1;
    const struct mi__pending *p;

    if (g->dead)
        return -1;
    if (g->interrupt_at)
        best = g->interrupt_at;
    if (mi__needs_live_check(g)) {
        int64_t t = g->live_at > now ? g->live_at : now + MI__LIVE_MS;
        if (best < 0 || t < best)
            best = t;
    }
    for (p = g->head; p; p = p->next)
        if (p->deadline && (best < 0 || p->deadline < best))
            best = p->deadline;
    if (best < 0)
        return -1;
    return best <= now ? 0 : (int)(best - now > 1000000 ? 1000000 : best - now);
}

/* ---------------------------------------------------------------- poll */

int mi_gdb_pollfds(const struct mi_gdb *g, struct pollfd *fds, int n)
{
    int k = 0;

    if (g->dead)
        return 0;
    if (k < n && g->out_fd >= 0) {
        fds[k].fd = g->out_fd;
        fds[k].events = POLLIN;
        fds[k++].revents = 0;
    }
    if (k < n && g->err_fd >= 0) {
        fds[k].fd = g->err_fd;
        fds[k].events = POLLIN;
        fds[k++].revents = 0;
    }
    if (k < n && g->in_fd >= 0 && g->wlen > g->woff) {
        fds[k].fd = g->in_fd;
        fds[k].events = POLLOUT;
        fds[k++].revents = 0;
    }
    return k;
}

int mi_gdb_process(struct mi_gdb *g, const struct pollfd *fds, int n)
{
    int i;

    for (i = 0; i < n && !g->dead; i++) {
        if (!fds[i].revents)
            continue;
        if (fds[i].fd == g->in_fd && (fds[i].revents & (POLLOUT | POLLERR | POLLHUP)))
            mi__flush(g);
        else if (fds[i].fd == g->err_fd)
            mi__read_err(g);
        else if (fds[i].fd == g->out_fd)
            mi__read_out(g);
    }
    /* stderr may hold the last words of a crashing GDB: read it first */
    if (!g->dead)
        mi__check_timers(g);
    return g->dead ? MI_EEXITED : 0;
}

int mi_gdb_step(struct mi_gdb *g, int timeout_ms)
{
    struct pollfd fds[MI_GDB_MAX_POLLFDS];
    int n, t, r;

    if (g->dead)
        return MI_EEXITED;
    n = mi_gdb_pollfds(g, fds, MI_GDB_MAX_POLLFDS);
    t = mi_gdb_timeout(g);
    if (t < 0 || (timeout_ms >= 0 && timeout_ms < t))
        t = timeout_ms;
    if (g->linked && g->link.pump) {
        /* The descriptors only move when the link is pumped: what is
           there first, else the link until something moved. */
        r = poll(fds, (nfds_t)n, 0);
        if (r == 0) {
            if (g->link.pump(g->link.ud, t) < 0) {
                mi__dead(g, "its connection is gone");
                return MI_EEXITED;
            }
            n = mi_gdb_pollfds(g, fds, MI_GDB_MAX_POLLFDS);
            r = poll(fds, (nfds_t)n, 0);
        }
    } else {
        r = poll(fds, (nfds_t)n, t);
    }
    if (r < 0 && errno != EINTR)
        return MI_EIO;
    return mi_gdb_process(g, fds, r > 0 ? n : 0);
}

int mi_gdb_exec_sync(struct mi_gdb *g, const char *cmd, struct mi_reply *out,
                     int timeout_ms)
{
    int flag = 0;
    int64_t tok;

    memset(out, 0, sizeof *out);
    tok = mi__queue(g, cmd, timeout_ms, NULL, NULL, out, &flag);
    if (tok < 0) {
        out->status = (int)tok;
        return (int)tok;
    }
    while (!flag) {
        int r = mi_gdb_step(g, -1);
        if (r == MI_EIO && !flag) {
            /* poll failed: fail the command rather than spin */
            struct mi__pending *p = mi__unlink_token(g, (uint64_t)tok);
            if (p)
                mi__complete(g, p, MI_EIO, NULL, "poll failed");
        }
    }
    return out->status;
}

/* ---------------------------------------------------------------- control */

static void mi__interrupt_done(struct mi_gdb *g, const struct mi_reply *r,
                               void *ud)
{
    if (r->status == MI_EGDB && g->running && !g->dead)
        mi__signal(g, SIGINT);
}

int mi_gdb_interrupt(struct mi_gdb *g)
{
    int64_t r;

    if (g->dead)
        return MI_EEXITED;
    r = mi_gdb_send(g, "-exec-interrupt", 0, mi__interrupt_done, NULL);
    if (r < 0)
        return (int)r;
    g->interrupt_at = mi_now_ms() + 2000;
    return 0;
}

int mi_gdb_running(const struct mi_gdb *g)
{
    return g->running;
}

int mi_gdb_pty_fd(const struct mi_gdb *g)
{
    return g->pty_master;
}

const char *mi_gdb_pty_name(const struct mi_gdb *g)
{
    return g->pty_master >= 0 ? g->pty_name : NULL;
}

pid_t mi_gdb_pid(const struct mi_gdb *g)
{
    return g->pid;
}

int mi_gdb_has_feature(const struct mi_gdb *g, const char *feature)
{
    size_t i;

    for (i = 0; i < g->nfeatures; i++)
        if (strcmp(g->features[i], feature) == 0)
            return 1;
    return 0;
}

size_t mi_gdb_pending(const struct mi_gdb *g)
{
    return g->npending;
}

int mi_gdb_wait_status(const struct mi_gdb *g)
{
    return g->wait_status < 0 ? -1 : g->wait_status;
}

const char *mi_gdb_error(const struct mi_gdb *g)
{
    return g->err;
}
