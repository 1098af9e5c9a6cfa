/*
 * Opening a run named on a command line (fe.h): a local directory, or
 * HOST:DIR, a run directory on another host read through its drdb agent
 * (remote.h): the event index from copies of the logs without their
 * message data, the data fetched when an event is shown.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events.h"
#include "fe.h"
#include "launch.h"
#include "remote.h"

const char *fe_split_host(const char *arg, char *host, size_t hostlen)
{
    const char *colon = strchr(arg, ':');
    if (!colon || colon == arg || launch_dir_ok(arg) ||
        memchr(arg, '/', (size_t)(colon - arg)))
        return NULL;
    snprintf(host, hostlen, "%.*s", (int)(colon - arg), arg);
    return colon + 1;
}

/* Names part S of the run by SPEC (HOST:DIR or DIR), and starts its
 * host's agent with RO (remote_connect_start: the handshakes of all the
 * parts' hosts overlap): 0, or -1 with S->err. */
static int start_src(struct fe_src *s, const char *spec,
                     const struct remote_opts *ro)
{
    char host[256];
    const char *dir = fe_split_host(spec, host, sizeof host);
    snprintf(s->host, sizeof s->host, "%s", dir ? host : "");
    if (snprintf(s->dir, sizeof s->dir, "%s", dir ? dir : spec) >=
        (int)sizeof s->dir) {
        snprintf(s->err, sizeof s->err, "the path is too long");
        return -1;
    }
    if (!dir)
        return 0;
    struct remote_opts o = *ro;
    o.host = s->host;
    return remote_connect_start(&s->conn, &o, s->err, sizeof s->err);
}

/* Waits until the agents of FR's parts answered (or failed: S->err, and
 * S->conn NULL). */
static void wait_connected(struct fe_run *fr, const int *failed)
{
    struct remote **rs = calloc((size_t)fr->nsrc, sizeof *rs);
    for (;;) {
        int n = 0;
        for (int i = 0; i < fr->nsrc; i++) {
            struct fe_src *s = &fr->src[i];
            int rc = s->conn && !failed[i] ? remote_connected(s->conn,
                              s->err, sizeof s->err) : 1;
            if (rc < 0) {
                remote_close(s->conn);
                s->conn = NULL;
            }
            if (rs)
                rs[i] = rc == 0 ? s->conn : NULL;
            n += rc == 0;
        }
        if (!n)
            break;
        if (!rs || remote_wait(rs, fr->nsrc, -1) < 0)
            break;
    }
    for (int i = 0; i < fr->nsrc; i++) { /* the wait itself failed */
        struct fe_src *s = &fr->src[i];
        if (s->conn && !failed[i] &&
            remote_connected(s->conn, s->err, sizeof s->err) == 0) {
            snprintf(s->err, sizeof s->err, "waiting for the agent: %s",
                     strerror(errno));
            remote_close(s->conn);
            s->conn = NULL;
        }
    }
    free(rs);
}

/* Opens part S, named and connected: its description. 0, or -1 with
 * S->err. */
static int open_src(struct fe_src *s)
{
    if (!(s->run = calloc(1, sizeof *s->run))) {
        snprintf(s->err, sizeof s->err, "out of memory");
        return -1;
    }
    int rc;
    if (!s->host[0]) {
        char abs[PATH_MAX], spec[sizeof s->dir];
        snprintf(spec, sizeof spec, "%s", s->dir);
        rc = log_run_open(s->run, spec, s->err, sizeof s->err);
        if (rc == 0)
            snprintf(s->dir, sizeof s->dir, "%s",
                     realpath(spec, abs) ? abs : s->run->dir);
    } else {
        rc = s->conn ? remote_run_open(s->conn, s->dir, s->run, s->err,
                                       sizeof s->err) : -1;
        if (rc < 0 && s->conn) {
            remote_close(s->conn);
            s->conn = NULL;
        }
    }
    if (rc < 0) {
        free(s->run);
        s->run = NULL;
        return -1;
    }
    return 0;
}

/* Whether parts A and B are of one recorded run: the same world, and
 * recorded at the same start (drdb.run's start_ns) when both say. */
static int same_run(const struct log_run *a, const struct log_run *b)
{
    char x[64], y[64];
    if (a->world_size != b->world_size)
        return 0;
    if (log_run_get(a, "start_ns", x, sizeof x) &&
        log_run_get(b, "start_ns", y, sizeof y) && strcmp(x, y) != 0)
        return 0;
    return 1;
}

static const char *src_name(const struct fe_src *s, char *buf, size_t len)
{
    snprintf(buf, len, "%s%s%s", s->host, s->host[0] ? ":" : "",
             s->dir);
    return buf;
}

int fe_run_open(struct fe_run *fr, char *const *specs, int nspecs,
                const struct fe_hosts *hosts, const struct remote_opts *ro,
                char *err, size_t errlen)
{
    char a[4400], b[4400];
    memset(fr, 0, sizeof *fr);
    fr->first = -1;
    int n = hosts && hosts->n ? hosts->n : nspecs;
    if (hosts && hosts->n && (nspecs != 1 || fe_split_host(specs[0], a, 256))) {
        snprintf(err, errlen, "with --hosts, give one run directory (the "
                 "same path on every host), not HOST:DIR");
        return -1;
    }
    if (!(fr->src = calloc((size_t)n, sizeof *fr->src))) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    fr->nsrc = n;
    int *failed = calloc((size_t)n, sizeof *failed);
    if (!failed) {
        snprintf(err, errlen, "out of memory");
        fe_run_close(fr);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        const char *spec = specs[i < nspecs ? i : 0];
        if (hosts && hosts->n) {
            snprintf(a, sizeof a, "%s:%s", hosts->v[i].name, specs[0]);
            spec = a;
        }
        failed[i] = start_src(&fr->src[i], spec, ro) < 0;
    }
    wait_connected(fr, failed);
    for (int i = 0; i < n; i++) {
        struct fe_src *s = &fr->src[i];
        if (failed[i] || open_src(s) < 0) {
            if (n > 1)
                fprintf(stderr, "drdb: %s: %s; its ranks are left out\n",
                        src_name(s, b, sizeof b), s->err);
            continue;
        }
        if (fr->first < 0) {
            fr->first = i;
            continue;
        }
        if (!same_run(fr->src[fr->first].run, s->run)) {
            snprintf(err, errlen, "%s and %s are not parts of one run "
                     "(their %s differ: another world size or recording "
                     "time): give the directories of one recorded run",
                     src_name(&fr->src[fr->first], a, sizeof a),
                     src_name(s, b, sizeof b), LOG_RUN_FILE);
            free(failed);
            fe_run_close(fr);
            return -1;
        }
    }
    free(failed);
    if (fr->first < 0) {
        if (n == 1)
            snprintf(err, errlen, "%s", fr->src[0].err);
        else
            snprintf(err, errlen, "no part of the run could be opened");
        fe_run_close(fr);
        return -1;
    }
    fr->world_size = fr->src[fr->first].run->world_size;
    if (!(fr->rank_src = malloc((size_t)fr->world_size *
                                sizeof *fr->rank_src))) {
        snprintf(err, errlen, "out of memory");
        fe_run_close(fr);
        return -1;
    }
    for (int r = 0; r < fr->world_size; r++)
        fr->rank_src[r] = -1;
    for (int i = 0; i < n; i++) { /* the first part that has it */
        const struct log_run *run = fr->src[i].run;
        for (int j = 0; run && j < run->nranks_present; j++)
            if (fr->rank_src[run->present[j]] < 0)
                fr->rank_src[run->present[j]] = i;
    }
    for (int r = 0; hosts && hosts->n && r < fr->world_size; r++) {
        int p = fe_hosts_place(hosts, r); /* unless it is placed on one */
        const struct log_run *run = fr->src[p].run;
        for (int j = 0; run && j < run->nranks_present; j++)
            if (run->present[j] == r)
                fr->rank_src[r] = p;
    }
    src_name(&fr->src[fr->first], fr->name, sizeof fr->name);
    if (n > 1)
        snprintf(fr->name + strlen(fr->name),
                 sizeof fr->name - strlen(fr->name), " (+%d more part%s)",
                 n - 1, n > 2 ? "s" : "");
    return 0;
}

const struct log_run *fe_run_desc(const struct fe_run *fr)
{
    return fr->src[fr->first].run;
}

/* The error of a part's connection lost (into ERR), else 0. */
static int lost_part(const struct fe_run *fr, char *err, size_t errlen)
{
    for (int i = 0; i < fr->nsrc; i++)
        if (fr->src[i].conn && remote_error(fr->src[i].conn)[0]) {
            snprintf(err, errlen, "%s", remote_error(fr->src[i].conn));
            return -1;
        }
    return 0;
}

/* The thread that reads ranks into the index (ev_build_feed) while the
 * copies of the next are on their way: the main thread pumps the
 * connections and takes each copy; once a rank and every rank before it
 * are in (or known missing), it tells the thread how far it may read. */
struct feeder {
    struct ev_run *x;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int upto, done; /* ranks it may read; no more will come */
};

static void *feed_ranks(void *arg)
{
    struct feeder *f = arg;
    int fed = 0;
    pthread_mutex_lock(&f->mu);
    for (;;) {
        while (fed == f->upto && !f->done)
            pthread_cond_wait(&f->cv, &f->mu);
        int upto = f->upto;
        if (fed == upto)
            break;
        pthread_mutex_unlock(&f->mu);
        ev_build_feed(f->x, upto);
        fed = upto;
        pthread_mutex_lock(&f->mu);
    }
    pthread_mutex_unlock(&f->mu);
    return NULL;
}

/* F may read the ranks below UPTO (DONE: no more will come). */
static void feeder_allow(struct feeder *f, int upto, int done)
{
    pthread_mutex_lock(&f->mu);
    f->upto = upto;
    f->done = done;
    pthread_cond_signal(&f->cv);
    pthread_mutex_unlock(&f->mu);
}

/* Takes the copies of ASKS (one per rank, NULL: none) into X as they
 * arrive, pumping all of FR's connections together; with FEED, each rank
 * is read into the index by a thread as soon as it and the ranks before
 * it are in: 0, or -1 with ERR (a connection lost; the requests left are
 * freed). */
static int take_copies(struct fe_run *fr, struct ev_run *x,
                       struct remote_index **asks, int feed, char *err,
                       size_t errlen)
{
    struct remote **rs = calloc((size_t)fr->nsrc, sizeof *rs);
    struct feeder f = {x, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER,
                       0, 0};
    pthread_t th;
    int rc = rs ? 0 : -1, settled = 0;
    if (!rs)
        snprintf(err, errlen, "out of memory");
    if (feed && rc == 0) { /* signals stay with this thread */
        sigset_t all, was;
        sigfillset(&all);
        pthread_sigmask(SIG_SETMASK, &all, &was);
        if (pthread_create(&th, NULL, feed_ranks, &f))
            feed = 0; /* ev_build() reads them all */
        pthread_sigmask(SIG_SETMASK, &was, NULL);
    }
    for (int left = 1; rc == 0 && left;) {
        left = 0;
        for (int r = 0; r < fr->world_size; r++) {
            struct ev_rank *rk = &x->ranks[r];
            struct log_rank lr;
            if (!asks[r] || !remote_index_ready(asks[r])) {
                left += asks[r] != NULL;
                continue;
            }
            int got = remote_index_take(asks[r], &lr, rk->err,
                                        sizeof rk->err);
            asks[r] = NULL;
            if (got == 0)
                ev_take_rank(x, r, &lr, rk->err, sizeof rk->err);
        }
        int was = settled;
        while (settled < fr->world_size && !asks[settled])
            settled++;
        if (feed && settled > was)
            feeder_allow(&f, settled, 0);
        rc = lost_part(fr, err, errlen);
        for (int i = 0; rc == 0 && i < fr->nsrc; i++)
            rs[i] = fr->src[i].conn;
        if (rc == 0 && left && remote_wait(rs, fr->nsrc, -1) < 0) {
            snprintf(err, errlen, "waiting for the agents: %s",
                     strerror(errno));
            rc = -1;
        }
    }
    if (feed) {
        feeder_allow(&f, settled, 1);
        pthread_join(th, NULL);
    }
    for (int r = 0; r < fr->world_size; r++)
        if (asks[r])
            remote_index_free(asks[r]);
    free(rs);
    return rc;
}

int fe_run_events(struct fe_run *fr, struct ev_run *x, int feed, char *err,
                  size_t errlen)
{
    if (fr->nsrc == 1 && !fr->src[0].host[0])
        return ev_open_run(x, fr->src[0].run, err, errlen);
    if (ev_open_empty(x, fr->name, fr->world_size, err, errlen) < 0)
        return -1;
    struct remote_index **asks = calloc((size_t)fr->world_size,
                                        sizeof *asks);
    if (!asks) {
        snprintf(err, errlen, "out of memory");
        ev_close(x);
        return -1;
    }
    /* Every host asked for all its ranks' copies first: the hosts strip
     * and send them at the same time, while the local parts are read
     * here and each copy is taken as it arrives. */
    for (int r = 0; r < fr->world_size; r++) {
        struct fe_src *s = fr->rank_src[r] >= 0 ? &fr->src[fr->rank_src[r]]
                                                : NULL;
        if (s && s->conn)
            asks[r] = remote_index_ask(s->conn, s->dir, r, x->ranks[r].err,
                                       sizeof x->ranks[r].err);
    }
    for (int r = 0; r < fr->world_size; r++) {
        struct fe_src *s = fr->rank_src[r] >= 0 ? &fr->src[fr->rank_src[r]]
                                                : NULL;
        struct ev_rank *rk = &x->ranks[r];
        struct log_rank lr;
        char path[4200];
        if (!s) {
            for (int i = 0; i < fr->nsrc; i++)
                if (!fr->src[i].run) { /* it may be there */
                    char name[4400];
                    snprintf(rk->err, sizeof rk->err, "no part of the run "
                             "read holds rank-%d.log; %.150s could not be "
                             "read", r, src_name(&fr->src[i], name,
                                                 sizeof name));
                    break;
                }
            continue;
        }
        if (!s->conn) {
            log_path(path, sizeof path, s->dir, r);
            if (log_rank_open(&lr, path, rk->err, sizeof rk->err) == 0)
                ev_take_rank(x, r, &lr, rk->err, sizeof rk->err);
        }
    }
    int rc = take_copies(fr, x, asks, feed, err, errlen);
    free(asks);
    if (rc < 0)
        ev_close(x);
    return rc;
}

void fe_run_close(struct fe_run *fr)
{
    for (int i = 0; i < fr->nsrc; i++) {
        struct fe_src *s = &fr->src[i];
        if (s->run) {
            log_run_release(s->run);
            free(s->run);
        }
        remote_close(s->conn);
    }
    free(fr->src);
    free(fr->rank_src);
    memset(fr, 0, sizeof *fr);
}

void fe_run_opts_init(struct fe_run_opts *o)
{
    memset(o, 0, sizeof *o);
    o->ro.ssh_opts = o->ssh_opts;
}

void fe_run_opts_release(struct fe_run_opts *o)
{
    fe_hosts_release(&o->hosts);
}

int fe_run_opt(struct fe_run_opts *o, const char *name, const char *arg)
{
    char err[512];
    if (strcmp(name, "host") == 0) {
        o->host = arg;
    } else if (strcmp(name, "remote-drdb") == 0) {
        o->ro.drdb = arg;
    } else if (strcmp(name, "ssh-option") == 0) {
        if (o->ro.nssh_opts == (int)(sizeof o->ssh_opts /
                                     sizeof o->ssh_opts[0])) {
            fe_error("too many --ssh-option");
            return -1;
        }
        o->ssh_opts[o->ro.nssh_opts++] = arg;
    } else if (strcmp(name, "launcher") == 0) {
        if (strcmp(arg, "ssh") && strcmp(arg, "srun")) {
            fe_error("--launcher takes ssh or srun, not '%s'", arg);
            return -1;
        }
        o->ro.launcher = arg;
    } else if (strcmp(name, "also") == 0) {
        if (o->nparts == (int)(sizeof o->parts / sizeof o->parts[0])) {
            fe_error("too many --also: a run in more than %d parts",
                     (int)(sizeof o->parts / sizeof o->parts[0]) + 1);
            return -1;
        }
        o->parts[o->nparts++] = arg;
    } else if (strcmp(name, "hosts") == 0) {
        fe_hosts_release(&o->hosts);
        if (fe_hosts_parse(&o->hosts, arg, err, sizeof err) < 0) {
            fe_error("%s", err);
            return -1;
        }
        o->hosts_arg = arg;
    } else {
        return 0;
    }
    return 1;
}

static int run_opt_fn(void *dst, const struct fe_opt *o, const char *arg)
{
    return fe_run_opt(dst, o->name, arg) < 0 ? -1 : 0;
}

const struct fe_opt fe_run_opt_table[] = {
    FE_CALL(0, "host", "HOST", 0, run_opt_fn, "RUNDIR is on HOST: read, and "
     "its ranks replayed, there by HOST's drdb agent started over ssh "
     "(HOST:RUNDIR says the same; docs/remote.md)"),
    FE_CALL(0, "also", "PART", 0, run_opt_fn, "another part of the run "
     "(repeatable): a DIR or HOST:DIR holding some ranks' logs (and a copy "
     "of drdb.run)"),
    FE_CALL(0, "hosts", "LIST", 0, run_opt_fn, "RUNDIR on each host of LIST "
     "(h1,h2:N or @FILE, an MPICH host file): each rank read and replayed on "
     "the host that has its log, the one mpiexec placed it on first"),
    FE_CALL(0, "ssh-option", "OPT", 0, run_opt_fn, "passed to ssh as -o OPT "
     "(repeatable)"),
    FE_CALL(0, "remote-drdb", "PATH", 0, run_opt_fn, "the drdb to run on the "
     "hosts (default: drdb on their PATH)"),
    FE_CALL(0, "launcher", "ssh|srun", 0, run_opt_fn, "how each host's agent "
     "starts: over ssh (default), or by srun as a step of the Slurm "
     "allocation drdb runs in (no ssh); srun with a RUNDIR of no host: "
     "RUNDIR on the allocation's nodes"),
    FE_END,
};

int fe_run_opts_done(struct fe_run_opts *o, const char **rundir, char *err,
                     size_t errlen)
{
    char host[256], **nodes;
    if (o->host) {
        if (fe_split_host(*rundir, host, sizeof host)) {
            snprintf(err, errlen, "--host %s and '%s': say the host once",
                     o->host, *rundir);
            return -1;
        }
        if (snprintf(o->spec, sizeof o->spec, "%s:%s", o->host, *rundir) >=
            (int)sizeof o->spec) {
            snprintf(err, errlen, "'%s': too long a path", *rundir);
            return -1;
        }
        *rundir = o->spec;
    }
    if (!o->ro.launcher || strcmp(o->ro.launcher, "srun") ||
        o->hosts.n || o->nparts || fe_split_host(*rundir, host, sizeof host))
        return 0;
    int k = remote_alloc_hosts(&nodes, err, errlen);
    if (k < 0)
        return -1;
    size_t len = 1;
    for (int i = 0; i < k; i++)
        len += strlen(nodes[i]) + 1;
    char *list = malloc(len);
    int rc = -1;
    if (!list) {
        snprintf(err, errlen, "out of memory");
    } else {
        list[0] = '\0';
        for (int i = 0; i < k; i++)
            strcat(strcat(list, i ? "," : ""), nodes[i]);
        rc = fe_hosts_parse(&o->hosts, list, err, errlen) < 0 ? -1 : 0;
    }
    free(list);
    remote_argv_free(nodes);
    return rc;
}

int fe_ev_open(struct ev_run *x, struct fe_run *fr, const char *rundir,
               const struct fe_run_opts *o, int whole, char *err,
               size_t errlen)
{
    char *specs[65];
    int n = 0;
    specs[n++] = (char *)rundir;
    for (int i = 0; i < o->nparts; i++)
        specs[n++] = (char *)o->parts[i];
    if (o->hosts.n && o->nparts) {
        snprintf(err, errlen, "give either --hosts (one directory on every "
                 "host) or --also (the parts of a run), not both");
        return -1;
    }
    if (fe_run_open(fr, specs, n, &o->hosts, &o->ro, err, errlen) < 0)
        return -1;
    if (fe_run_events(fr, x, whole, err, errlen) < 0) {
        fe_run_close(fr);
        return -1;
    }
    return 0;
}
