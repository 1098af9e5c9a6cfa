/*
 * mi-gdb-proc.c - GDB's process: starting it (argv, never a shell, in its
 * own session, dying with its driver) and its setup commands; closing it.
 * Its commands, and noticing its death, are mi-gdb.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "mi-gdb-int.h"

/* ---------------------------------------------------------------- setup */

static void mi__setup_done(struct mi_gdb *g, const struct mi_reply *r, void *ud)
{
    const char *what = ud;

    if (r->status != 0) {
        if (g->state == MI__STARTING) {
            g->state = r->status == MI_EGDB ? MI_ESETUP : r->status;
            mi__seterr(g, "gdb setup command '%s' failed: %s", what, r->message);
        }
        return;
    }
    if (strcmp(what, "-list-features") == 0) {
        const struct mi_value *f = mi_get(r->record, "features"), *v;
        size_t i = 0;
        if (!f || f->kind != MI_VALUE_LIST) {
            g->state = MI_ESETUP;
            mi__seterr(g, "gdb's -list-features gave no feature list: is it gdb "
                          "with mi3 support?");
            return;
        }
        g->features = calloc(f->count + 1, sizeof *g->features);
        for (v = f->first; v && g->features; v = v->next)
            if (v->kind == MI_VALUE_STRING && (g->features[i] = strdup(v->str)))
                i++;
        g->nfeatures = g->features ? i : 0;
    }
    if (--g->setup_left == 0 && g->state == MI__STARTING)
        g->state = MI__READY;
}

int mi_gdb_ready(const struct mi_gdb *g)
{
    return g->state;
}

int mi_gdb_wait_ready(struct mi_gdb *g, int timeout_ms)
{
    int64_t end = timeout_ms >= 0 ? mi_now_ms() + timeout_ms : 0;

    while (g->state == MI__STARTING) {
        int left = -1;
        if (timeout_ms >= 0) {
            int64_t now = mi_now_ms();
            if (now >= end) {
                mi__seterr(g, "gdb did not finish its setup in %d ms", timeout_ms);
                return MI_ETIMEDOUT;
            }
            left = (int)(end - now);
        }
        if (mi_gdb_step(g, left) == MI_EEXITED && g->state == MI__STARTING)
            g->state = MI_EEXITED;
    }
    return g->state == MI__READY ? 0 : g->state;
}

static int mi__open_pty(struct mi_gdb *g, char *msg, size_t msgsz)
{
    struct termios t;

    g->pty_master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (g->pty_master < 0 || grantpt(g->pty_master) < 0 ||
        unlockpt(g->pty_master) < 0 ||
        ptsname_r(g->pty_master, g->pty_name, sizeof g->pty_name) != 0)
        goto fail;
    /* We keep the slave open: with no slave open, the master polls as
       POLLHUP forever (busy loop) and reads fail with EIO between runs. */
    g->pty_slave = open(g->pty_name, O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (g->pty_slave < 0)
        goto fail;
    /* Raw: the program's bytes arrive unchanged (no "\n" -> "\r\n"), and
       nothing we do echoes back. */
    if (tcgetattr(g->pty_slave, &t) == 0) {
        cfmakeraw(&t);
        tcsetattr(g->pty_slave, TCSANOW, &t);
    }
    if (mi__nonblock(g->pty_master) < 0)
        goto fail;
    return 0;
fail:
    if (msg)
        snprintf(msg, msgsz, "pseudo-terminal for the inferior: %s",
                 strerror(errno));
    mi__close(&g->pty_master);
    mi__close(&g->pty_slave);
    return MI_EPTY;
}

static const char *const mi__default_argv[] = {
    "gdb", "-nx", "-q", "--interpreter=mi3", NULL,
};

/* In the child, between fork and exec: only async-signal-safe calls.
 * GDB dies with PARENT (the driver), even by SIGKILL: a GDB driven through
 * pipes has no one to serve after it, and the programs GDB starts die with
 * GDB (it traces them with PTRACE_O_EXITKILL). */
static void mi__child(char *const *argv, char *const *envp,
                      unsigned long nofile, int in, int out, int err,
                      int status, pid_t parent)
{
    sigset_t none;
    struct rlimit rl;
    int sig, e;

    setsid();
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) == 0 && getppid() != parent)
        _exit(127); /* the driver ended before the prctl */
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    for (sig = 1; sig < 32; sig++)
        if (sig != SIGKILL && sig != SIGSTOP)
            signal(sig, SIG_DFL);
    if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
        goto fail;
    if (nofile && getrlimit(RLIMIT_NOFILE, &rl) == 0) {
        rl.rlim_cur = (rlim_t)nofile;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
    if (envp)
        execvpe(argv[0], argv, envp);
    else
        execvp(argv[0], argv);
fail:
    e = errno;
    if (write(status, &e, sizeof e) < 0) {
        /* nothing to do */
    }
    _exit(127);
}

/* A new driver for OPT (may be NULL), nothing started: NULL out of
 * memory. */
static struct mi_gdb *mi__new(const struct mi_gdb_options *opt)
{
    struct mi_gdb *g = calloc(1, sizeof *g);

    if (!g)
        return NULL;
    g->in_fd = g->out_fd = g->err_fd = g->pty_master = g->pty_slave = -1;
    g->wait_status = -1;
    g->next_token = opt && opt->first_token ? opt->first_token : 1;
    if (opt) {
        g->on_async = opt->on_async;
        g->on_stream = opt->on_stream;
        g->ud = opt->ud;
    }
    mi_parser_init(&g->parser, opt ? &opt->parser : NULL);
    return g;
}

/* GDB's streams are there (g->in_fd, out_fd, err_fd): non-blocking, and
 * the setup commands queued, with -inferior-tty-set TTY when not NULL. */
static void mi__begin(struct mi_gdb *g, const char *tty)
{
    static const char *const setup[] = {
        "-gdb-set pagination off",
        "-gdb-set confirm off",
        "-gdb-set height 0",
        "-gdb-set width 0",
        "-gdb-set mi-async on",
        /* the default, made explicit: an interrupt must not reach the
           program as a signal when it is resumed */
        "-interpreter-exec console \"handle SIGINT stop print nopass\"",
        "-list-features",
    };
    size_t i;

    mi__nonblock(g->in_fd);
    mi__nonblock(g->out_fd);
    if (g->err_fd >= 0)
        mi__nonblock(g->err_fd);
    for (i = 0; i < sizeof setup / sizeof setup[0]; i++) {
        g->setup_left++;
        if (mi_gdb_send(g, setup[i], 0, mi__setup_done, (void *)setup[i]) < 0)
            g->setup_left--;
    }
    if (tty) {
        struct mi_cmd c;
        mi_cmd_init(&c);
        mi_cmd_op(&c, "-inferior-tty-set");
        mi_cmd_arg(&c, tty);
        g->setup_left++;
        if (!mi_cmd_str(&c) ||
            mi_gdb_send(g, mi_cmd_str(&c), 0, mi__setup_done,
                        (void *)"-inferior-tty-set") < 0)
            g->setup_left--;
        mi_cmd_release(&c);
    }
}

int mi_gdb_attach(struct mi_gdb **out, const struct mi_gdb_options *opt,
                  const struct mi_gdb_link *link, char *msg, size_t msgsz)
{
    struct mi_gdb *g;

    int ok = link && link->in >= 0 && link->out >= 0 && link->alive &&
             link->signal;

    *out = NULL;
    if (msg && msgsz)
        msg[0] = '\0';
    g = ok ? mi__new(opt) : NULL;
    if (!g) {
        if (link) {
            int fds[4] = {link->in, link->out, link->err, link->pty_fd};
            for (int i = 0; i < 4; i++)
                mi__close(&fds[i]);
        }
        if (msg)
            snprintf(msg, msgsz, "%s", ok ? "out of memory" :
                     "a gdb link needs its streams and callbacks");
        return ok ? MI_ENOMEM : MI_EINVAL;
    }
    g->linked = 1;
    g->link = *link;
    g->link.tty_name = NULL; /* the caller's string: used now only */
    g->in_fd = link->in;
    g->out_fd = link->out;
    g->err_fd = link->err;
    g->pty_master = link->pty_fd;
    if (link->pty_fd >= 0)
        mi__nonblock(link->pty_fd);
    if (link->tty_name)
        snprintf(g->pty_name, sizeof g->pty_name, "%s", link->tty_name);
    mi__begin(g, link->tty_name && link->tty_name[0] ? link->tty_name : NULL);
    *out = g;
    return 0;
}

int mi_gdb_start(struct mi_gdb **out, const struct mi_gdb_options *opt,
                 char *msg, size_t msgsz)
{
    struct mi_gdb_options none;
    struct mi_gdb *g;
    int sv[2] = {-1, -1}, po[2] = {-1, -1}, pe[2] = {-1, -1}, ps[2] = {-1, -1};
    char *const *argv;
    int e = 0, r;
    size_t i;
    ssize_t n;
    pid_t parent;

    *out = NULL;
    if (msg && msgsz)
        msg[0] = '\0';
    if (!opt) {
        memset(&none, 0, sizeof none);
        opt = &none;
    }
    argv = opt->argv ? opt->argv : (char *const *)mi__default_argv;
    if (!argv[0])
        return MI_EINVAL;
    g = mi__new(opt);
    if (!g)
        return MI_ENOMEM;
    if (!opt->no_pty && (r = mi__open_pty(g, msg, msgsz)) < 0) {
        free(g);
        return r;
    }
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0 ||
        pipe2(po, O_CLOEXEC) < 0 || pipe2(pe, O_CLOEXEC) < 0 ||
        pipe2(ps, O_CLOEXEC) < 0) {
        if (msg)
            snprintf(msg, msgsz, "pipes for gdb: %s", strerror(errno));
        r = MI_ESPAWN;
        goto fail;
    }
    parent = getpid();
    g->pid = fork();
    if (g->pid < 0) {
        if (msg)
            snprintf(msg, msgsz, "fork for gdb: %s", strerror(errno));
        r = MI_ESPAWN;
        goto fail;
    }
    if (g->pid == 0)
        mi__child(argv, opt->envp, opt->nofile, sv[1], po[1], pe[1], ps[1],
                  parent);
    close(sv[1]);
    close(po[1]);
    close(pe[1]);
    close(ps[1]);
    sv[1] = po[1] = pe[1] = ps[1] = -1;
    /* exec succeeded when the close-on-exec status pipe closes empty */
    do
        n = read(ps[0], &e, sizeof e);
    while (n < 0 && errno == EINTR);
    close(ps[0]);
    ps[0] = -1;
    if (n > 0) {
        int st;
        while (waitpid(g->pid, &st, 0) < 0 && errno == EINTR)
            ;
        if (msg)
            snprintf(msg, msgsz, "cannot run '%s': %s", argv[0], strerror(e));
        g->pid = 0;
        r = MI_ESPAWN;
        goto fail;
    }
    g->in_fd = sv[0];
    g->out_fd = po[0];
    g->err_fd = pe[0];
    mi__begin(g, g->pty_master >= 0 ? g->pty_name : NULL);
    *out = g;
    return 0;
fail:
    for (i = 0; i < 2; i++) {
        mi__close(&sv[i]);
        mi__close(&po[i]);
        mi__close(&pe[i]);
        mi__close(&ps[i]);
    }
    mi__close(&g->pty_master);
    mi__close(&g->pty_slave);
    mi_parser_release(&g->parser);
    free(g);
    return r;
}

int mi_gdb_close(struct mi_gdb *g, int timeout_ms)
{
    int64_t end = mi_now_ms() + (timeout_ms > 0 ? timeout_ms : 0);

    if (g->dead)
        return 0;
    mi_gdb_send(g, "-gdb-exit", 0, NULL, NULL);
    while (!g->dead) {
        int64_t now = mi_now_ms();
        if (now >= end)
            break;
        mi_gdb_step(g, (int)(end - now));
    }
    if (g->dead)
        return 0;
    mi__dead(g, "did not exit in time, killed");
    return MI_ETIMEDOUT;
}

void mi_gdb_free(struct mi_gdb *g)
{
    size_t i;

    if (!g)
        return;
    if (!g->dead) {
        mi__signal(g, SIGKILL);
        mi__dead(g, "closed by the debugger");
    }
    while (g->abandoned) {
        struct mi__abandoned *a = g->abandoned;
        g->abandoned = a->next;
        free(a);
    }
    for (i = 0; i < g->nfeatures; i++)
        free(g->features[i]);
    free(g->features);
    mi__close(&g->pty_master);
    mi__close(&g->pty_slave);
    mi_parser_release(&g->parser);
    free(g->errbuf);
    free(g->wbuf);
    if (g->linked && g->link.release)
        g->link.release(g->link.ud);
    free(g);
}
