/*
 * The console's session: the run, a struct con_rank per rank (one shared
 * by the ranks no command started, con_rank_own), the named
 * sets, the event index, and the session's tables (breakpoints, sets,
 * program output); ending it ends every GDB and shadow it started.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "con.h"
#include "drdb-stub.h"
#include "events.h"
#include "fe.h"
#include "util.h"
#include "launch.h"
#include "log-compress.h"
#include "log-reader.h"
#include "remote.h"
#include "term-escape.h"

const char *con_state_name(enum con_state s)
{
    static const char *const names[] = {
        "not replayed", "starting", "stopped", "running",
        "exited",       "diverged", "lost",    "end of log",
        "not started"};
    return names[s];
}

int con_rank_halted(const struct con_rank *k)
{
    return k->state == CON_STOPPED || k->state == CON_DIVERGED ||
           k->state == CON_LOG_END;
}

/* A rank of its own, not replayed. */
static struct con_rank *rank_new(int r, int host)
{
    struct con_rank *k = calloc(1, sizeof *k);
    if (k) {
        k->rank = r;
        k->host = host;
    }
    return k;
}

/* The rank every rank without one of its own is, read-only: a write
 * there would be every such rank's at once, so it faults instead. */
static struct con_rank *idle_new(void)
{
    struct con_rank *k = mmap(NULL, sizeof *k, PROT_READ | PROT_WRITE,
                              MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (k == MAP_FAILED)
        return NULL;
    k->rank = k->host = -1;
    mprotect(k, sizeof *k, PROT_READ);
    return k;
}

struct con_rank *con_rank_own(struct con *c, int r)
{
    if (c->ranks[r] != c->idle)
        return c->ranks[r];
    struct con_rank *k = rank_new(r, -1);
    if (!k) {
        fprintf(stderr, "drdb: rank %d: out of memory\n", r);
        return NULL;
    }
    return c->ranks[r] = k;
}

/* A run in parts or on hosts (fe_run): the parts' description into
 * c->run (drdb.run of the first part, the ranks any part holds), each
 * remote part's connection a host of the session whose ranks replay
 * there (HOST_OF: per rank of c->run.present, its host, -1 here;
 * malloc'd), the local
 * part's directory in c->dir, and the event index over every part's
 * logs. */
static int open_parts(struct con *c, const char *dir,
                      const struct fe_run_opts *o, int **host_of,
                      char *err, size_t errlen)
{
    struct fe_run fr;
    if (!(c->ev = calloc(1, sizeof *c->ev))) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (fe_ev_open(c->ev, &fr, dir, o, 0, err, errlen) < 0) {
        free(c->ev);
        c->ev = NULL;
        return -1;
    }
    int local = -1, rc = 0, held = 0;
    for (int r = 0; r < fr.world_size; r++)
        held += fr.rank_src[r] >= 0;
    int *hix = calloc((size_t)fr.nsrc, sizeof *hix);
    c->hosts = calloc((size_t)fr.nsrc, sizeof *c->hosts);
    *host_of = calloc((size_t)held + 1, sizeof **host_of);
    c->run.present = calloc((size_t)held + 1, sizeof (int));
    const struct log_run *desc = fe_run_desc(&fr);
    c->run.text = strdup(desc->text ? desc->text : "");
    if (!hix || !c->hosts || !*host_of || !c->run.present || !c->run.text) {
        snprintf(err, errlen, "out of memory");
        rc = -1;
    }
    for (int i = 0; rc == 0 && i < fr.nsrc; i++) {
        struct fe_src *src = &fr.src[i];
        hix[i] = -1;
        if (!src->run)
            continue;
        if (!src->conn) {
            if (local >= 0) {
                snprintf(err, errlen, "the console replays the ranks of "
                         "one local directory: give the other local parts "
                         "as localhost:DIR (a local agent)");
                rc = -1;
            }
            local = i;
            continue;
        }
        struct con_host *x = &c->hosts[c->nhosts];
        snprintf(x->name, sizeof x->name, "%s", src->host);
        snprintf(x->dir, sizeof x->dir, "%s", src->dir);
        x->conn = src->conn; /* the session's now */
        src->conn = NULL;
        hix[i] = c->nhosts++;
    }
    if (rc == 0) {
        if (local >= 0)
            snprintf(c->dir, sizeof c->dir, "%s", fr.src[local].dir);
        snprintf(c->run.dir, sizeof c->run.dir, "%.4000s", fr.name);
        c->run.world_size = fr.world_size;
        for (int r = 0; r < fr.world_size; r++) {
            int s = fr.rank_src[r];
            if (s < 0)
                continue;
            (*host_of)[c->run.nranks_present] = hix[s];
            c->run.present[c->run.nranks_present++] = r;
        }
    }
    free(hix);
    fe_run_close(&fr);
    return rc;
}

int con_open(struct con *c, const char *dir, const struct fe_run_opts *o,
             char *err, size_t errlen)
{
    char host[256];
    int *host_of = NULL;
    int parts = fe_split_host(dir, host, sizeof host) || o->nparts ||
                o->hosts.n;
    memset(c, 0, sizeof *c);
    c->merge = 1;
    c->prefix = 1;
    c->ckpt_interval = -1;
    c->max_groups = 8;
    c->width = -1;
    c->next_bpt = 1;
    c->ropts = &o->ro;
    if (parts) {
        if (open_parts(c, dir, o, &host_of, err, errlen) < 0) {
            free(host_of);
            return -1;
        }
    } else if (!realpath(dir, c->dir)) {
        snprintf(err, errlen, "cannot open run '%s': %s", dir,
                 strerror(errno));
        return -1;
    } else if (log_run_open(&c->run, c->dir, err, errlen) < 0) {
        return -1;
    }
    /* Replays and checkpoints reopen the logs by path: a compression
     * must not replace them under the session (log-compress.h). */
    if (c->dir[0])
        c->hold = log_run_hold(c->dir) + 1;
    /* The logs the directory holds (a run may name many more ranks),
     * opened once for the session: listings, the event index and the
     * lookups of single events read them. */
    if (!c->ev && !(c->ev = calloc(1, sizeof *c->ev))) {
        snprintf(err, errlen, "out of memory");
        free(host_of);
        return -1;
    }
    if (!parts && ev_open_run(c->ev, &c->run, err, errlen) < 0) {
        free(c->ev);
        c->ev = NULL;
        return -1;
    }
    /* A rank with a log has its own struct con_rank (on its host), the
     * others share c->idle until a command starts one: the session costs
     * what the logs present cost, plus 8 bytes a rank of the world. */
    c->nranks = c->run.world_size;
    c->ranks = calloc((size_t)c->nranks, sizeof *c->ranks);
    c->idle = idle_new();
    c->nevents = calloc((size_t)c->nranks, sizeof *c->nevents);
    c->logs = calloc((size_t)c->ev->nlogged + 1, sizeof *c->logs);
    int ok = c->ranks && c->idle && c->nevents && c->logs &&
             rs_init(&c->focus, c->nranks) == 0;
    for (int r = 0; ok && r < c->nranks; r++)
        c->ranks[r] = c->idle;
    /* (both lists ascending) */
    for (int i = 0, j = 0; ok && i < c->ev->nlogged; i++) {
        int r = c->ev->logged[i], h = -1;
        while (host_of && j < c->run.nranks_present && c->run.present[j] < r)
            j++;
        if (host_of && j < c->run.nranks_present && c->run.present[j] == r)
            h = host_of[j];
        ok = (c->ranks[r] = rank_new(r, h)) != NULL;
    }
    free(host_of);
    if (!ok) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (int i = 0; i < c->ev->nlogged; i++) {
        int r = c->ev->logged[i];
        const struct ev_rank *rk = &c->ev->ranks[r];
        struct con_loginfo *li = &c->logs[c->nlogs++];
        li->rank = r;
        snprintf(li->why, sizeof li->why, "%s", rk->err);
        if (!rk->present)
            continue;
        const struct log_rank *lr = &rk->log;
        c->nevents[r] = lr->nevents;
        li->present = 1;
        li->complete = (lr->hdr.flags & LOG_HDR_COMPLETE) &&
                       !lr->stop_reason[0];
        snprintf(li->host, sizeof li->host, "%s", lr->hdr.host);
        li->span_s = lr->nevents
                         ? (double)log_rank_enter(lr, lr->nevents - 1) / 1e9
                         : 0;
        /* how it ends: "died in MPI_Send at event 2: ...", "killed
         * mid-run: ...", "exited without MPI_Finalize ..." */
        if (li->complete)
            li->why[0] = 0;
        else
            log_rank_ending_in(c->ev->dir, lr, li->why, sizeof li->why);
    }
    if (!log_run_get(&c->run, "exe", c->exe, sizeof c->exe) ||
        !log_run_get(&c->run, "argv", c->args, sizeof c->args)) {
        snprintf(err, errlen, "'%s' does not say which program ran", dir);
        return -1;
    }
    if (!log_run_get(&c->run, "cwd", c->cwd, sizeof c->cwd))
        c->cwd[0] = '\0';
    /* (a remote rank's stub is its host's: launch_gdb's) */
    if (fe_find_stub(c->stub, sizeof c->stub) < 0 &&
        (!c->nhosts || c->dir[0])) {
        snprintf(err, errlen, "cannot find the replay stub (" DRDB_STUB_LIB
                 " of drdb); set " DRDB_ENV_REPLAY_LIB_DIR " to its "
                 "directory");
        return -1;
    }
    return 0;
}

/* The hosts' connections end (after the GDBs and logs that used them):
 * their agents end what they started. */
static void close_hosts(struct con *c)
{
    for (int h = 0; h < c->nhosts; h++) {
        remote_close(c->hosts[h].conn);
        if (c->hosts[h].logs)
            remote_close(c->hosts[h].logs);
    }
    free(c->hosts);
    c->hosts = NULL;
    c->nhosts = 0;
}

/* The session ends: shadows end, their files go. */
static void close_shadows(struct con *c)
{
    for (int r = 0; c->ranks && r < c->nranks; r++) {
        if (c->ranks[r] == c->idle)
            continue;
        struct con_ckpt_rank *q = c->ranks[r]->ck;
        if (!q)
            continue;
        con_shadow_end(c, r, 1);
        free(q->ext);
        free(q);
        c->ranks[r]->ck = NULL;
    }
    if (c->shadow_root[0])
        rmdir(c->shadow_root);
}

void con_close(struct con *c)
{
    close_shadows(c);
    for (int r = 0; c->ranks && r < c->nranks; r++) {
        struct con_rank *k = c->ranks[r];
        if (!k || k == c->idle)
            continue;
        if (k->gdb)
            mi_gdb_free(k->gdb);
        free(k->stop.text);
        free(k->outbuf);
        free(k);
    }
    if (c->idle)
        munmap(c->idle, sizeof *c->idle);
    for (int i = 0; i < c->nsets; i++)
        rs_release(&c->sets[i].set);
    free(c->sets);
    for (int i = 0; i < c->nbpts; i++) {
        rs_release(&c->bpts[i].set);
        free(c->bpts[i].gdbno);
        free(c->bpts[i].commands);
    }
    free(c->bpts);
    con_gdb_release(c);
    for (int i = 0; i < c->nout; i++)
        free(c->out[i].text);
    free(c->out);
    rs_release(&c->focus);
    for (int i = 0; i < c->nlast; i++)
        free(c->last[i].text);
    free(c->last);
    con_check_free(c);
    if (c->ev) {
        ev_close(c->ev);
        free(c->ev);
    }
    if (c->hold > 0)
        close(c->hold - 1);
    close_hosts(c);
    free(c->ranks);
    if (c->gdb_env)
        free(c->gdb_env[0]);
    free(c->gdb_env);
    free(c->nevents);
    free(c->logs);
    free(c->keep_spec);
    free(c->keep_sent);
    log_run_release(&c->run);
}

void con_summary(struct con *c, FILE *out)
{
    char cmd[512] = "", buf[256];
    uint64_t total = 0, lo = UINT64_MAX, hi = 0;
    double span = 0;
    int present = 0;
    struct rankset s, logged;
    if (rs_init(&s, c->nranks) < 0)
        return;
    if (rs_init(&logged, c->nranks) < 0) {
        rs_release(&s);
        return;
    }
    for (int i = 0; i < c->nlogs; i++) {
        const struct con_loginfo *li = &c->logs[i];
        rs_add(&logged, li->rank);
        if (!li->present)
            continue;
        uint64_t n = c->nevents[li->rank];
        present++;
        total += n;
        lo = n < lo ? n : lo;
        hi = n > hi ? n : hi;
        span = li->span_s > span ? li->span_s : span;
    }
    log_run_get(&c->run, "command", cmd, sizeof cmd);
    /* (what the run says is shown, never obeyed: term-escape.h) */
    char *dir = term_escape(c->run.dir, 0), *shown = term_escape(cmd, 0);
    fprintf(out, "run %s\n", dir ? dir : "?");
    if (cmd[0])
        fprintf(out, "  recorded: %s\n", shown ? shown : "?");
    free(dir);
    free(shown);
    fprintf(out, "  ranks:    %d (%d logged)\n", c->nranks, present);
    fprintf(out, "  events:   %llu in all, %llu to %llu per rank\n",
            (unsigned long long)total, (unsigned long long)(present ? lo : 0),
            (unsigned long long)hi);
    fprintf(out, "  duration: %.3f s\n", span);
    /* Hosts, each with its ranks. */
    char *done = calloc((size_t)c->nlogs + 1, 1);
    for (int i = 0; done && i < c->nlogs; i++) {
        const struct con_loginfo *li = &c->logs[i];
        if (done[i] || !li->present)
            continue;
        rs_clear(&s);
        for (int j = i; j < c->nlogs; j++)
            if (c->logs[j].present && strcmp(c->logs[j].host, li->host) == 0) {
                rs_add(&s, c->logs[j].rank);
                done[j] = 1;
            }
        char *host = term_escape(li->host, 0);
        fprintf(out, "  host:     %s (ranks %s)\n", host ? host : "?",
                rs_format(&s, buf, sizeof buf));
        free(host);
    }
    free(done);
    rs_clear(&s);
    for (int i = 0; i < c->nlogs; i++)
        if (c->logs[i].present && c->logs[i].complete)
            rs_add(&s, c->logs[i].rank);
    fprintf(out, "  complete: %s\n", rs_count(&s) == c->nranks
                                          ? "every rank"
                                          : rs_format(&s, buf, sizeof buf));
    for (int i = 0; i < c->nlogs; i++) {
        const struct con_loginfo *li = &c->logs[i];
        if (!li->present || !li->complete)
            fprintf(out, "  rank %d: %s\n", li->rank,
                    li->why[0] ? li->why : "not closed by MPI_Finalize");
    }
    /* The ranks without a log file, said once for all of them. */
    rs_clear(&s);
    for (int r = 0; r < c->nranks; r++)
        if (!rs_has(&logged, r))
            rs_add(&s, r);
    if (rs_count(&s))
        fprintf(out, "  not recorded: ranks %s (drdb record --ranks left "
                "them out)\n", rs_format(&s, buf, sizeof buf));
    rs_release(&s);
    rs_release(&logged);
}

struct ev_run *con_events(struct con *c)
{
    char err[512];
    if (!c->ev || ev_build(c->ev, err, sizeof err) < 0) {
        if (c->ev)
            fprintf(stderr, "drdb: %s\n", err);
        return NULL;
    }
    return c->ev;
}

int con_named_set(struct con *c, const char *name, struct rankset *out)
{
    static const struct {
        const char *name;
        int state; /* -1: any replayed rank */
    } dyn[] = {{"all", -1},
               {"stopped", CON_STOPPED},
               {"running", CON_RUNNING},
               {"exited", CON_EXITED},
               {"diverged", CON_DIVERGED},
               {"lost", CON_LOST}};
    for (size_t i = 0; i < sizeof dyn / sizeof dyn[0]; i++) {
        if (strcmp(name, dyn[i].name) != 0)
            continue;
        rs_clear(out);
        for (int r = 0; r < c->nranks; r++)
            if (dyn[i].state < 0 ? 1 : (int)c->ranks[r]->state == dyn[i].state)
                rs_add(out, r);
        return 0;
    }
    for (int i = 0; i < c->nsets; i++)
        if (strcmp(c->sets[i].name, name) == 0) {
            rs_copy(out, &c->sets[i].set);
            return 0;
        }
    return -1;
}

static int set_names(void *ud, const char *name, struct rankset *out)
{
    return con_named_set(ud, name, out);
}

int con_parse_set(struct con *c, const char *text, size_t len,
                  struct rankset *out)
{
    int at;
    const char *why;
    if (len && *text == '{' && con_brace_len(text) == len)
        return con_query_set(c, text, len, out);
    if (rs_parse(text, len, out, set_names, c, &at, &why) < 0) {
        rs_report(text, len, at, why);
        return -1;
    }
    return 0;
}

int con_parse_set_quiet(struct con *c, const char *text, size_t len,
                        struct rankset *out)
{
    int at;
    const char *why;
    return rs_parse(text, len, out, set_names, c, &at, &why);
}

int con_define_set(struct con *c, const char *name, const struct rankset *set)
{
    int i;
    for (i = 0; i < c->nsets && strcmp(c->sets[i].name, name); i++)
        ;
    if (i == c->nsets) {
        if (util_grow(&c->sets, &c->cap_sets, (size_t)c->nsets + 1,
                     sizeof *c->sets) < 0 ||
            rs_init(&c->sets[i].set, c->nranks) < 0)
            return -1;
        snprintf(c->sets[i].name, sizeof c->sets[i].name, "%s", name);
        c->nsets++;
    }
    rs_copy(&c->sets[i].set, set);
    return 0;
}

void con_ckpt_forget(struct con_rank *k)
{
    if (!k->ck)
        return;
    free(k->ck->ext);
    k->ck->ext = NULL;
    k->ck->next = k->ck->cap = 0;
    k->ck->hooks = 0;
    k->ck->at_exit = 0;
}
