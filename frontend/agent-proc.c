/* The processes `drdb agent` starts, and its file reads (agent.h). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/personality.h>
#include <termios.h>
#include <unistd.h>

#include "agent.h"
#include "fe.h"
#include "launch.h"
#include "life.h"
#include "log-compress.h"
#include "log-reader.h"

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

void agent_proc_release(struct agent_proc *p)
{
    close_fd(&p->in);
    if (p->out != p->in)
        close_fd(&p->out);
    p->out = -1;
    close_fd(&p->err);
    close_fd(&p->tty);
    close_fd(&p->tty_slave);
    wire_buf_release(&p->inq);
    wire_buf_release(&p->ttyq);
    free(p->label);
    p->label = NULL;
}

/* A terminal: its master (non-blocking, close-on-exec) into *M, its slave
 * (open, raw: the program's bytes arrive unchanged) into *S and its name
 * into NAME. */
static int open_pty(int *m, int *s, char *name, size_t len)
{
    struct termios t;
    *m = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (*m < 0 || grantpt(*m) < 0 || unlockpt(*m) < 0 ||
        ptsname_r(*m, name, len) != 0 ||
        (*s = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC)) < 0) {
        close_fd(m);
        return -1;
    }
    if (tcgetattr(*s, &t) == 0) {
        cfmakeraw(&t);
        tcsetattr(*s, TCSANOW, &t);
    }
    return 0;
}

/* Holds run DIR for the agent's life (log_run_hold, once per run): the
 * replays and checkpoints of the console's ranks here never see a log
 * replaced by a compression under them. */
static void hold(const char *dir)
{
    static char held[8][4096];
    static int n;
    for (int i = 0; i < n; i++)
        if (!strcmp(held[i], dir))
            return;
    if (n < 8 && log_run_hold(dir) >= 0)
        snprintf(held[n++], sizeof held[0], "%s", dir);
}

/* launch_check() on D's run: 0, or -1 with its reasons in ERR (they are
 * printed on stderr: caught in a file for the client). */
static int check(const struct launch_desc *d, char *err, size_t errlen)
{
    struct log_run run;
    char why[512], exe[4096];
    if (log_run_open(&run, d->rundir, why, sizeof why) < 0) {
        snprintf(err, errlen, "%s", why);
        return -1;
    }
    const char *prog = d->program;
    if (!prog) {
        if (!log_run_get(&run, "exe", exe, sizeof exe)) {
            log_run_release(&run);
            snprintf(err, errlen, "'%s' does not say which program ran",
                     d->rundir);
            return -1;
        }
        prog = exe;
    }
    FILE *tmp = tmpfile();
    int saved = tmp ? dup(2) : -1;
    if (!tmp || saved < 0) {
        if (tmp)
            fclose(tmp);
        log_run_release(&run);
        snprintf(err, errlen, "cannot make a temporary file: %s",
                 strerror(errno));
        return -1;
    }
    fflush(stderr);
    dup2(fileno(tmp), 2);
    int rc = launch_check(&run, d->rundir, prog, d->program != NULL,
                          !!(d->flags & LAUNCH_TRUST), NULL, "");
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    log_run_release(&run);
    /* The reasons (refused, or warned about under --trust): for the
     * client, which shows them. */
    long n = ftell(tmp);
    err[0] = '\0';
    if (n > 0) {
        rewind(tmp);
        size_t got = fread(err, 1, errlen - 1, tmp);
        while (got && err[got - 1] == '\n')
            got--;
        err[got] = '\0';
    }
    fclose(tmp);
    if (rc < 0 && !err[0])
        snprintf(err, errlen, "refusing to run '%s'", prog);
    return rc;
}

/* In the child, between fork and exec (only what is safe there). */
static void child(const struct launch_desc *d, const char *exe, int in,
                  int out, int errfd, int ctty, int status, pid_t agent)
{
    /* A session of its own (on its terminal, when it has one), as the
     * console's local GDBs have (mi/'s mi__child): the kernel's autogroup
     * scheduler gives each session its share of the CPUs, so a host's
     * GDBs in the agent's one session would share one share, started one
     * after the other on a loaded machine (docs/architecture.md). Its
     * process group is then its pid, for SIGNAL and the end. */
    setsid();
    if (ctty >= 0)
        ioctl(ctty, TIOCSCTTY, 0);
    if (life_die_with_parent(agent) < 0)
        _exit(127);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    for (int sig = 1; sig < 32; sig++)
        if (sig != SIGKILL && sig != SIGSTOP)
            signal(sig, SIG_DFL);
    if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(errfd, 2) < 0)
        goto fail;
    fe_nofile_restore(); /* the limit the agent was given */
    if (d->cwd && chdir(d->cwd) < 0)
        goto fail;
    launch_env_apply(&d->env);
    if (d->flags & LAUNCH_NO_ASLR) {
        int pers = personality(0xffffffff);
        if (pers != -1)
            personality((unsigned long)pers | ADDR_NO_RANDOMIZE);
    }
    if (exe)
        execv(exe, d->argv);
    else
        execvp(d->argv[0], d->argv);
fail:;
    int e = errno;
    if (write(status, &e, sizeof e) < 0) {
        /* the agent sees an empty status: it reports a failed start */
    }
    _exit(127);
}

static int nonblock(int fd)
{
    int fl = fcntl(fd, F_GETFL);
    return fl < 0 ? -1 : fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

int agent_proc_start(struct agent_proc *p, const struct wire_frame *f,
                     char *err, size_t errlen)
{
    struct launch_desc d;
    struct wire_rd r;
    int fin[2] = {-1, -1}, fout[2] = {-1, -1}, ferr[2] = {-1, -1};
    int st[2] = {-1, -1}, m = -1, s = -1, rc = -1;
    char self[4096], ttyname[64] = "";

    memset(p, 0, sizeof *p);
    p->ch = f->channel;
    p->in = p->out = p->err = p->tty = p->tty_slave = -1;
    wire_rd_init(&r, f);
    if (wire_get_desc(&r, &d) < 0) {
        snprintf(err, errlen, "a malformed launcher description");
        return -1;
    }
    if (d.rundir && check(&d, err, errlen) < 0)
        goto out;
    if (d.rundir)
        hold(d.rundir);
    /* Under --trust, what the check said goes to this agent's stderr (the
     * client shows it); a drdb replay of its own (LAUNCH_SELF) says it. */
    if (d.rundir && err[0] && !(d.flags & LAUNCH_SELF))
        fprintf(stderr, "%s\n", err);
    const char *exe = NULL;
    if (d.flags & LAUNCH_SELF) {
        ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
        if (n <= 0) {
            snprintf(err, errlen, "cannot find this drdb: %s",
                     strerror(errno));
            goto out;
        }
        self[n] = '\0';
        exe = self;
    }
    if ((d.flags & LAUNCH_PTY) ? open_pty(&m, &s, ttyname, sizeof ttyname)
                               : (pipe2(fin, O_CLOEXEC) < 0 ||
                                  pipe2(fout, O_CLOEXEC) < 0 ||
                                  pipe2(ferr, O_CLOEXEC) < 0))
        goto sys;
    if ((d.flags & LAUNCH_TTY) &&
        open_pty(&p->tty, &p->tty_slave, ttyname, sizeof ttyname) < 0)
        goto sys;
    if (pipe2(st, O_CLOEXEC) < 0)
        goto sys;
    fflush(NULL);
    pid_t agent = getpid();
    p->pid = fork();
    if (p->pid < 0)
        goto sys;
    if (p->pid == 0) {
        if (s >= 0)
            child(&d, exe, s, s, s, s, st[1], agent);
        child(&d, exe, fin[0], fout[1], ferr[1], -1, st[1], agent);
    }
    /* Its setsid() is done once the status pipe closes at its exec (no
     * setpgid here: that would make setsid() fail). */
    close_fd(&st[1]);
    int e = 0;
    ssize_t n;
    do
        n = read(st[0], &e, sizeof e);
    while (n < 0 && errno == EINTR);
    if (n > 0) {
        snprintf(err, errlen, "cannot run '%s'%s%s: %s", d.argv[0],
                 d.cwd ? " in " : "", d.cwd ? d.cwd : "", strerror(e));
        kill(p->pid, SIGKILL);
        p->pid = -1; /* reaped by the agent's loop; no EXIT for it */
        goto out;
    }
    if (s >= 0) {
        p->in = p->out = m;
        m = -1;
    } else {
        p->in = fin[1];
        p->out = fout[0];
        p->err = ferr[0];
        fin[1] = fout[0] = ferr[0] = -1;
    }
    if (nonblock(p->in) < 0 || nonblock(p->out) < 0 ||
        (p->err >= 0 && nonblock(p->err) < 0) ||
        (p->tty >= 0 && nonblock(p->tty) < 0))
        goto sys;
    snprintf(err, errlen, "%s", p->tty >= 0 ? ttyname : "");
    snprintf(p->tty_name, sizeof p->tty_name, "%s", err);
    rc = 0;
    goto out;
sys:
    snprintf(err, errlen, "cannot start '%s': %s", d.argv[0],
             strerror(errno));
out:
    close_fd(&fin[0]);
    close_fd(&fin[1]);
    close_fd(&fout[0]);
    close_fd(&fout[1]);
    close_fd(&ferr[0]);
    close_fd(&ferr[1]);
    close_fd(&st[0]);
    close_fd(&st[1]);
    close_fd(&m);
    close_fd(&s);
    if (rc < 0) {
        if (p->pid > 0)
            kill(-p->pid, SIGKILL);
        agent_proc_release(p);
    }
    launch_desc_release(&d);
    return rc;
}

int agent_read(const struct wire_frame *f, struct wire_buf *out, char *err,
               size_t errlen)
{
    struct wire_rd r;
    uint64_t off;
    uint32_t len;
    int rc = -1;
    wire_rd_init(&r, f);
    char *dir = wire_get_str(&r), *name = wire_get_str(&r);
    if (!dir || !name || wire_get_u64(&r, &off) < 0 ||
        wire_get_u32(&r, &len) < 0 || len > WIRE_MAX_READ) {
        snprintf(err, errlen, "a malformed read request");
        goto out;
    }
    /* A file of the run directory itself: no path out of it. */
    if (!*name || strchr(name, '/') || !strcmp(name, ".") ||
        !strcmp(name, "..")) {
        snprintf(err, errlen, "'%s' is not a file name of a run directory",
                 name);
        goto out;
    }
    char path[8400];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) {
        snprintf(err, errlen, "cannot open '%s': %s", path, strerror(errno));
        goto out;
    }
    char *buf = malloc(len ? len : 1);
    ssize_t got = buf ? pread(fd, buf, len, (off_t)off) : -1;
    int e = errno;
    close(fd);
    if (got < 0)
        snprintf(err, errlen, "cannot read '%s': %s", path, strerror(e));
    else
        wire_buf_add(out, buf, (size_t)got);
    free(buf);
    rc = got < 0 ? -1 : 0;
out:
    free(dir);
    free(name);
    return rc;
}

int agent_setup(const struct wire_frame *f, struct wire_buf *out, char *err,
                size_t errlen)
{
    struct wire_rd r;
    struct launch_gdb g;
    uint32_t rank, flags;
    wire_rd_init(&r, f);
    char *dir = wire_get_str(&r);
    if (!dir || wire_get_u32(&r, &rank) < 0 || wire_get_u32(&r, &flags) < 0 ||
        r.at != r.len || rank > INT32_MAX) {
        free(dir);
        snprintf(err, errlen, "a malformed setup request");
        return -1;
    }
    int rc = launch_gdb_prepare(&g, dir, (int)rank,
                                (flags & LAUNCH_GDB_IN_PLACE) != 0, err,
                                errlen);
    free(dir);
    if (rc == 0) {
        wire_put_gdb(out, &g);
        launch_gdb_release(&g);
    }
    return rc;
}
