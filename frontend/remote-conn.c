/* The connection to a drdb agent (remote.h): started over ssh, srun or as
 * a local child, its HELLO awaited, reconnected, closed. */
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

static int spawn(struct remote **out, const struct remote_opts *o,
                 const char *const *words, char *err, size_t errlen);

int remote_connect_start(struct remote **out, const struct remote_opts *o,
                         char *err, size_t errlen)
{
    char secs[16];
    const char *keep[] = {"--keep", secs, NULL};
    snprintf(secs, sizeof secs, "%d", o->keep_s);
    if (spawn(out, o, o->keep_s > 0 ? keep : NULL, err, errlen) < 0)
        return -1;
    (*out)->keep_s = o->keep_s;
    return 0;
}

int remote_connected(struct remote *r, char *err, size_t errlen)
{
    if (r->lost) {
        snprintf(err, errlen, "%s", r->err);
        return -1;
    }
    if (!r->hello)
        return 0;
    if (r->keep_s > 0) { /* once: a kept session's limit, after HELLO */
        int secs = r->keep_s;
        r->keep_s = 0;
        if (remote_keep(r, secs, NULL, err, errlen) < 0) {
            r->keep_s = -1;
            return -1;
        }
    }
    return r->keep_s < 0 ? -1 : 1;
}

/* Waits until *OUT's agent answered (remote_connected): 0, or -1 with
 * ERR after closing it (*OUT then NULL). BatchMode: ssh answers or fails
 * by itself, never waits on a prompt. */
static int wait_connected(struct remote **out, char *err, size_t errlen)
{
    int rc;
    while ((rc = remote_connected(*out, err, errlen)) == 0)
        remote__pump(*out, -1);
    if (rc < 0) {
        remote_close(*out);
        *out = NULL;
        return -1;
    }
    return 0;
}

int remote_connect(struct remote **out, const struct remote_opts *o,
                   char *err, size_t errlen)
{
    if (remote_connect_start(out, o, err, errlen) < 0)
        return -1;
    return wait_connected(out, err, errlen);
}

int remote__connect(struct remote **out, const struct remote_opts *o,
                    const char *const *words, char *err, size_t errlen)
{
    if (spawn(out, o, words, err, errlen) < 0)
        return -1;
    return wait_connected(out, err, errlen);
}

/* Starts the agent for O (WORDS after `drdb agent`) and queues this
 * side's HELLO, without waiting for the agent's: 0 with *OUT, or -1. */
static int spawn(struct remote **out, const struct remote_opts *o,
                 const char *const *words, char *err, size_t errlen)
{
    char **argv = remote__argv(o, words, err, errlen);
    if (!argv)
        return -1;
    struct remote *r = calloc(1, sizeof *r);
    int to[2] = {-1, -1}, from[2] = {-1, -1}, ep[2] = {-1, -1};
    if (!r || pipe2(to, O_CLOEXEC) < 0 || pipe2(from, O_CLOEXEC) < 0 ||
        pipe2(ep, O_CLOEXEC) < 0) {
        snprintf(err, errlen, "cannot make pipes: %s", strerror(errno));
        goto fail;
    }
    r->local = remote__is_local(o->host);
    r->srun = !r->local && remote__is_srun(o);
    snprintf(r->host, sizeof r->host, "%s", r->local ? "localhost" : o->host);
    snprintf(r->drdb, sizeof r->drdb, "%s", o->drdb ? o->drdb : "");
    r->next_ch = 1;
    /* A lost connection is an error to report, not a signal. */
    struct sigaction old;
    if (sigaction(SIGPIPE, NULL, &old) == 0 && old.sa_handler == SIG_DFL)
        signal(SIGPIPE, SIG_IGN);
    fflush(NULL);
    pid_t parent = getpid();
    r->pid = fork();
    if (r->pid < 0) {
        snprintf(err, errlen, "cannot fork: %s", strerror(errno));
        goto fail;
    }
    if (r->pid == 0) {
        /* Its own group: the terminal's ^C is the caller's to forward,
         * not a reason for ssh to drop the connection. */
        setpgid(0, 0);
        if (life_die_with_parent(parent) < 0)
            _exit(255);
        signal(SIGPIPE, SIG_DFL);
        dup2(to[0], 0);
        dup2(from[1], 1);
        dup2(ep[1], 2);
        execvp(argv[0], argv);
        fprintf(stderr, "cannot run '%s': %s (install %s)\n", argv[0],
                strerror(errno), r->local ? "drdb"
                : r->srun ? "Slurm's slurm-client" : "openssh-client");
        _exit(255);
    }
    setpgid(r->pid, r->pid);
    remote__close_fd(&to[0]);
    remote__close_fd(&from[1]);
    remote__close_fd(&ep[1]);
    remote__set_nonblock(to[1]);
    remote__set_nonblock(from[0]);
    remote__set_nonblock(ep[0]);
    r->err_fd = ep[0];
    wire_conn_init(&r->c, from[0], to[1]);
    remote_argv_free(argv);
    argv = NULL;
    struct wire_buf b;
    wire_buf_init(&b);
    wire_put_hello(&b, wire_version());
    wire_send_buf(&r->c, WIRE_HELLO, 0, &b);
    wire_buf_release(&b);
    *out = r;
    return 0;
fail:
    remote_argv_free(argv);
    for (int i = 0; i < 2; i++) {
        remote__close_fd(&to[i]);
        remote__close_fd(&from[i]);
        remote__close_fd(&ep[i]);
    }
    free(r);
    return -1;
}

/* Ends the connection's agent (or ssh): the end of its input ends all it
 * started (agent.h); waits for it, kills it after 5 s. */
static void end_agent(struct remote *r)
{
    remote__close_fd(&r->c.out);
    remote__close_fd(&r->c.in);
    for (int i = 0; i < 250 && r->pid > 0; i++) {
        if (waitpid(r->pid, NULL, WNOHANG) == r->pid) {
            r->pid = -1;
            break;
        }
        struct timespec t = {0, 20000000};
        nanosleep(&t, NULL);
    }
    if (r->pid > 0) {
        kill(-r->pid, SIGKILL);
        waitpid(r->pid, NULL, 0);
    }
    r->pid = -1;
    remote__close_fd(&r->err_fd);
    wire_conn_release(&r->c);
}

int remote_reconnect(struct remote *r, const struct remote_opts *o,
                     char *err, size_t errlen)
{
    struct remote *n;
    if (r->nprocs) {
        snprintf(err, errlen, "%s: its processes must end before it "
                 "reconnects", r->host);
        return -1;
    }
    if (remote_connect(&n, o, err, errlen) < 0)
        return -1;
    end_agent(r);
    while (r->npend) /* the old agent's: no answer comes now */
        remote__drop(r, r->pend[0].ch);
    r->pid = n->pid;
    r->err_fd = n->err_fd;
    r->c = n->c;
    r->hello = 1;
    r->lost = 0;
    r->err[0] = r->tail[0] = '\0';
    n->pid = -1;
    n->err_fd = -1;
    wire_conn_init(&n->c, -1, -1);
    remote_close(n);
    return 0;
}

void remote_close(struct remote *r)
{
    if (!r)
        return;
    /* The end of the agent's input ends all it started (agent.h). */
    remote__close_fd(&r->c.out);
    remote__close_fd(&r->c.in);
    while (r->nprocs)
        remote_proc_free(r->procs[0]);
    end_agent(r);
    while (r->npend)
        remote__drop(r, r->pend[0].ch);
    free(r->pend);
    wire_ready_release(&r->ready);
    wire_buf_release(&r->reply);
    wire_buf_release(&r->reply_end);
    for (size_t i = 0; i < r->nsrcs; i++) {
        free(r->srcs[i]->dir);
        free(r->srcs[i]);
    }
    free(r->srcs);
    free(r->procs);
    free(r);
}

