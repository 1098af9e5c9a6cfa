/*
 * drdb replay --host: the replay runs on the host that holds the run
 * directory, through its drdb agent (remote.h); its output streams back
 * here and its exit status is this command's.
 *
 * The launcher description is `drdb replay` itself, run by the agent's
 * drdb (LAUNCH_SELF) with the options given here: the replay's
 * environment, stub, stack layout, files and divergence report are made
 * where the run's files and the stub are, by the same code as a local
 * replay (sub-replay.c), so a remote replay is a local one there. The
 * agent checks the run (launch_check) before it starts anything.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fe.h"
#include "launch.h"
#include "remote.h"

static volatile sig_atomic_t got_sig;

static void on_sig(int sig)
{
    got_sig = sig;
}

/* Copies what FD has to OUT; at its end, closes it. */
static void relay(int *fd, int out)
{
    char buf[65536];
    ssize_t n = read(*fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR)
        return;
    if (n <= 0) {
        close(*fd);
        *fd = -1;
        return;
    }
    for (ssize_t off = 0; off < n;) {
        ssize_t w = write(out, buf + off, (size_t)(n - off));
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return; /* our own output is gone: drop it, as a pipe would */
        off += w;
    }
}

int fe_replay_host(const struct remote_opts *o, const char *dir,
                   char *const *opts, int nopts, char *const *prog,
                   int trust, int relay_stdin)
{
    struct launch_desc d;
    char err[4096];
    int nprog = 0;
    while (prog && prog[nprog])
        nprog++;
    char **argv = calloc((size_t)(nopts + nprog + 6), sizeof *argv);
    if (!argv)
        return fe_error("out of memory");
    int n = 0;
    argv[n++] = "drdb";
    argv[n++] = "replay";
    for (int i = 0; i < nopts; i++)
        argv[n++] = opts[i];
    /* The run directory is a word of its own, even one that starts with
     * '-'; the program after a second "--". */
    argv[n++] = "--";
    argv[n++] = (char *)dir;
    if (nprog)
        argv[n++] = "--";
    for (int i = 0; i < nprog; i++)
        argv[n++] = prog[i];
    launch_desc_init(&d);
    int rc = launch_desc_argv(&d, argv);
    free(argv);
    d.flags = LAUNCH_SELF | (trust ? LAUNCH_TRUST : 0);
    if (rc < 0 || !(d.rundir = strdup(dir)) ||
        (nprog && !(d.program = strdup(prog[0])))) {
        launch_desc_release(&d);
        return fe_error("out of memory");
    }

    struct remote *r;
    const char *host = o->host ? o->host : "localhost";
    if (remote_connect(&r, o, err, sizeof err) < 0) {
        launch_desc_release(&d);
        return fe_error("%s", err);
    }
    struct remote_proc *p;
    rc = remote_start(r, &d, &p, err, sizeof err);
    launch_desc_release(&d);
    if (rc < 0) {
        fprintf(stderr, "drdb: %s\n", err);
        remote_close(r);
        return 2;
    }
    /* The terminal's ^C and a TERM or HUP go to the replay there, as to
     * the ranks of a local one. */
    signal(SIGINT, on_sig);
    signal(SIGTERM, on_sig);
    signal(SIGHUP, on_sig);
    int in = relay_stdin ? 0 : -1;
    if (!relay_stdin) {
        close(p->in); /* the program reads its recorded input there */
        p->in = -1;
    }
    int max = REMOTE_MAX_POLLFDS(1) + 3;
    struct pollfd fds[REMOTE_MAX_POLLFDS(1) + 3];
    while (!remote_proc_done(p) || p->out >= 0 || p->err >= 0) {
        if (got_sig) {
            remote_signal(p, got_sig);
            got_sig = 0;
        }
        int k = remote_pollfds(r, fds, max - 3), base = k;
        fds[k++] = (struct pollfd){.fd = p->out, .events = POLLIN};
        fds[k++] = (struct pollfd){.fd = p->err, .events = POLLIN};
        fds[k++] = (struct pollfd){.fd = in, .events = POLLIN};
        if (poll(fds, (nfds_t)k, -1) < 0 && errno != EINTR)
            break;
        if (remote_process(r, fds, base) < 0)
            break;
        if (fds[base].revents)
            relay(&p->out, 1);
        if (fds[base + 1].revents)
            relay(&p->err, 2);
        if (fds[base + 2].revents)
            relay(&in, p->in);
        if (in < 0 && p->in >= 0) {
            close(p->in);
            p->in = -1;
        }
    }
    if (!p->exited) {
        /* What arrived before the loss is shown first. */
        int *ends[2] = {&p->out, &p->err};
        for (int i = 0; i < 2; i++) {
            if (*ends[i] < 0)
                continue;
            fcntl(*ends[i], F_SETFL, O_NONBLOCK);
            while (*ends[i] >= 0 && poll(&(struct pollfd){.fd = *ends[i],
                                        .events = POLLIN}, 1, 0) > 0)
                relay(ends[i], i + 1);
        }
        fprintf(stderr, "drdb: %s: the replay of '%s' there ended with the "
                "connection; run it again when %s can be reached\n",
                remote_error(r), dir, host);
        remote_close(r);
        return 1;
    }
    int st = p->status;
    remote_close(r);
    if (WIFSIGNALED(st)) {
        fprintf(stderr, "drdb: the replay on %s was killed by signal %d "
                "(%s)\n", host, WTERMSIG(st), strsignal(WTERMSIG(st)));
        return 128 + WTERMSIG(st);
    }
    return WEXITSTATUS(st);
}
