/*
 * The replay stub's runtime: opening the rank's log, matching each MPI call
 * with the next event (rpl_begin, rpl_field, rpl_end), stopping the replay
 * (rpl_fail), the error handlers rpl_end runs, and the debugger hooks
 * (drdb-hooks.h; the checkpoint ones are in rpl-ckpt.c).
 */
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log-codec.h"
#include "rpl.h"
#include "util.h"

/* ---- the debugger hooks (drdb-hooks.h) --------------------------------- */

volatile uint64_t drdb_event;
volatile uint64_t drdb_nevents;
volatile int drdb_current_fn;
volatile int drdb_rank = -1;
volatile uint64_t drdb_stop_event = UINT64_MAX;
char drdb_divergence_msg[2048];
volatile int drdb_fail_code;

/* Empty, but never inlined or removed: breakpoints go here. The asm keeps
 * GCC from treating calls to them as side-effect free. */
__attribute__((noinline, used)) void drdb_stop_hook(void)
{
    __asm__ volatile("" ::: "memory");
}
__attribute__((noinline, used)) void drdb_divergence_hook(void)
{
    __asm__ volatile("" ::: "memory");
}

/* ---- the log ------------------------------------------------------------ */

enum rpl_state rpl_state = RPL_PRE_INIT;
static struct log_rank rlog;
static int opened;
static uint64_t rep_used; /* calls already replayed of a REPEAT event */
int rpl_world_size = 1;

static const char *fname(int fn)
{
    return log_func_name(fn);
}

/* Where the program called MPI from: the first frame outside the stub (and
 * outside MPICH's Fortran bindings). "" when unknown. */
static void caller(char *buf, size_t len)
{
    void *pcs[32];
    Dl_info self, di;
    int n = backtrace(pcs, 32);
    buf[0] = '\0';
    if (!dladdr((void *)caller, &self))
        return;
    for (int i = 1; i < n; i++) {
        if (!dladdr(pcs[i], &di) || !di.dli_fname)
            continue;
        if (strcmp(di.dli_fname, self.dli_fname) == 0 ||
            strstr(di.dli_fname, "libmpichfort"))
            continue;
        /* The return address is after the call: -1 lands inside it. */
        uintptr_t off = (uintptr_t)pcs[i] - 1 - (uintptr_t)di.dli_fbase;
        snprintf(buf, len, "%s+%#lx%s%s%s", di.dli_fname, (unsigned long)off,
                 di.dli_sname ? " (" : "", di.dli_sname ? di.dli_sname : "",
                 di.dli_sname ? ")" : "");
        return;
    }
}

void rpl_fail(const struct rpl_call *c, int code, const char *fmt, ...)
{
    char msg[1536], where[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    caller(where, sizeof where);
    snprintf(drdb_divergence_msg, sizeof drdb_divergence_msg,
             "rank %d: event %" PRIu64 "%s%s%s: %s", drdb_rank,
             c ? c->ev.index : drdb_event, c ? " (" : "",
             c ? fname(c->fn) : "", c ? ")" : "", msg);
    fflush(NULL);
    fprintf(stderr, "drdb-replay: %s\n", drdb_divergence_msg);
    if (where[0])
        fprintf(stderr, "drdb-replay: called from %s\n", where);
    /* drdb replay reads the report back to name the source line. */
    const char *rep = getenv(DRDB_ENV_REPLAY_REPORT);
    const char *slash = rep ? strrchr(rep, '/') : NULL;
    if (rep && *rep && slash) {
        /* A new file in the directory drdb replay made for it (0700):
         * never through a name planted there. */
        char dir[PATH_MAX];
        snprintf(dir, sizeof dir, "%.*s", slash == rep ? 1 : (int)(slash - rep),
                 rep);
        int dfd = util_dir_open(AT_FDCWD, dir, 1);
        int fd = dfd < 0 ? -1 : util_file_create(dfd, slash + 1, O_WRONLY);
        if (dfd >= 0)
            close(dfd);
        if (fd >= 0) {
            dprintf(fd, DRDB_REPORT_STATUS "%d\n" DRDB_REPORT_MESSAGE "%s\n"
                    DRDB_REPORT_CALLER "%s\n", code, drdb_divergence_msg, where);
            close(fd);
        }
    }
    drdb_fail_code = code;
    drdb_divergence_hook();
    _exit(code);
}

/* Opens the log named by the environment `drdb replay` sets. */
static void rpl_open(void)
{
    char err[512], path[PATH_MAX];
    const char *dir = getenv(DRDB_ENV_REPLAY_DIR);
    const char *rank = getenv(DRDB_ENV_REPLAY_RANK);
    opened = 1;
    if (!dir || !*dir || !rank || !*rank)
        rpl_fail(NULL, RPL_EXIT_SETUP,
                 "this is drdb's replay stub, not MPI: DRDB_REPLAY_DIR and "
                 "DRDB_REPLAY_RANK are not set; run the program with "
                 "'drdb replay --rank R RUNDIR'");
    char *end;
    long r = strtol(rank, &end, 10);
    if (*end || r < 0 || r > INT_MAX)
        rpl_fail(NULL, RPL_EXIT_SETUP, "DRDB_REPLAY_RANK '%s' is not a rank",
                 rank);
    drdb_rank = (int)r;
    log_path(path, sizeof path, dir, (int)r);
    if (log_rank_open(&rlog, path, err, sizeof err) < 0)
        rpl_fail(NULL, RPL_EXIT_SETUP, "%s", err);
    if (rlog.hdr.rank != (int32_t)r)
        rpl_fail(NULL, RPL_EXIT_SETUP, "'%s' is the log of rank %d, not %ld",
                 path, rlog.hdr.rank, r);
    rpl_world_size = rlog.hdr.world_size > 0 ? rlog.hdr.world_size : 1;
    drdb_nevents = rlog.nevents;
    if (rlog.threads) {
        /* A checkpoint restores the calling thread's registers alone. */
        if (rpl_ckpt_on)
            fprintf(stderr, "drdb-replay: rank %d: no checkpoints: the rank "
                    "was recorded with several threads making MPI calls\n",
                    drdb_rank);
        rpl_ckpt_on = 0;
        rpl_thread_start();
    }
}

int rpl_next_turn(uint64_t *thread, int *fn)
{
    struct log_event ev;
    char err[256];
    if (drdb_event >= rlog.nevents ||
        log_rank_event(&rlog, drdb_event, &ev, err, sizeof err) < 0 ||
        !(ev.flags & LOG_REC_THREAD))
        return 1; /* rpl_begin reports the end or the damage */
    *thread = ev.thread;
    *fn = ev.fn;
    return 0;
}

void rpl_log_end(const struct rpl_call *c)
{
    char why[256];
    log_rank_ending(&rlog, why, sizeof why);
    /* "truncated (disk full): recording stopped at event N (...)" */
    const char *at = strstr(why, "recording stopped");
    rpl_fail(c, RPL_EXIT_LOG_END, "the log ends here: %s", at ? at : why);
}

int rpl_log_cut_at(uint64_t event)
{
    return rlog.trunc_errno && event >= log_rank_trunc_event(&rlog);
}

/* "name=value, ..." for the by-value arguments of FN: the logged ones (EV)
 * or the program's (VALS). */
static void describe(char *buf, size_t len, int fn, const struct log_event *ev,
                     const int64_t *vals, int n)
{
    const struct log_func_desc *d = log_func_by_id(fn);
    size_t used = 0;
    int k = 0;
    buf[0] = '\0';
    for (int i = 0; d && i < d->nargs && used < len; i++) {
        if (d->args[i].dir != LOG_DIR_VALUE)
            continue;
        int64_t v = ev ? log_event_arg(ev, i) : (k < n ? vals[k] : 0);
        int handle = strncmp(d->args[i].ctype, "MPI_", 4) == 0 &&
                     strcmp(d->args[i].ctype, "MPI_Aint") != 0 &&
                     strcmp(d->args[i].ctype, "MPI_Count") != 0 &&
                     strcmp(d->args[i].ctype, "MPI_Offset") != 0;
        used += (size_t)snprintf(buf + used, len - used,
                                 handle ? "%s%s=%#" PRIx64 : "%s%s=%" PRId64,
                                 k ? ", " : "", d->args[i].name,
                                 handle ? (uint64_t)(uint32_t)v : (uint64_t)v);
        k++;
    }
}

static void diverge(const struct rpl_call *c, const char *why)
{
    char want[512], got[512];
    describe(want, sizeof want, c->ev.fn, &c->ev, NULL, 0);
    describe(got, sizeof got, c->fn, NULL, c->vals, c->nargs);
    rpl_fail(c, RPL_EXIT_DIVERGED,
             "replay diverged: %s: the log has %s(%s), the program called "
             "%s(%s)", why, fname(c->ev.fn), want, fname(c->fn), got);
}

void rpl_begin(struct rpl_call *c, int fn, const int64_t *vals, int n,
               unsigned skip)
{
    char err[256];
    if (!opened)
        rpl_open();
    rpl_thread_turn(fn);
    c->fn = fn;
    c->vals = vals;
    c->nargs = n;
    c->cursor = 0;
    c->ret = MPI_SUCCESS;
    c->dret = 0;
    uint64_t no = drdb_event;
    c->ev.index = no;
    if (rep_used == 0) {
        if (no == drdb_stop_event)
            drdb_stop_hook();
        if (rpl_ckpt_on && rpl_ckpt_due(no))
            rpl_ckpt_take(no);
    }
    /* A log the recorder cut (disk full) ends where it stopped: the end of
     * the log (98), not a divergence, whatever the program calls next. */
    if (rlog.trunc_errno && no >= log_rank_trunc_event(&rlog))
        rpl_log_end(c);
    if (no >= rlog.nevents) {
        if (rlog.stop_reason[0])
            rpl_fail(c, RPL_EXIT_LOG_END,
                     "the log ends here: the recorded rank stopped during "
                     "this call or before it (%s)", rlog.stop_reason);
        rpl_fail(c, RPL_EXIT_DIVERGED,
                 "replay diverged: the program calls %s but the log has no "
                 "more events (%" PRIu64 " in all)", fname(fn),
                 rlog.nevents);
    }
    if (log_rank_event(&rlog, no, &c->ev, err, sizeof err) < 0)
        rpl_fail(c, RPL_EXIT_SETUP, "%s", err);
    if (c->ev.fn != fn)
        diverge(c, "another function");
    if (c->ev.desc && c->ev.desc->unsupported)
        rpl_fail(c, RPL_EXIT_SETUP, "%s cannot be replayed: %s", fname(fn),
                 c->ev.desc->unsupported);
    if (c->ev.flags & LOG_REC_PARTIAL)
        rpl_fail(c, RPL_EXIT_SETUP,
                 "the recording did not log every output of this call (the "
                 "recorder cannot size them: see docs/log-format.md, "
                 "PARTIAL), so the replay cannot reproduce it");
    int64_t logged[32];
    int nl = log_event_args(&c->ev, logged, 32);
    if (nl != n)
        rpl_fail(c, RPL_EXIT_SETUP, "malformed record: %d arguments, the "
                 "function has %d", nl, n);
    for (int k = 0; k < n && k < 32; k++) {
        if (!(skip & (1u << k)) && logged[k] != vals[k]) {
            const struct log_func_desc *d = c->ev.desc;
            const char *name = "?";
            for (int i = 0, j = 0; d && i < d->nargs; i++)
                if (d->args[i].enc && j++ == k)
                    name = d->args[i].name;
            char why[96];
            snprintf(why, sizeof why, "argument '%s' differs", name);
            diverge(c, why);
        }
    }
    /* VALS is the caller's: only the checks above use it. */
    c->vals = NULL;
    c->nargs = 0;
    c->ret = c->ev.ret;
    drdb_current_fn = fn;
    if (++rep_used >= (c->ev.repeat ? c->ev.repeat : 1)) {
        drdb_event = no + 1;
        rep_used = 0;
    }
}

int rpl_field(struct rpl_call *c, struct log_field *f)
{
    int rc = log_event_field(&c->ev, &c->cursor, f);
    if (rc < 0)
        rpl_fail(c, RPL_EXIT_SETUP, "malformed record in the log");
    return rc;
}

/* ---- error handlers ----------------------------------------------------- */

struct errh {
    int eh; /* the handle (MPI_ERRHANDLER_NULL: a free slot) */
    void (*fn)(void);
};
struct comm_errh {
    int comm; /* MPI_COMM_NULL: a free slot */
    int eh;
};
static struct util_htab errhs = UTIL_HTAB_INIT(struct errh, eh, MPI_ERRHANDLER_NULL);
static struct util_htab comm_errhs =
    UTIL_HTAB_INIT(struct comm_errh, comm, MPI_COMM_NULL);

static void put(struct util_htab *t, const void *e)
{
    if (util_htab_put(t, e) < 0)
        rpl_fail(NULL, RPL_EXIT_SETUP, "out of memory for error handlers");
}

void rpl_errh_create(MPI_Errhandler eh, void (*fn)(void))
{
    struct errh e = {(int)eh, fn};
    put(&errhs, &e);
}

void rpl_errh_set(MPI_Comm comm, MPI_Errhandler eh)
{
    struct comm_errh e = {(int)comm, (int)eh};
    put(&comm_errhs, &e);
}

int rpl_end(struct rpl_call *c, MPI_Comm comm)
{
    drdb_current_fn = 0;
    if (c->ret == MPI_SUCCESS || comm == MPI_COMM_NULL)
        return c->ret;
    /* MPI called the communicator's handler before returning the error. */
    const struct comm_errh *ce = util_htab_find(&comm_errhs, (int)comm);
    const struct errh *e = ce ? util_htab_find(&errhs, ce->eh) : NULL;
    if (e && e->fn) {
        MPI_Comm cm = comm;
        int code = c->ret;
        ((MPI_Comm_errhandler_function *)(void *)e->fn)(&cm, &code);
    }
    return c->ret;
}
