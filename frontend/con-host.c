/*
 * The hosts of remote ranks (con.h's struct con_host): each one's agent
 * connection (remote.h), made again after it was lost, and a rank's GDB
 * started there and driven as a local one through mi_gdb_attach()'s link:
 * its streams are the connection's relayed descriptors, its process the
 * agent's, its program's terminal the host's (docs/architecture.md,
 * "Remote replay nodes").
 */
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "con.h"
#include "launch.h"
#include "remote.h"

/* ---- a GDB on a host, through the link's callbacks ----------------------- */

static int link_alive(void *ud, int *status)
{
    struct remote_proc *p = ud;
    if (p->exited) {
        *status = p->status;
        return 0;
    }
    *status = -1;
    return !remote_lost(p->r);
}

static void link_signal(void *ud, int sig)
{
    remote_signal(ud, sig);
}

/* Moves the connection's bytes (every process's on it, not only this
 * GDB's: they wait in their descriptors for their owners). */
static int link_pump(void *ud, int timeout_ms)
{
    struct remote_proc *p = ud;
    struct remote *r = p->r;
    if (remote_lost(r))
        return -1;
    int max = REMOTE_MAX_POLLFDS(64);
    struct pollfd fds[REMOTE_MAX_POLLFDS(64)], *f = fds;
    int n = remote_pollfds(r, f, max);
    if (n == max) { /* more processes than room here */
        max = 4096;
        if (!(f = calloc((size_t)max, sizeof *f)))
            return -1;
        n = remote_pollfds(r, f, max);
    }
    int rc = poll(f, (nfds_t)n, timeout_ms) < 0 ? 0 : remote_process(r, f, n);
    if (f != fds)
        free(f);
    return rc;
}

static void link_release(void *ud)
{
    remote_proc_free(ud);
}

/* ---- hosts ---------------------------------------------------------------- */

int con_host_ensure(struct con *c, int h)
{
    struct con_host *x = &c->hosts[h];
    char err[1024];
    if (!x->lost && x->conn && !remote_lost(x->conn))
        return 0;
    if (!x->lost)
        con_host_lost(c, h);
    struct remote_opts o = *c->ropts;
    o.host = x->name;
    if (remote_reconnect(x->conn, &o, err, sizeof err) < 0) {
        fprintf(stderr, "drdb: %s\n", err);
        return -1;
    }
    x->lost = 0;
    x->why[0] = '\0';
    x->gen++;
    fprintf(stderr, "drdb: connected to %s again\n", x->name);
    return 0;
}

int con_host_setup(struct con *c, struct con_rank *k, unsigned *ticket)
{
    struct con_host *x = &c->hosts[k->host];
    char err[4096];
    if (con_host_ensure(c, k->host) < 0)
        return -1;
    if (remote_setup_send(x->conn, x->dir, k->rank, c->in_place, ticket,
                          err, sizeof err) < 0) {
        fprintf(stderr, "drdb: rank %d: %s\n", k->rank, err);
        return -1;
    }
    return 0;
}

int con_host_prepared(struct con *c, struct con_rank *k, unsigned ticket,
                      struct launch_gdb *lg)
{
    char err[4096];
    if (remote_setup_take(c->hosts[k->host].conn, ticket, lg, err,
                          sizeof err) < 0) {
        fprintf(stderr, "drdb: rank %d: %s\n", k->rank, err);
        return -1;
    }
    return 0;
}

int con_host_launch(struct con *c, struct con_rank *k,
                    const struct launch_gdb *lg, struct remote_proc **p)
{
    struct con_host *x = &c->hosts[k->host];
    char err[4096];
    /* GDB there, its program's terminal there; the agent applies the
     * trust check to the run and its program before it starts. */
    static char *const argv[] = {"gdb", "-nx", "-q", "--interpreter=mi3",
                                 NULL};
    struct launch_desc d;
    launch_desc_init(&d);
    d.flags = LAUNCH_TTY | (c->trust ? LAUNCH_TRUST : 0);
    int rc = launch_desc_argv(&d, argv) < 0 || !(d.rundir = strdup(x->dir)) ||
             (c->program && !(d.program = strdup(c->program))) ||
             (lg->xstate[0] &&
              launch_env_set(&d.env, "LD_PRELOAD", lg->xstate) < 0)
                 ? -1 : 0;
    if (rc < 0)
        snprintf(err, sizeof err, "out of memory");
    else
        rc = remote_start_send(x->conn, &d, p, err, sizeof err);
    launch_desc_release(&d);
    if (rc < 0)
        fprintf(stderr, "drdb: rank %d: cannot start gdb: %s\n", k->rank,
                err);
    return rc;
}

int con_host_started(struct con *c, struct con_rank *k,
                     struct remote_proc *p)
{
    char err[4096], msg[256];
    if (remote_start_take(p, err, sizeof err) < 0) {
        fprintf(stderr, "drdb: rank %d: cannot start gdb: %s\n", k->rank,
                err);
        return -1;
    }
    /* its label, for `drdb attach` to find it in a kept session */
    snprintf(msg, sizeof msg, "rank %d", k->rank);
    if (c->keep_s > 0)
        remote_label(p, msg);
    return con_host_drive(c, k, p);
}

int con_host_drive(struct con *c, struct con_rank *k, struct remote_proc *p)
{
    char msg[256];
    struct mi_gdb_link l = {
        .in = p->in, .out = p->out, .err = p->err, .pty_fd = p->tty,
        .tty_name = p->tty_name, .pid = p->pid, .alive = link_alive,
        .signal = link_signal, .pump = link_pump, .release = link_release,
        .ud = p,
    };
    struct mi_gdb_options opt = {0};
    opt.on_async = con_on_async;
    opt.on_stream = con_on_stream;
    opt.ud = k;
    opt.first_token = c->first_token;
    p->in = p->out = p->err = p->tty = -1; /* the driver's now */
    if (mi_gdb_attach(&k->gdb, &opt, &l, msg, sizeof msg) < 0) {
        fprintf(stderr, "drdb: rank %d: cannot drive gdb on %s: %s\n",
                k->rank, c->hosts[k->host].name, msg);
        remote_proc_free(p);
        k->gdb = NULL;
        return -1;
    }
    return 0;
}
