/*
 * The console's session: the run, one GDB per replayed rank, the poll loop
 * that drives them, the ranks' program output, and the dispatch of command
 * lines to the command table (con-cmd.c).
 */
#include <ctype.h>
#include <stdint.h>
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ckpt-file.h"
#include "con.h"
#include "ev.h"
#include "fe.h"

const char *con_state_name(enum con_state s)
{
    static const char *const names[] = {"-",       "starting", "stopped",
                                        "running", "exited",   "diverged",
                                        "lost"};
    return names[s];
}

/* ---- the session ---------------------------------------------------------- */

int con_open(struct con *c, const char *dir, char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    c->merge = 1;
    c->prefix = 1;
    c->ckpt_interval = -1;
    c->max_groups = 8;
    if (!realpath(dir, c->dir)) {
        snprintf(err, errlen, "cannot open run '%s': %s", dir,
                 strerror(errno));
        return -1;
    }
    if (log_run_open(&c->run, c->dir, err, errlen) < 0)
        return -1;
    c->nranks = c->run.world_size;
    c->ranks = calloc((size_t)c->nranks, sizeof *c->ranks);
    c->nevents = calloc((size_t)c->nranks, sizeof *c->nevents);
    c->logs = calloc((size_t)c->nranks, sizeof *c->logs);
    if (!c->ranks || !c->nevents || !c->logs ||
        rs_init(&c->focus, c->nranks) < 0) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (int r = 0; r < c->nranks; r++) {
        c->ranks[r].rank = r;
        char path[PATH_MAX + 32];
        struct log_rank lr;
        char e[200];
        log_rank_path(path, sizeof path, c->dir, r);
        if (log_rank_open(&lr, path, e, sizeof e) == 0) {
            struct con_loginfo *li = &c->logs[r];
            c->nevents[r] = lr.nevents;
            li->present = 1;
            li->complete = (lr.hdr.flags & LOG_HDR_COMPLETE) &&
                           !lr.stop_reason[0];
            snprintf(li->host, sizeof li->host, "%s", lr.hdr.host);
            li->span_s = lr.nevents ? (double)lr.enter[lr.nevents - 1] / 1e9
                                    : 0;
            snprintf(li->why, sizeof li->why, "%s", lr.stop_reason);
            log_rank_release(&lr);
        } else {
            snprintf(c->logs[r].why, sizeof c->logs[r].why, "%s", e);
        }
    }
    if (!log_run_get(&c->run, "exe", c->exe, sizeof c->exe) ||
        !log_run_get(&c->run, "argv", c->args, sizeof c->args)) {
        snprintf(err, errlen, "'%s' does not say which program ran", dir);
        return -1;
    }
    if (!log_run_get(&c->run, "cwd", c->cwd, sizeof c->cwd))
        c->cwd[0] = '\0';
    if (fe_find_stub(c->stub, sizeof c->stub) < 0) {
        snprintf(err, errlen, "cannot find the replay stub (libmpich.so.12 "
                 "of drdb); set DRDB_REPLAY_LIB_DIR to its directory");
        return -1;
    }
    return 0;
}

void con_close(struct con *c)
{
    con_ckpt_close(c);
    for (int r = 0; c->ranks && r < c->nranks; r++)
        if (c->ranks[r].gdb) {
            mi_gdb_free(c->ranks[r].gdb);
            c->ranks[r].gdb = NULL;
        }
    for (int i = 0; i < c->nsets; i++)
        rs_release(&c->sets[i].set);
    rs_release(&c->focus);
    for (int i = 0; i < c->nlast; i++)
        free(c->last[i].text);
    free(c->last);
    if (c->ev) {
        ev_close(c->ev);
        free(c->ev);
    }
    free(c->ranks);
    free(c->nevents);
    free(c->logs);
    log_run_release(&c->run);
}

void con_summary(struct con *c, FILE *out)
{
    char cmd[512] = "", buf[256];
    uint64_t total = 0, lo = UINT64_MAX, hi = 0;
    double span = 0;
    int present = 0;
    struct rankset s;
    if (rs_init(&s, c->nranks) < 0)
        return;
    for (int r = 0; r < c->nranks; r++) {
        if (!c->logs[r].present)
            continue;
        present++;
        total += c->nevents[r];
        lo = c->nevents[r] < lo ? c->nevents[r] : lo;
        hi = c->nevents[r] > hi ? c->nevents[r] : hi;
        span = c->logs[r].span_s > span ? c->logs[r].span_s : span;
    }
    log_run_get(&c->run, "command", cmd, sizeof cmd);
    fprintf(out, "run %s\n", c->dir);
    if (cmd[0])
        fprintf(out, "  recorded: %s\n", cmd);
    fprintf(out, "  ranks:    %d (%d logged)\n", c->nranks, present);
    fprintf(out, "  events:   %llu in all, %llu to %llu per rank\n",
            (unsigned long long)total, (unsigned long long)(present ? lo : 0),
            (unsigned long long)hi);
    fprintf(out, "  duration: %.3f s\n", span);
    /* Hosts, each with its ranks. */
    char *done = calloc((size_t)c->nranks, 1);
    for (int r = 0; done && r < c->nranks; r++) {
        if (done[r] || !c->logs[r].present)
            continue;
        rs_clear(&s);
        for (int q = r; q < c->nranks; q++)
            if (c->logs[q].present &&
                strcmp(c->logs[q].host, c->logs[r].host) == 0) {
                rs_add(&s, q);
                done[q] = 1;
            }
        fprintf(out, "  host:     %s (ranks %s)\n", c->logs[r].host,
                rs_format(&s, buf, sizeof buf));
    }
    free(done);
    rs_clear(&s);
    for (int r = 0; r < c->nranks; r++)
        if (c->logs[r].present && c->logs[r].complete)
            rs_add(&s, r);
    fprintf(out, "  complete: %s\n", rs_count(&s) == c->nranks
                                          ? "every rank"
                                          : rs_format(&s, buf, sizeof buf));
    for (int r = 0; r < c->nranks; r++)
        if (!c->logs[r].present || !c->logs[r].complete)
            fprintf(out, "  rank %d: %s\n", r,
                    c->logs[r].why[0] ? c->logs[r].why
                                      : "not closed by MPI_Finalize");
    rs_release(&s);
}

struct ev_run *con_events(struct con *c)
{
    char err[512];
    if (c->ev)
        return c->ev;
    c->ev = calloc(1, sizeof *c->ev);
    if (!c->ev)
        return NULL;
    if (ev_open(c->ev, c->dir, err, sizeof err) < 0 ||
        ev_build(c->ev, err, sizeof err) < 0) {
        fprintf(stderr, "drdb: %s\n", err);
        ev_close(c->ev);
        free(c->ev);
        c->ev = NULL;
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
            if (dyn[i].state < 0 ? 1 : (int)c->ranks[r].state == dyn[i].state)
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

/* ---- program output ------------------------------------------------------ */

volatile int con_sigint;

static void out_begin(struct con *c)
{
    if (c->out_begin)
        c->out_begin();
}

static void out_end(struct con *c)
{
    fflush(stdout);
    if (c->out_end)
        c->out_end();
}

/*
 * Program output: the lines that arrive in one round of the poll loop are
 * printed together at its end, identical lines of several ranks collapsed
 * into one tagged with their set ("[0-3] iteration 7"); each rank's own
 * lines keep their order.
 */
struct out_line {
    int rank, occ; /* occ: how many equal lines this rank had before */
    char *text;
};
static struct out_line *pending;
static int npending, cap_pending;

static void out_add(struct con_rank *k, const char *text, size_t len)
{
    if (npending == cap_pending) {
        int cap = cap_pending ? 2 * cap_pending : 64;
        struct out_line *np = realloc(pending, (size_t)cap * sizeof *np);
        if (!np)
            return;
        pending = np;
        cap_pending = cap;
    }
    struct out_line *l = &pending[npending];
    l->rank = k->rank;
    l->text = strndup(text, len);
    l->occ = 0;
    for (int i = 0; i < npending; i++)
        if (pending[i].rank == k->rank && strcmp(pending[i].text, l->text) == 0)
            l->occ++;
    if (l->text)
        npending++;
}

static void out_flush(struct con *c)
{
    struct rankset s;
    char buf[512];
    if (!npending || rs_init(&s, c->nranks) < 0)
        return;
    out_begin(c);
    for (int i = 0; i < npending; i++) {
        if (!pending[i].text)
            continue;
        rs_clear(&s);
        rs_add(&s, pending[i].rank);
        for (int j = i + 1; j < npending; j++)
            if (pending[j].text && pending[j].occ == pending[i].occ &&
                strcmp(pending[j].text, pending[i].text) == 0 &&
                !rs_has(&s, pending[j].rank)) {
                rs_add(&s, pending[j].rank);
                free(pending[j].text);
                pending[j].text = NULL;
            }
        if (c->prefix)
            printf("[%s] ", rs_format(&s, buf, sizeof buf));
        printf("%s\n", pending[i].text);
        free(pending[i].text);
        pending[i].text = NULL;
    }
    npending = 0;
    rs_release(&s);
    out_end(c);
}

/* Takes rank R's complete output lines (printed by out_flush). */
static void pty_drain(struct con *c, struct con_rank *k)
{
    int fd = k->gdb ? mi_gdb_pty_fd(k->gdb) : -1;
    if (fd < 0)
        return;
    for (;;) {
        ssize_t n = read(fd, k->outbuf + k->outlen,
                         sizeof k->outbuf - 1 - k->outlen);
        if (n <= 0)
            break;
        k->outlen += (size_t)n;
        char *start = k->outbuf, *nl;
        while ((nl = memchr(start, '\n', k->outlen -
                                             (size_t)(start - k->outbuf)))) {
            size_t len = (size_t)(nl - start);
            if (len && start[len - 1] == '\r')
                len--;
            out_add(k, start, len);
            start = nl + 1;
        }
        size_t rest = k->outlen - (size_t)(start - k->outbuf);
        memmove(k->outbuf, start, rest);
        k->outlen = rest;
        if (k->outlen == sizeof k->outbuf - 1) { /* a very long line */
            out_add(k, k->outbuf, k->outlen);
            k->outlen = 0;
        }
    }
}

/* ---- GDB events ------------------------------------------------------------ */

static void set_where(struct con_rank *k, const struct mi_record *rec)
{
    const char *func = mi_get_str(rec, "frame.func");
    const char *file = mi_get_str(rec, "frame.file");
    const char *line = mi_get_str(rec, "frame.line");
    if (file && line)
        snprintf(k->where, sizeof k->where, "%s () at %s:%s",
                 func ? func : "??", file, line);
    else
        snprintf(k->where, sizeof k->where, "%s ()", func ? func : "??");
}

static void on_async(struct mi_gdb *g, const struct mi_record *rec, void *ud)
{
    struct con_rank *k = ud;
    (void)g;
    if (rec->kind != MI_RECORD_EXEC)
        return;
    if (strcmp(rec->klass, "running") == 0) {
        k->state = CON_RUNNING;
        return;
    }
    if (strcmp(rec->klass, "stopped") != 0)
        return;
    k->changed = 1;
    const char *reason = mi_get_str(rec, "reason");
    reason = reason ? reason : "";
    if (strncmp(reason, "exited", 6) == 0) {
        /* GDB prints the exit code in octal ("01"). */
        const char *s = mi_get_str(rec, "exit-code");
        k->exit_code = s ? (int)strtol(s, NULL, 8) : 0;
        k->state = CON_EXITED;
        snprintf(k->reason, sizeof k->reason, "exited with status %d",
                 k->exit_code);
        k->where[0] = '\0';
        return;
    }
    if (strcmp(reason, "signal-received") == 0 &&
        mi_get_str(rec, "signal-name") &&
        strcmp(mi_get_str(rec, "signal-name"), "SIGINT") != 0 &&
        strcmp(mi_get_str(rec, "signal-name"), "0") != 0)
        snprintf(k->reason, sizeof k->reason, "signal %s",
                 mi_get_str(rec, "signal-name"));
    else
        snprintf(k->reason, sizeof k->reason, "%s", reason);
    set_where(k, rec);
    const char *func = mi_get_str(rec, "frame.func");
    k->state = func && strcmp(func, "drdb_divergence_hook") == 0
                   ? CON_DIVERGED
                   : CON_STOPPED;
    k->at_event = func && strcmp(func, "drdb_stop_hook") == 0;
    if (func && strcmp(func, "drdb_ckpt_segv_hook") == 0)
        snprintf(k->reason, sizeof k->reason, "signal SIGSEGV");
    const char *sc = mi_get_str(rec, "syscall-name");
    if (strcmp(reason, "syscall-entry") == 0 && sc &&
        strcmp(sc, "exit_group") == 0)
        snprintf(k->reason, sizeof k->reason, "about to exit (its "
                 "checkpoints can still be restored; continue ends it)");
}

/* A reply nobody reads: a failure marks the rank. */
static void on_setup_reply(struct mi_gdb *g, const struct mi_reply *r,
                           void *ud)
{
    struct con_rank *k = ud;
    (void)g;
    if (r->status != 0 && k->state == CON_STARTING) {
        snprintf(k->reason, sizeof k->reason, "%s: %s", r->command,
                 r->message ? r->message : mi_strerror(r->status));
        k->state = CON_LOST;
    }
}

/* ---- the poll loop ---------------------------------------------------------- */

static int busy(const struct con_rank *k, int want_stop)
{
    if (!k->gdb || k->state == CON_LOST)
        return 0;
    if (mi_gdb_pending(k->gdb))
        return 1;
    return want_stop && (k->state == CON_RUNNING || k->state == CON_STARTING);
}

static void lose(struct con *c, struct con_rank *k, const char *why)
{
    pty_drain(c, k);
    out_flush(c);
    k->state = CON_LOST;
    snprintf(k->reason, sizeof k->reason, "%s", why);
    out_begin(c);
    fprintf(stderr, "drdb: rank %d is lost: %s; the other ranks go on\n",
            k->rank, k->reason);
    out_end(c);
}

/* One round of the loop: polls every GDB and program output (and EXTRA if
 * >= 0) for up to WAIT_MS, processes what came. 1 when EXTRA is readable. */
static int poll_round(struct con *c, int extra, int wait_ms)
{
    size_t cap = (size_t)c->nranks * (MI_GDB_MAX_POLLFDS + 1) + 1;
    struct pollfd *fds = malloc(cap * sizeof *fds);
    int *owner = malloc(cap * sizeof *owner), n = 0, ready = 0;
    if (!fds || !owner) {
        free(fds);
        free(owner);
        return 0;
    }
    for (int r = 0; r < c->nranks; r++) {
        struct con_rank *k = &c->ranks[r];
        if (!k->gdb || k->state == CON_LOST)
            continue;
        int m = mi_gdb_pollfds(k->gdb, fds + n, MI_GDB_MAX_POLLFDS);
        for (int i = 0; i < m; i++)
            owner[n + i] = r;
        n += m;
        if (mi_gdb_pty_fd(k->gdb) >= 0) {
            fds[n] = (struct pollfd){mi_gdb_pty_fd(k->gdb), POLLIN, 0};
            owner[n++] = -1 - r;
        }
    }
    if (extra >= 0) {
        fds[n] = (struct pollfd){extra, POLLIN, 0};
        owner[n++] = INT32_MIN;
    }
    if (poll(fds, (nfds_t)n, wait_ms) < 0) {
        free(fds);
        free(owner);
        return 0;
    }
    /* Each GDB processes its own entries (they are contiguous). */
    for (int i = 0; i < n;) {
        if (owner[i] == INT32_MIN) {
            ready = fds[i].revents != 0;
            i++;
            continue;
        }
        if (owner[i] < 0) {
            if (fds[i].revents)
                pty_drain(c, &c->ranks[-1 - owner[i]]);
            i++;
            continue;
        }
        int r = owner[i], j = i;
        while (j < n && owner[j] == r)
            j++;
        struct con_rank *k = &c->ranks[r];
        if (mi_gdb_process(k->gdb, fds + i, j - i) == MI_EEXITED &&
            k->state != CON_LOST) {
            char why[300];
            snprintf(why, sizeof why, "its GDB exited (%s)",
                     mi_gdb_error(k->gdb));
            lose(c, k, why);
        }
        i = j;
    }
    out_flush(c);
    free(fds);
    free(owner);
    return ready;
}

int con_idle(struct con *c, int fd, int timeout_ms)
{
    int ready = poll_round(c, fd, timeout_ms);
    /* Ranks that stopped in the background ("continue &"): say where. */
    struct rankset s;
    char buf[256];
    if (rs_init(&s, c->nranks) < 0)
        return ready;
    for (int r = 0; r < c->nranks; r++)
        if (c->ranks[r].changed) {
            c->ranks[r].changed = 0;
            rs_add(&s, r);
        }
    for (int r = 0; rs_count(&s) && r < c->nranks; r++) {
        struct con_rank *k = &c->ranks[r];
        if (!rs_has(&s, r))
            continue;
        out_begin(c);
        printf("[%d] %s: %s%s%s\n", r, con_state_name(k->state),
               k->state == CON_EXITED ? "" : k->where,
               k->state == CON_EXITED || !k->reason[0] ? "" : ", ",
               k->reason);
        out_end(c);
    }
    (void)buf;
    rs_release(&s);
    return ready;
}

int con_wait(struct con *c, const struct rankset *set, int want_stop)
{
    /* The command reports where its ranks stop. */
    for (int r = 0; want_stop && r < c->nranks; r++)
        if (rs_has(set, r))
            c->ranks[r].changed = 0;
    int64_t deadline = c->timeout_ms > 0 ? mi_now_ms() + c->timeout_ms : -1;
    for (;;) {
        int any = 0;
        for (int r = 0; r < c->nranks && !any; r++)
            any = rs_has(set, r) && busy(&c->ranks[r], want_stop);
        if (!any)
            break;
        if (con_sigint) {
            /* Ctrl-C: pause the running ranks (never drdb itself). */
            con_sigint = 0;
            for (int r = 0; r < c->nranks; r++)
                if (rs_has(set, r) && c->ranks[r].state == CON_RUNNING)
                    mi_gdb_interrupt(c->ranks[r].gdb);
        }
        int wait = 200;
        if (deadline >= 0) {
            int64_t left = deadline - mi_now_ms();
            if (left <= 0) {
                /* A GDB that does not answer is hung: its rank is lost. A
                 * program that runs on is left running. */
                for (int r = 0; r < c->nranks; r++) {
                    struct con_rank *k = &c->ranks[r];
                    if (rs_has(set, r) && k->gdb && k->state != CON_LOST &&
                        mi_gdb_pending(k->gdb)) {
                        char why[128];
                        snprintf(why, sizeof why, "its GDB did not answer "
                                 "within %d ms", c->timeout_ms);
                        lose(c, k, why);
                        mi_gdb_free(k->gdb);
                        k->gdb = NULL;
                    }
                }
                return -1;
            }
            if (left < wait)
                wait = (int)left;
        }
        poll_round(c, -1, wait);
    }
    for (int r = 0; r < c->nranks; r++) {
        struct con_rank *k = &c->ranks[r];
        if (k->gdb)
            pty_drain(c, k);
        if (want_stop && rs_has(set, r))
            k->changed = 0;
        if (k->hung && k->gdb) {
            /* Lost to a timeout inside a reply: end its GDB now. */
            fprintf(stderr, "drdb: rank %d is lost: %s; the other ranks go "
                    "on\n", r, k->reason);
            mi_gdb_free(k->gdb);
            k->gdb = NULL;
            k->hung = 0;
        }
    }
    out_flush(c);
    return 0;
}

/* ---- starting and dropping ranks ---------------------------------------- */

static void send_setup(struct con_rank *k, const char *cmd)
{
    if (mi_gdb_send(k->gdb, cmd, 0, on_setup_reply, k) < 0) {
        k->state = CON_LOST;
        snprintf(k->reason, sizeof k->reason, "its GDB is gone");
    }
}

static void send_console(struct con_rank *k, const char *fmt, const char *a,
                         const char *b)
{
    char cli[8192];
    struct mi_cmd mc;
    snprintf(cli, sizeof cli, fmt, a, b);
    mi_cmd_init(&mc);
    mi_cmd_console(&mc, cli);
    if (mi_cmd_str(&mc))
        send_setup(k, mi_cmd_str(&mc));
    mi_cmd_release(&mc);
}

/* GDB's index cache ($XDG_CACHE_HOME/drdb/gdb-index): the ranks' GDBs read
 * the same executable and libraries; with the index of the first, the
 * others load their symbols much faster. "" when it cannot be made. */
static const char *index_cache(void)
{
    static char dir[4096];
    static int done;
    if (done)
        return dir;
    done = 1;
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (xdg && *xdg)
        snprintf(dir, sizeof dir, "%s/drdb/gdb-index", xdg);
    else if (home && *home)
        snprintf(dir, sizeof dir, "%s/.cache/drdb/gdb-index", home);
    else
        return dir;
    for (char *p = strchr(dir + 1, '/'); p; p = strchr(p + 1, '/')) {
        *p = '\0';
        mkdir(dir, 0700);
        *p = '/';
    }
    if (mkdir(dir, 0700) < 0 && errno != EEXIST)
        dir[0] = '\0';
    return dir;
}

/* Will the checkpoint library track writes with SIGSEGV (whose traffic
 * GDB must let pass)? */
static int mprotect_backend(void)
{
    const char *b = getenv("DRDB_CKPT_BACKEND");
    char why[256];
    if (b && *b)
        return strcmp(b, "mprotect") == 0;
    return !ckpt_uffd_available(why, sizeof why);
}

/* Queues everything that takes rank K from a fresh GDB to main. */
static void setup_rank(struct con *c, struct con_rank *k)
{
    char rank[16], lib[4200];
    struct mi_cmd mc;
    snprintf(rank, sizeof rank, "%d", k->rank);
    snprintf(lib, sizeof lib, "%s/libmpich.so.12", c->stub);
    if (index_cache()[0]) {
        send_console(k, "set index-cache directory %s%s", index_cache(), "");
        send_setup(k, "-gdb-set index-cache enabled on");
    }
    mi_cmd_init(&mc);
    mi_cmd_op(&mc, "-file-exec-and-symbols");
    mi_cmd_arg(&mc, c->exe);
    send_setup(k, mi_cmd_str(&mc));
    mi_cmd_release(&mc);
    /* The recorded arguments (0x1f-separated, argv[0] first) in a CLI
     * "set args". Plain ones go as they are and no shell starts the
     * program (one process less per rank); otherwise GDB's /bin/sh splits
     * them, each single-quoted (MI's -exec-arguments would keep quotes). */
    int plain = 1;
    for (const char *q = strchr(c->args, '\x1f'); q && *q; q++)
        if (*q != '\x1f' && !isalnum((unsigned char)*q) &&
            !strchr("_./:=,+-@%", *q))
            plain = 0;
    size_t cap = 16 + 4 * strlen(c->args);
    char *cli = malloc(cap), *o = cli;
    if (!cli)
        return;
    o += sprintf(o, "set args");
    for (const char *p = strchr(c->args, '\x1f'); p;
         p = strchr(p + 1, '\x1f')) {
        *o++ = ' ';
        if (!plain)
            *o++ = '\'';
        for (const char *q = p + 1; *q && *q != '\x1f'; q++) {
            if (*q == '\'') {
                memcpy(o, "'\\''", 4);
                o += 4;
            } else {
                *o++ = *q;
            }
        }
        if (!plain)
            *o++ = '\'';
    }
    *o = '\0';
    if (plain)
        send_setup(k, "-gdb-set startup-with-shell off");
    send_console(k, "%s%s", cli, "");
    free(cli);
    if (c->cwd[0]) {
        struct stat st;
        if (stat(c->cwd, &st) == 0 && S_ISDIR(st.st_mode)) {
            mi_cmd_init(&mc);
            mi_cmd_op(&mc, "-environment-cd");
            mi_cmd_arg(&mc, c->cwd);
            send_setup(k, mi_cmd_str(&mc));
            mi_cmd_release(&mc);
        }
    }
    send_console(k, "set environment DRDB_REPLAY_DIR=%s%s", c->dir, "");
    send_console(k, "set environment DRDB_REPLAY_RANK=%s%s", rank, "");
    const char *ld = getenv("LD_LIBRARY_PATH");
    char ldp[8192];
    snprintf(ldp, sizeof ldp, "%s%s%s", c->stub, ld && *ld ? ":" : "",
             ld && *ld ? ld : "");
    send_console(k, "set environment LD_LIBRARY_PATH=%s%s", ldp, "");
    send_console(k, "set environment LD_PRELOAD=%s%s", lib, "");
    send_setup(k, "-break-insert -t main");
    send_setup(k, "-break-insert -f drdb_divergence_hook");
    /* goto: the stub calls drdb_stop_hook() only at drdb_stop_event. */
    send_setup(k, "-break-insert -f drdb_stop_hook");
    /* checkpoints (con-ckpt.c): the library in the stub is started (the
     * breakpoints on its hooks come with the first checkpoint command) */
    send_console(k, "set environment DRDB_CKPT=%s%s",
                 getenv("DRDB_CKPT") ? getenv("DRDB_CKPT") : "on", "");
    char num[64];
    if (c->ckpt_interval > 0) {
        snprintf(num, sizeof num, "%g", c->ckpt_interval);
        send_console(k, "set environment DRDB_CKPT_INTERVAL=%s%s", num, "");
    }
    if (c->ckpt_every > 0) {
        snprintf(num, sizeof num, "%lld", c->ckpt_every);
        send_console(k, "set environment DRDB_CKPT_EVERY=%s%s", num, "");
    }
    /* with checkpoints, the rank stops before it exits (con-ckpt.c) */
    if (c->ckpt_every > 0 || c->ckpt_interval > 0)
        send_console(k, "catch syscall exit_group%s%s", "", "");
    if (mprotect_backend()) {
        send_console(k, "handle SIGSEGV nostop noprint pass%s%s", "", "");
        send_setup(k, "-break-insert -f drdb_ckpt_segv_hook");
    }
    send_setup(k, "-exec-run");
}

int con_replay(struct con *c, const struct rankset *set)
{
    int todo = 0, started = 0, failed = 0;
    int64_t t0 = mi_now_ms();
    struct rankset now;
    if (rs_init(&now, c->nranks) < 0)
        return -1;
    for (int r = 0; r < c->nranks; r++)
        if (rs_has(set, r) && !c->ranks[r].gdb)
            todo++;
    for (int r = 0; r < c->nranks; r++) {
        struct con_rank *k = &c->ranks[r];
        if (!rs_has(set, r) || k->gdb)
            continue;
        /* The first rank alone first: its GDB fills the index cache that
         * the others' then use. */
        if (started == 1 && todo > 4)
            con_wait(c, &now, 1);
        char path[PATH_MAX + 32], msg[256];
        log_rank_path(path, sizeof path, c->dir, r);
        if (access(path, R_OK) != 0) {
            fprintf(stderr, "drdb: rank %d was not recorded: no %s\n", r,
                    path);
            failed++;
            continue;
        }
        struct mi_gdb_options opt = {0};
        opt.on_async = on_async;
        opt.ud = k;
        if (mi_gdb_start(&k->gdb, &opt, msg, sizeof msg) < 0) {
            fprintf(stderr, "drdb: rank %d: cannot start gdb: %s\n", r, msg);
            k->gdb = NULL;
            failed++;
            continue;
        }
        k->state = CON_STARTING;
        k->hung = 0;
        k->reason[0] = k->where[0] = '\0';
        k->outlen = 0;
        setup_rank(c, k);
        rs_add(&now, r);
        started++;
        if (todo >= 16 && (started % 16 == 0 || started == todo))
            fprintf(stderr, "drdb: started %d of %d ranks\n", started, todo);
    }
    if (rs_count(&now)) {
        if (todo >= 16)
            fprintf(stderr, "drdb: running %d ranks to main\n",
                    rs_count(&now));
        if (con_wait(c, &now, 1) < 0)
            fprintf(stderr, "drdb: some ranks did not reach main in time\n");
        if (todo >= 16 || c->timing)
            fprintf(stderr, "drdb: %d ranks started in %.2f s\n",
                    rs_count(&now), (double)(mi_now_ms() - t0) / 1000);
    }
    for (int r = 0; r < c->nranks; r++) {
        struct con_rank *k = &c->ranks[r];
        if (!rs_has(&now, r) || k->state == CON_STOPPED)
            continue;
        fprintf(stderr, "drdb: rank %d did not reach main: %s%s%s\n", r,
                con_state_name(k->state), k->reason[0] ? ": " : "",
                k->reason);
        failed++;
    }
    rs_release(&now);
    return failed ? -1 : 0;
}

void con_drop(struct con *c, const struct rankset *set)
{
    for (int r = 0; r < c->nranks; r++) {
        struct con_rank *k = &c->ranks[r];
        if (!rs_has(set, r) || !k->gdb)
            continue;
        mi_gdb_free(k->gdb);
        k->gdb = NULL;
        con_ckpt_forget(k);
        k->state = CON_OFF;
        k->where[0] = k->reason[0] = '\0';
    }
}

/* ---- command lines -------------------------------------------------------- */

int con_execute(struct con *c, const char *line)
{
    while (isspace((unsigned char)*line))
        line++;
    if (!*line || *line == '#')
        return 0;
    const char *whole = line;
    struct rankset set;
    if (rs_init(&set, c->nranks) < 0)
        return -1;
    rs_copy(&set, &c->focus);
    if (*line == '@') {
        const char *s = line + 1, *e = s;
        while (*e && !isspace((unsigned char)*e))
            e++;
        int at;
        const char *why;
        if (rs_parse(c, s, (size_t)(e - s), &set, &at, &why) < 0) {
            rs_report(s, (size_t)(e - s), at, why);
            rs_release(&set);
            return -1;
        }
        line = e;
        while (isspace((unsigned char)*line))
            line++;
    }
    const char *e = line;
    while (*e && !isspace((unsigned char)*e))
        e++;
    const struct con_cmd *cmd = con_cmd_find(line, (size_t)(e - line));
    if (!cmd) {
        rs_release(&set);
        return -1;
    }
    while (isspace((unsigned char)*e))
        e++;
    int rc = 0;
    if (cmd->flags & CON_NEEDS_RANKS) {
        /* Only replayed ranks take commands; say which are left out. */
        struct rankset off;
        char buf[256];
        rs_init(&off, c->nranks);
        for (int r = 0; r < c->nranks; r++)
            if (rs_has(&set, r) &&
                (!c->ranks[r].gdb || c->ranks[r].state == CON_LOST ||
                 ((cmd->flags & CON_NEEDS_STOPPED) &&
                  c->ranks[r].state != CON_STOPPED &&
                  c->ranks[r].state != CON_DIVERGED))) {
                rs_add(&off, r);
                rs_del(&set, r);
            }
        if (rs_count(&off))
            fprintf(stderr, "drdb: [%s] %s\n", rs_format(&off, buf, sizeof buf),
                    cmd->flags & CON_NEEDS_STOPPED
                        ? "not stopped (or not replayed): left out"
                        : "not replayed: left out ('replay @SET' starts ranks)");
        rs_release(&off);
        if (!rs_count(&set)) {
            fprintf(stderr, "drdb: '%s': no rank to run it on\n", cmd->name);
            rs_release(&set);
            return -1;
        }
    }
    if (c->json) {
        c->json_buf = NULL;
        c->json_len = 0;
        c->json_f = open_memstream(&c->json_buf, &c->json_len);
    }
    int64_t t0 = mi_now_ms();
    rc = cmd->run(c, &set, e);
    if (c->timing)
        fprintf(stderr, "drdb: '%s' took %lld ms\n", whole,
                (long long)(mi_now_ms() - t0));
    if (c->json && c->json_f) {
        fclose(c->json_f);
        c->json_f = NULL;
        char buf[256];
        printf("{\"command\": ");
        con_json_str(stdout, whole);
        printf(", \"ranks\": \"%s\", \"ok\": %s, \"results\": [%s]}\n",
               rs_format(&set, buf, sizeof buf), rc < 0 ? "false" : "true",
               c->json_buf ? c->json_buf : "");
        fflush(stdout);
        free(c->json_buf);
        c->json_buf = NULL;
    }
    rs_release(&set);
    return rc;
}

void con_json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else if (ch == '\n')
            fputs("\\n", f);
        else if (ch == '\t')
            fputs("\\t", f);
        else if (ch < 0x20)
            fprintf(f, "\\u%04x", ch);
        else
            fputc(ch, f);
    }
    fputc('"', f);
}

int con_source(struct con *c, const char *file)
{
    FILE *f = strcmp(file, "-") == 0 ? stdin : fopen(file, "r");
    char *line = NULL;
    size_t cap = 0;
    int lineno = 0, rc = 0;
    if (!f) {
        fprintf(stderr, "drdb: cannot read '%s': %s\n", file,
                strerror(errno));
        return -1;
    }
    while (!c->quit && getline(&line, &cap, f) > 0) {
        lineno++;
        line[strcspn(line, "\n")] = '\0';
        const char *p = line + strspn(line, " \t");
        if (!*p || *p == '#')
            continue;
        if (!c->json) {
            printf("(drdb) %s\n", p);
            fflush(stdout);
        }
        if (con_execute(c, p) < 0) {
            fprintf(stderr, "drdb: %s:%d: '%s' failed\n", file, lineno, p);
            rc = -1;
            if (!c->keep_going)
                break;
        }
    }
    free(line);
    if (f != stdin)
        fclose(f);
    return rc;
}
