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

#include "log-abi.h"
#include "log-codec.h"
#include "rpl.h"
#include "thread.h"
#include "util.h"

/* ---- the debugger hooks (drdb-hooks.h) --------------------------------- */

volatile uint64_t drdb_event;
volatile uint64_t drdb_nevents;
volatile int drdb_current_fn;
volatile uint64_t drdb_call_event;
volatile int drdb_rank = -1;
volatile uint64_t drdb_stop_event = UINT64_MAX;
char drdb_divergence_msg[2048];
volatile int drdb_fail_code;
volatile int rpl_last_fn;

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
/* That event as decoded at its first call (a polling cycle's whole
 * record): its next calls take it from here, not from the log again
 * (decoding a cycle checks all its values: each poll of a long run would
 * cost the run's length). */
static struct log_event rep_ev;
/* A polling cycle's timer values, and the one being returned as the field
 * its call's own record would hold. */
static struct log_cycle_values cyc_vals;
static uint8_t cyc_field[LOG_FIELD_HEAD + 8];

/*
 * MPI_THREAD_SERIALIZED with calls from several threads (rpl_ser): the
 * program's threads take turns at MPI by locks of their own (an omp
 * critical), in an order that may differ from the recorded one, and a
 * thread made to wait for the recorded order would wait holding the
 * program's lock the thread due needs. So each call takes an event of
 * the log not yet taken that is the same call (ser_take says which).
 * Events passed over on the way wait in DEFERRED, oldest first; SER_POS
 * is how far the log was read, and drdb_event the event taken (as
 * elsewhere, the console's position). Each thread has its own
 * collapsed polls: the REPEAT state above is the calling thread's,
 * swapped in when another thread calls (rep_swap).
 */
int rpl_ser;
static struct deferred {
    uint64_t event, thread;
} *deferred;
static size_t ndeferred, deferred_cap;
static uint64_t ser_pos;
struct rep_state {
    uint64_t used;
    struct log_event ev;
    struct log_cycle_values vals;
    uint8_t field[LOG_FIELD_HEAD + 8];
};
static __thread struct rep_state rep_mine;
static struct rep_state *rep_holder; /* whose state is in the globals */
/* The program callbacks the calling thread is running (below). */
static __thread unsigned cb_depth;

/* The thread level the recorded rank got (its MPI_Init_thread's
 * PROVIDED, among its first events), or -1. */
static int recorded_level(void)
{
    for (uint64_t k = 0; k < rlog.nevents && k < 64; k++) {
        struct log_event ev;
        struct log_field f;
        char err[256];
        size_t cur = 0;
        if (log_rank_event(&rlog, k, &ev, err, sizeof err) < 0)
            return -1;
        if (ev.fn != LOG_FN_MPI_Init_thread)
            continue;
        while (log_event_field(&ev, &cur, &f) > 0) {
            int32_t v;
            if (f.arg == LOG_A_MPI_Init_thread_provided &&
                f.kind == LOG_F_RAW && f.len == 4) {
                memcpy(&v, f.data, 4);
                return v;
            }
        }
        return -1;
    }
    return -1;
}
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

ssize_t rpl_read_small(const char *path, char *buf, size_t len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    ssize_t n = fd < 0 ? -1 : read(fd, buf, len - 1);
    if (fd >= 0)
        close(fd);
    if (n >= 0)
        buf[n] = '\0';
    return n;
}

int rpl_report_create(void)
{
    const char *rep = getenv(DRDB_ENV_REPLAY_REPORT);
    const char *slash = rep ? strrchr(rep, '/') : NULL;
    if (!rep || !*rep || !slash)
        return -1;
    /* A new file in the directory drdb replay made for it (0700): never
     * through a name planted there. (No snprintf: a signal handler calls
     * this, rpl-death.c.) */
    char dir[PATH_MAX];
    size_t n = slash == rep ? 1 : (size_t)(slash - rep);
    if (n >= sizeof dir)
        return -1;
    memcpy(dir, rep, n);
    dir[n] = '\0';
    int dfd = util_dir_open(AT_FDCWD, dir, 1);
    int fd = dfd < 0 ? -1 : util_file_create(dfd, slash + 1, O_WRONLY);
    if (dfd >= 0)
        close(dfd);
    return fd;
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
    /* drdb replay reads the report back to name the source line; the
     * console shows the message at the program's frame: the raw call
     * site only when nobody says where in the program's words. */
    const char *rep = getenv(DRDB_ENV_REPLAY_REPORT);
    if (!getenv(DRDB_ENV_REPLAY_QUIET)) {
        fprintf(stderr, "drdb-replay: %s\n", drdb_divergence_msg);
        if (where[0] && !(rep && *rep))
            fprintf(stderr, "drdb-replay: called from %s\n", where);
    }
    int fd = rpl_report_create();
    if (fd >= 0) {
        dprintf(fd, DRDB_REPORT_STATUS "%d\n" DRDB_REPORT_MESSAGE "%s\n"
                DRDB_REPORT_CALLER "%s\n", code, drdb_divergence_msg, where);
        close(fd);
    }
    drdb_fail_code = code;
    drdb_divergence_hook();
    _exit(code);
}

/*
 * The arguments this process was started with, taken before main as the
 * recorder takes them (rec.c): the program may edit its strings before
 * its first MPI call. Empty when not taken (another libc): not checked.
 */
static char start_args[LOG_RUN_MAX];

static void take_args(int argc, char **argv, char **envp)
{
    (void)envp;
    if (log_run_args(argc, argv, start_args, sizeof start_args) < 0)
        start_args[0] = '\0';
}
__attribute__((section(".init_array"), used)) static void (*const
    take_args_at_start)(int, char **, char **) = take_args;

/*
 * A replay started with other arguments than recorded runs another
 * program: its answers would be wrong without a divergence to say so (a
 * loop's count read from argv). The rank's log holds its arguments' CRC
 * (an older log: drdb.run's argv alone is the reference); drdb.run names
 * the argument that differs. argv[0] aside: drdb replay runs the recorded
 * executable by its path. Not checked when the user gave theirs on
 * purpose (the front end said so).
 */
static void check_args(const char *dir)
{
    static char rec[LOG_RUN_MAX];
    struct log_run run;
    char err[256], what[1024];
    if (!start_args[0] || getenv(DRDB_ENV_REPLAY_OWN_ARGS))
        return;
    const char *want = NULL;
    if (log_run_open(&run, dir, err, sizeof err) == 0) {
        want = log_run_get(&run, "argv", rec, sizeof rec);
        log_run_release(&run);
    }
    if (want && log_run_args_differ(want, start_args, what, sizeof what))
        rpl_fail(NULL, RPL_EXIT_DIVERGED, "replay diverged: the program was "
                 "started with other arguments than recorded: %s; run it "
                 "with the recorded ones (drdb replay %s), or give yours on "
                 "purpose: drdb replay %s -- PROGRAM ARGS", what, dir, dir);
    if (rlog.hdr.args_crc && rlog.hdr.args_crc != log_args_crc(start_args))
        rpl_fail(NULL, RPL_EXIT_DIVERGED, "replay diverged: the program was "
                 "started with other arguments than rank %d was recorded "
                 "with, though drdb.run's argv says the same: it was changed "
                 "after the recording; give the recorded arguments: drdb "
                 "replay %s -- PROGRAM ARGS", drdb_rank, dir);
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
    if (rlog.hdr.flags & LOG_HDR_STRIPPED)
        rpl_fail(NULL, RPL_EXIT_SETUP, "'%s' is a copy without its message "
                 "data: replay the rank where its log was recorded", path);
    rpl_world_size = rlog.hdr.world_size > 0 ? rlog.hdr.world_size : 1;
    drdb_nevents = rlog.nevents;
    const char *stop = getenv(DRDB_ENV_REPLAY_STOP);
    if (stop && *stop)
        drdb_stop_event = strtoull(stop, NULL, 10);
    check_args(dir);
    if (rlog.threads) {
        rpl_ser = recorded_level() == MPI_THREAD_SERIALIZED;
        /* A checkpoint restores the calling thread's registers alone. */
        if (rpl_ckpt_on)
            fprintf(stderr, "drdb-replay: rank %d: no checkpoints: the rank "
                    "was recorded with several threads making MPI calls\n",
                    drdb_rank);
        rpl_ckpt_on = 0;
        rpl_thread_start();
    }
    if (rlog.hdr.flags & LOG_HDR_EARLY)
        rpl_run_started();
}

/* Before MPI_Init: whether the log has the calls made then (opening it
 * when the replay's environment names it; outside drdb replay, no). */
int rpl_open_early(void)
{
    if (!opened && getenv(DRDB_ENV_REPLAY_DIR))
        rpl_open();
    return rpl_state == RPL_RUNNING;
}

/* After MPI_Finalize: whether the log has the calls made then. */
int rpl_logs_post(void)
{
    return (rlog.hdr.flags & LOG_HDR_POST) != 0;
}

static uint64_t thread_of(const struct log_event *ev)
{
    return ev->flags & LOG_REC_THREAD ? ev->thread : 0;
}

/* Under rpl_ser: the calling thread's REPEAT state into the globals. */
static void rep_swap(void)
{
    if (rep_holder == &rep_mine)
        return;
    if (rep_holder) {
        rep_holder->used = rep_used;
        rep_holder->ev = rep_ev;
        rep_holder->vals = cyc_vals;
        memcpy(rep_holder->field, cyc_field, sizeof cyc_field);
    }
    rep_used = rep_mine.used;
    rep_ev = rep_mine.ev;
    cyc_vals = rep_mine.vals;
    memcpy(cyc_field, rep_mine.field, sizeof cyc_field);
    rep_holder = &rep_mine;
}

/* Under rpl_ser: event NO, of THREAD, waits for its thread. */
static void ser_defer(struct rpl_call *c, uint64_t no, uint64_t thread)
{
    if (util_grow(&deferred, &deferred_cap, ndeferred + 1,
                  sizeof *deferred) < 0)
        rpl_fail(c, RPL_EXIT_SETUP, "out of memory");
    deferred[ndeferred++] = (struct deferred){no, thread};
}

/* Under rpl_ser: the log's next event read into DEFERRED; 0 at the end. */
static int ser_read(struct rpl_call *c)
{
    struct log_event ev;
    char err[256];
    if (ser_pos < drdb_event) /* (the events before it: one thread's) */
        ser_pos = drdb_event;
    if (ser_pos >= rlog.nevents)
        return 0;
    if (log_rank_event(&rlog, ser_pos, &ev, err, sizeof err) < 0)
        rpl_fail(c, RPL_EXIT_SETUP, "%s", err);
    ser_defer(c, ser_pos++, thread_of(&ev));
    return 1;
}

/* Deferred event I as read from the log. */
static void ser_event(struct rpl_call *c, size_t i, struct log_event *ev)
{
    char err[256];
    if (log_rank_event(&rlog, deferred[i].event, ev, err, sizeof err) < 0)
        rpl_fail(c, RPL_EXIT_SETUP, "%s", err);
}

/* Whether deferred event I is the program's call FN at this callback
 * depth with the arguments VALS (the checks of rpl_begin). */
static int ser_fits(struct rpl_call *c, size_t i, int fn, const int64_t *vals,
                    int n, unsigned skip)
{
    struct log_event ev;
    int64_t logged[32];
    ser_event(c, i, &ev);
    if (ev.fn != fn || ev.depth != cb_depth || ev.cb_entry ||
        log_event_args(&ev, logged, 32) != n)
        return 0;
    for (int k = 0; k < n && k < 32; k++)
        if (!(skip & (1u << k)) && logged[k] != vals[k])
            return 0;
    return 1;
}

static uint64_t ser_pick(size_t i)
{
    uint64_t no = deferred[i].event;
    memmove(&deferred[i], &deferred[i + 1],
            (ndeferred - i - 1) * sizeof *deferred);
    ndeferred--;
    return no;
}

/*
 * Under rpl_ser: the event the calling thread's call FN (VALS, N, SKIP:
 * rpl_begin's) takes. The first event not yet taken that is this call,
 * of whichever thread: another thread may make a call than in the
 * recorded run (an omp single, a pthread_once), and threads in an omp
 * critical make different calls. But the same call from several threads
 * in a race (each thread's MPI_Recv from MPI_ANY_SOURCE under a mutex)
 * is the calling thread's own when its next event is one of a run of
 * such events from that one on, each thread's own in turn: the events in
 * between are the call's or other threads' later ones (those of a thread
 * already in the run, SEEN). So each thread gets its own recorded results
 * where the threads race, and a call that moved to another thread the
 * results of its place in the run. None: the calling thread's own next
 * event (rpl_begin reports the divergence), or rlog.nevents when it has
 * none left.
 */
static uint64_t ser_take(struct rpl_call *c, int fn, const int64_t *vals,
                         int n, unsigned skip)
{
    enum { SEEN = 64, AHEAD = 4096 };
    uint64_t me = util_thread_self(), seen[SEEN];
    size_t first = 0, nseen = 0;
    while ((first < ndeferred || ser_read(c)) &&
           !ser_fits(c, first, fn, vals, n, skip))
        first++;
    if (first == ndeferred) {
        for (size_t i = 0; i < ndeferred; i++)
            if (deferred[i].thread == me)
                return ser_pick(i);
        return rlog.nevents;
    }
    for (size_t i = first; i < first + AHEAD && nseen < SEEN &&
                           (i < ndeferred || ser_read(c));
         i++) {
        uint64_t t = deferred[i].thread;
        int fits = i == first || ser_fits(c, i, fn, vals, n, skip), known = 0;
        for (size_t k = 0; k < nseen && !known; k++)
            known = seen[k] == t;
        if (fits && t == me) {
            first = i;
            break;
        }
        if (!fits && !known)
            break;
        if (!known)
            seen[nseen++] = t;
    }
    /* A call whose callbacks ran: their events come first in its thread's.
     * The end: every event taken. */
    struct log_event ev;
    for (size_t j = first; j-- > 0;)
        if (deferred[j].thread == deferred[first].thread) {
            ser_event(c, j, &ev);
            if (ev.depth > cb_depth)
                rpl_fail(c, RPL_EXIT_SETUP, "%s ran callbacks of the "
                         "program in the recorded run, under "
                         "MPI_THREAD_SERIALIZED with calls from several "
                         "threads: the replay cannot run them", fname(fn));
            break;
        }
    if (fn == LOG_FN_MPI_Finalize && first > 0) {
        char th[32];
        ser_event(c, 0, &ev);
        log_thread_name(th, sizeof th, deferred[0].thread);
        rpl_fail(c, RPL_EXIT_DIVERGED, "replay diverged: the program calls "
                 "MPI_Finalize, but thread %s's %s (event %" PRIu64 ") was "
                 "never made", th, fname(ev.fn), deferred[0].event);
    }
    return ser_pick(first);
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

int rpl_mid_run(void)
{
    return rep_used != 0;
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
    return (rlog.trunc_errno || rlog.died) &&
           event >= log_rank_trunc_event(&rlog);
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
        /* MPI's names for its constants: MPI_INT, MPI_COMM_WORLD,
         * MPI_ANY_SOURCE (log-abi.h, from <mpi.h>) */
        const char *name =
            handle ? log_mpi_handle_name(d->args[i].ctype, (uint32_t)v)
            : d->args[i].enc == LOG_ENC_INT
                ? log_mpi_int_name(d->args[i].name, v) : NULL;
        if (name)
            used += (size_t)snprintf(buf + used, len - used, "%s%s=%s",
                                     k ? ", " : "", d->args[i].name, name);
        else
            used += (size_t)snprintf(buf + used, len - used,
                                     handle ? "%s%s=%#" PRIx64
                                            : "%s%s=%" PRId64,
                                     k ? ", " : "", d->args[i].name,
                                     handle ? (uint64_t)(uint32_t)v
                                            : (uint64_t)v);
        k++;
    }
}

/* Call REP_USED of the polling cycle in C->ev (LOG_REC_CYCLE) becomes
 * the event to replay: its member, with its timer value as a field. */
static void cycle_call(struct rpl_call *c)
{
    struct log_event whole = c->ev;
    unsigned mflags;
    double v;
    if (rep_used == 0)
        log_cycle_values_init(&whole, &cyc_vals);
    if (log_cycle_member(&whole, (unsigned)(rep_used % whole.cycle), &c->ev,
                         &mflags) < 0)
        rpl_fail(c, RPL_EXIT_SETUP, "malformed polling cycle in the log");
    if (!(mflags & LOG_CYCLE_VALUE))
        return;
    if (log_cycle_value_next(&cyc_vals, &v) != 1)
        rpl_fail(c, RPL_EXIT_SETUP, "malformed polling cycle in the log: a "
                 "value is missing");
    struct log_rec r = {cyc_field, cyc_field};
    log_put_field(&r, LOG_ARG_NONE, LOG_F_RAW, 0, 8);
    log_put_bytes(&r, &v, 8);
    c->ev.fields = cyc_field;
    c->ev.fields_len = (size_t)(r.p - cyc_field);
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

/* ---- the program's callbacks that MPI ran -------------------------------- */

/*
 * The recorder logs each program callback MPI ran as an entry (its depth:
 * the callbacks running when MPI ran it, plus one), then the MPI calls it
 * made at that depth, all before the record of the call that ran it
 * (LOG_REC_CALLBACK). So when the program makes a call at callback depth D
 * (cb_depth: the program callbacks the stub is running) and the next event
 * is deeper, its own record is the first event at depth D after them.
 * rpl_begin() replays that record and leaves drdb_event at the deeper
 * events: the call is pending. rpl_end() (or, for a hook that does not
 * call it, the program's next call at depth D or less) runs the callbacks
 * the entries name, whose calls consume the events after each entry, then
 * passes the call's record.
 *
 * Under MPI_THREAD_MULTIPLE other threads' records may come between an
 * entry and the record of the call that ran it (a thread completes a
 * generalized request while the main thread's MPI_Wait runs its query
 * function): the call's own record is the first of its thread at its
 * depth, and between callbacks the thread lets the others make their
 * calls first (rpl_thread_turn). Each thread has its own callbacks.
 */
static __thread struct pending {
    uint64_t outer;  /* the event of the call whose callbacks ran */
    unsigned depth;
    int64_t newobj;  /* its new communicator or datatype: a copy's target */
    int threaded;    /* its records name their thread: THREAD */
    uint64_t thread;
} pend[LOG_MAX_CB_DEPTH + 1];
static __thread int npend;

void rpl_cb_enter(void)
{
    cb_depth++;
}

void rpl_cb_leave(void)
{
    cb_depth--;
}

static void read_event(struct rpl_call *c, uint64_t no, struct log_event *ev)
{
    char err[256];
    if (log_rank_event(&rlog, no, ev, err, sizeof err) < 0)
        rpl_fail(c, RPL_EXIT_SETUP, "%s", err);
}

/* Runs the callbacks of the pending call on top, then passes its record.
 * FN: the program's call (for the report). */
static void run_pending(struct rpl_call *c, int fn)
{
    const struct pending p = pend[npend - 1];
    struct log_event ev, out;
    struct log_cb cb;
    while (drdb_event < p.outer) {
        read_event(c, drdb_event, &ev);
        if (p.threaded && (ev.flags & LOG_REC_THREAD) &&
            ev.thread != p.thread) {
            rpl_thread_turn(c->fn); /* another thread's call first */
            continue;
        }
        if (log_event_cb(&ev, &cb) < 0 || ev.depth != p.depth + 1) {
            read_event(c, p.outer, &out);
            rpl_fail(c, RPL_EXIT_DIVERGED,
                     "replay diverged: in the recorded run, a callback of "
                     "the program that MPI ran inside %s (event %" PRIu64
                     ") made %" PRIu64 " more MPI calls, from %s at event %"
                     PRIu64 ", before it returned%s%s", fname(out.fn),
                     p.outer, p.outer - drdb_event, fname(ev.fn), drdb_event,
                     fn ? "; here the program calls " : "",
                     fn ? fname(fn) : "");
        }
        drdb_event++;
        if (cb.what == LOG_CB_ERRHANDLER)
            rpl_errh_callback(c, &cb,
                              ev.desc && ev.desc->errh_enc == LOG_ENC_PTR);
        else if (cb.what == LOG_CB_OP)
            rpl_op_callback(c, &ev, &cb);
        else if (cb.what >= LOG_CB_GREQ_QUERY)
            rpl_greq_callback(c, &cb);
        else
            rpl_attr_callback(c, &cb, p.newobj);
    }
    drdb_event = p.outer + 1;
    npend--;
}

/* Ends the pending calls at depth DEPTH or deeper. */
static void finish_pending(struct rpl_call *c, unsigned depth, int fn)
{
    while (npend && pend[npend - 1].depth >= depth)
        run_pending(c, fn);
}

/* The event of the call the program makes at depth cb_depth when event
 * FIRST (number NO) is deeper: the first one of its thread after it at
 * cb_depth. */
static uint64_t outer_event(struct rpl_call *c, uint64_t no,
                            const struct log_event *first)
{
    struct log_event ev;
    for (uint64_t k = no + 1;; k++) {
        if (k >= rlog.nevents)
            rpl_fail(c, RPL_EXIT_LOG_END, "the log ends here: the recorded "
                     "rank stopped inside a callback of this call (%s)",
                     rlog.stop_reason[0] ? rlog.stop_reason : "no more events");
        read_event(c, k, &ev);
        if ((first->flags & ev.flags & LOG_REC_THREAD) &&
            ev.thread != first->thread)
            continue;
        if (ev.depth == cb_depth)
            return k;
        if (ev.depth < cb_depth)
            rpl_fail(c, RPL_EXIT_SETUP, "malformed log: event %" PRIu64
                     " (callback depth %u) ends callbacks that no call at "
                     "depth %u ran", k, ev.depth, cb_depth);
    }
}

/* The new communicator or datatype EV's call made (its HANDLE output),
 * or 0. */
static int64_t new_object(const struct log_event *ev)
{
    struct log_field f;
    size_t cur = 0;
    int arg = -1;
    if (ev->desc && ev->desc->slot[LOG_S_NEWCOMM] >= 0)
        arg = ev->desc->slot[LOG_S_NEWCOMM];
    else if (ev->desc && ev->desc->slot[LOG_S_NEWTYPE] >= 0)
        arg = ev->desc->slot[LOG_S_NEWTYPE];
    while (arg >= 0 && log_event_field(ev, &cur, &f) > 0) {
        uint64_t h;
        const uint8_t *p = f.data;
        if (f.arg == (unsigned)arg && f.kind == LOG_F_HANDLE &&
            log_get_varint(&p, f.data + f.len, &h) == 0)
            return (int64_t)log_unrotate_handle(h);
    }
    return 0;
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
    c->ev.index = drdb_event;
    if (rpl_ser)
        rep_swap();
    if (npend && rep_used == 0)
        finish_pending(c, cb_depth, fn);
    uint64_t no = drdb_event, outer = no;
    if (rpl_ser)
        drdb_event = no = outer =
            rep_used ? rep_ev.index : ser_take(c, fn, vals, n, skip);
    c->ev.index = no;
    if (rep_used == 0) {
        if (no == drdb_stop_event)
            drdb_stop_hook();
        if (rpl_ckpt_on && rpl_ckpt_due(no))
            rpl_ckpt_take(no);
    }
    /* A log the recorder cut (disk full) ends where it stopped: the end of
     * the log (98), not a divergence, whatever the program calls next; so
     * does one whose rank died in a call (MPI ended it there). */
    if (rpl_log_cut_at(no))
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
    if (rep_used)
        c->ev = rep_ev;
    else if (log_rank_event(&rlog, no, &c->ev, err, sizeof err) < 0)
        rpl_fail(c, RPL_EXIT_SETUP, "%s", err);
    if (c->ev.depth < cb_depth)
        rpl_fail(c, RPL_EXIT_DIVERGED,
                 "replay diverged: a callback of the program calls %s, but "
                 "in the recorded run that callback had returned: the log "
                 "has %s next", fname(fn), fname(c->ev.fn));
    if (c->ev.depth > cb_depth) {
        if (rpl_ser) /* (ser_take refuses the others) */
            diverge(c, "another function");
        outer = outer_event(c, no, &c->ev);
        read_event(c, outer, &c->ev);
        if (outer == drdb_stop_event)
            drdb_stop_hook();
    } else if (c->ev.cb_entry) {
        rpl_fail(c, RPL_EXIT_DIVERGED,
                 "replay diverged: the program calls %s, but in the recorded "
                 "run MPI called a callback of the program here",
                 fname(fn));
    }
    uint64_t calls = log_event_calls(&c->ev);
    if (calls > 1 && rep_used == 0)
        rep_ev = c->ev;
    if (c->ev.cycle)
        cycle_call(c);
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
    drdb_call_event = c->ev.index;
    drdb_current_fn = fn;
    rpl_last_fn = fn;
    if (outer != no) {
        /* The callbacks replay the events from NO; the call's own record
         * is passed when the program's next call at this depth comes. */
        pend[npend++] = (struct pending){
            outer, cb_depth, new_object(&c->ev),
            (c->ev.flags & LOG_REC_THREAD) != 0, c->ev.thread};
        return;
    }
    if (++rep_used >= calls) {
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

int rpl_end(struct rpl_call *c, MPI_Comm comm)
{
    (void)comm; /* its error handler ran if the log says so */
    drdb_current_fn = 0;
    if (npend && pend[npend - 1].outer == c->ev.index &&
        pend[npend - 1].depth == cb_depth)
        run_pending(c, 0);
    return c->ret;
}
