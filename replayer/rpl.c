/*
 * The replay stub's runtime: opening the rank's log, matching each MPI call
 * with the next event, writing logged outputs back, the request-to-buffer
 * table, communicator sizes, error handlers, and the debugger hooks.
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
volatile uint64_t drdb_checkpoint_event = UINT64_MAX;
char drdb_divergence_msg[2048];

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
__attribute__((noinline, used)) void drdb_checkpoint_hook(void)
{
    __asm__ volatile("" ::: "memory");
}
__attribute__((noinline, used)) void drdb_restored_hook(void)
{
    __asm__ volatile("" ::: "memory");
}

/* ---- the log ------------------------------------------------------------ */

enum rpl_state rpl_state = RPL_PRE_INIT;
static struct log_rank rlog;
static int opened;
static uint64_t rep_used; /* calls already replayed of a REPEAT event */
static int world_size = 1;

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
    const char *rep = getenv("DRDB_REPLAY_REPORT");
    if (rep && *rep) {
        int fd = open(rep, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        if (fd >= 0) {
            dprintf(fd, "status %d\nmessage %s\ncaller %s\n", code,
                    drdb_divergence_msg, where);
            close(fd);
        }
    }
    drdb_divergence_hook();
    _exit(code);
}

/*
 * Calls the replay cannot reproduce (by exact name, and their _c twins): it
 * stops there, naming the call, rather than let the program go on with
 * state that silently differs from the recorded run's. A NULL reason is
 * the previous entry's.
 */
static const struct {
    const char *name;
    const char *why;
} unsupported[] = {
    {"MPI_Win_allocate_shared", "shared-memory windows are not replayed: "
                                "the processes of the node load and store "
                                "into each other's memory directly, not "
                                "through MPI calls"},
    {"MPI_Win_shared_query", NULL},
    {"MPI_Comm_spawn", "process creation cannot be replayed: the spawned "
                       "processes are not in the log"},
    {"MPI_Comm_spawn_multiple", NULL},
    {"MPI_Grequest_start", "generalized requests are not replayed yet (MPI "
                           "calls their callbacks)"},
    {"MPIX_Grequest_start", NULL},
    {"MPIX_Grequest_class_allocate", NULL},
};
static uint8_t unsupported_fn[DRDB_MPI_FUNC_MAX_ID + 1];

static void mark_unsupported(void)
{
    for (size_t u = 0; u < sizeof unsupported / sizeof unsupported[0]; u++) {
        size_t len = strlen(unsupported[u].name);
        for (int i = 0; i < log_funcs_count; i++)
            if (strncmp(log_funcs[i].name, unsupported[u].name, len) == 0 &&
                (!log_funcs[i].name[len] ||
                 strcmp(log_funcs[i].name + len, "_c") == 0))
                unsupported_fn[log_funcs[i].id] = (uint8_t)(u + 1);
    }
}

static const char *unsupported_why(int fn)
{
    for (int u = unsupported_fn[fn] - 1; u >= 0; u--)
        if (unsupported[u].why)
            return unsupported[u].why;
    return "";
}

/* Opens the log named by the environment `drdb replay` sets. */
static void rpl_open(void)
{
    char err[512], path[PATH_MAX];
    const char *dir = getenv("DRDB_REPLAY_DIR");
    const char *rank = getenv("DRDB_REPLAY_RANK");
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
    world_size = rlog.hdr.world_size > 0 ? rlog.hdr.world_size : 1;
    drdb_nevents = rlog.nevents;
    mark_unsupported();
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
    if (fn <= DRDB_MPI_FUNC_MAX_ID && unsupported_fn[fn])
        rpl_fail(c, RPL_EXIT_SETUP, "%s cannot be replayed: %s", fname(fn),
                 unsupported_why(fn));
    if (c->ev.flags & LOG_REC_PARTIAL)
        rpl_fail(c, RPL_EXIT_SETUP,
                 "the recording did not log every output of this call (the "
                 "recorder cannot size them: see docs/log-format.md, "
                 "PARTIAL), so the replay cannot reproduce it");
    if (c->ev.flags & LOG_REC_TRUNC)
        rpl_fail(c, RPL_EXIT_LOG_END,
                 "the log ends here: the recorder stopped logging (%s)",
                 strerror((int)c->ev.ret));
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
    c->ret = c->ev.ret;
    drdb_current_fn = fn;
    if (++rep_used >= (c->ev.repeat ? c->ev.repeat : 1)) {
        drdb_event = no + 1;
        rep_used = 0;
    }
}

int rpl_field(struct rpl_call *c, struct rpl_field *f)
{
    struct log_field lf;
    int rc = log_event_field(&c->ev, &c->cursor, &lf);
    if (rc < 0)
        rpl_fail(c, RPL_EXIT_SETUP, "malformed record in the log");
    if (rc == 0)
        return 0;
    f->arg = lf.arg;
    f->kind = lf.kind;
    f->elem = lf.elem;
    f->data = lf.data;
    f->len = lf.len;
    return 1;
}

/* ---- error handlers ----------------------------------------------------- */

struct errh {
    MPI_Errhandler eh;
    void (*fn)(void);
};
static struct errh errhs[64];
static struct {
    MPI_Comm comm;
    MPI_Errhandler eh;
} comm_errh[256];

void rpl_errh_create(MPI_Errhandler eh, void (*fn)(void))
{
    for (size_t i = 0; i < sizeof errhs / sizeof errhs[0]; i++)
        if (!errhs[i].fn || errhs[i].eh == eh) {
            errhs[i].eh = eh;
            errhs[i].fn = fn;
            return;
        }
}

void rpl_errh_set(MPI_Comm comm, MPI_Errhandler eh)
{
    size_t n = sizeof comm_errh / sizeof comm_errh[0];
    for (size_t i = 0; i < n; i++)
        if (comm_errh[i].comm == comm || comm_errh[i].comm == 0) {
            comm_errh[i].comm = comm;
            comm_errh[i].eh = eh;
            return;
        }
}

int rpl_end(struct rpl_call *c, MPI_Comm comm)
{
    drdb_current_fn = 0;
    if (c->ret == MPI_SUCCESS || comm == MPI_COMM_NULL)
        return c->ret;
    /* MPI called the communicator's handler before returning the error. */
    for (size_t i = 0; i < sizeof comm_errh / sizeof comm_errh[0]; i++) {
        if (comm_errh[i].comm != comm)
            continue;
        for (size_t j = 0; j < sizeof errhs / sizeof errhs[0]; j++)
            if (errhs[j].fn && errhs[j].eh == comm_errh[i].eh) {
                MPI_Comm cm = comm;
                int code = c->ret;
                ((MPI_Comm_errhandler_function *)(void *)errhs[j].fn)(
                    &cm, &code);
                break;
            }
        break;
    }
    return c->ret;
}

/* ---- outputs ------------------------------------------------------------ */

static void want_kind(struct rpl_call *c, const struct rpl_field *f,
                      unsigned kind)
{
    if (f->kind != kind)
        rpl_fail(c, RPL_EXIT_SETUP,
                 "malformed record: field of kind %u for argument %u, "
                 "expected kind %u", f->kind, f->arg, kind);
}

void rpl_out_raw(struct rpl_call *c, const struct rpl_field *f, void *p,
                 int64_t max)
{
    want_kind(c, f, LOG_F_RAW);
    if (!p)
        return;
    if ((int64_t)f->len > max && max >= 0)
        rpl_fail(c, RPL_EXIT_DIVERGED,
                 "replay diverged: the log holds %" PRIu64 " bytes for "
                 "argument %u, the program's argument has room for %" PRId64,
                 f->len, f->arg, max);
    memcpy(p, f->data, f->len);
}

uint32_t rpl_field_handle(struct rpl_call *c, const struct rpl_field *f)
{
    struct log_field lf = {f->arg, f->kind, f->elem, f->data, f->len};
    uint32_t v;
    if ((f->kind != LOG_F_HANDLE && f->kind != LOG_F_REQUEST) ||
        log_field_handle(&lf, &v) < 0)
        rpl_fail(c, RPL_EXIT_SETUP, "malformed handle in the log (argument "
                 "%u, kind %u)", f->arg, f->kind);
    return v;
}

void rpl_out_handle(struct rpl_call *c, const struct rpl_field *f, void *p)
{
    want_kind(c, f, LOG_F_HANDLE);
    uint32_t v = rpl_field_handle(c, f);
    if (p)
        memcpy(p, &v, 4);
}

void rpl_out_string(struct rpl_call *c, const struct rpl_field *f, char *p,
                    int64_t cap)
{
    want_kind(c, f, LOG_F_STRING);
    if (!p || cap <= 0)
        return;
    size_t n = f->len < (uint64_t)cap - 1 ? f->len : (size_t)cap - 1;
    memcpy(p, f->data, n);
    p[n] = '\0';
}

void rpl_out_status(struct rpl_call *c, const struct rpl_field *f,
                    MPI_Status *st)
{
    int32_t v[LOG_ST_N];
    struct log_field lf = {f->arg, f->kind, f->elem, f->data, f->len};
    want_kind(c, f, LOG_F_STATUS);
    if (st == MPI_STATUS_IGNORE || st == MPI_STATUSES_IGNORE)
        return;
    if (log_field_status(&lf, v) < 0)
        rpl_fail(c, RPL_EXIT_SETUP, "malformed status in the log");
    log_status_to_mpi(v, st);
}

/* Unpacks a DATA field into COUNT x TYPE at BUF; all of it must fit. */
static void unpack(struct rpl_call *c, const struct rpl_field *f, void *buf,
                   int64_t count, MPI_Datatype type)
{
    int64_t got = rpl_type_unpack(f->data, (int64_t)f->len, buf, count, type);
    if (got == -EINVAL)
        rpl_fail(c, RPL_EXIT_SETUP,
                 "datatype %#x is unknown to the replay (created by a call "
                 "the stub does not replay?)", (unsigned)type);
    if (got != (int64_t)f->len)
        rpl_fail(c, RPL_EXIT_DIVERGED,
                 "replay diverged: the logged message has %" PRIu64 " bytes, "
                 "more than %" PRId64 " x datatype %#x holds", f->len, count,
                 (unsigned)type);
}

void rpl_out_data(struct rpl_call *c, const struct rpl_field *f, void *buf,
                  int64_t count, MPI_Datatype type)
{
    want_kind(c, f, LOG_F_DATA);
    if (f->len)
        unpack(c, f, buf, count, type);
}

static int64_t elem_at(const void *arr, size_t esize, int64_t i)
{
    if (esize == 8)
        return ((const int64_t *)arr)[i];
    return ((const int *)arr)[i];
}

void rpl_out_vdata(struct rpl_call *c, const struct rpl_field *f, void *buf,
                   const void *counts, size_t csize, const void *displs,
                   size_t dsize, MPI_Datatype type, int64_t peers)
{
    struct rpl_type_info ti;
    want_kind(c, f, LOG_F_DATA);
    if (!f->len)
        return;
    if (rpl_type_get(type, &ti) < 0 || !counts || !displs)
        rpl_fail(c, RPL_EXIT_SETUP, "datatype %#x is unknown to the replay",
                 (unsigned)type);
    /* The recorder packed peer after peer; a peer's block is counts[i]
     * elements at displs[i] extents. */
    struct rpl_field part = *f;
    for (int64_t i = 0; part.len > 0 && i < peers; i++) {
        int64_t n = elem_at(counts, csize, i), bytes = n * ti.size;
        if (n <= 0)
            continue;
        if ((uint64_t)bytes > part.len)
            bytes = (int64_t)part.len;
        struct rpl_field one = part;
        one.len = (uint64_t)bytes;
        unpack(c, &one, (char *)buf + elem_at(displs, dsize, i) * ti.extent, n,
               type);
        part.data += bytes;
        part.len -= (uint64_t)bytes;
    }
}

void rpl_out_wdata(struct rpl_call *c, const struct rpl_field *f, void *buf,
                   const void *counts, size_t csize, const void *displs,
                   size_t dsize, const MPI_Datatype *types, int64_t peers)
{
    struct rpl_field part = *f;
    want_kind(c, f, LOG_F_DATA);
    for (int64_t i = 0; part.len > 0 && i < peers; i++) {
        struct rpl_type_info ti;
        int64_t n = elem_at(counts, csize, i);
        if (n <= 0)
            continue;
        if (rpl_type_get(types[i], &ti) < 0)
            rpl_fail(c, RPL_EXIT_SETUP, "datatype %#x is unknown to the "
                     "replay", (unsigned)types[i]);
        int64_t bytes = n * ti.size;
        if ((uint64_t)bytes > part.len)
            bytes = (int64_t)part.len;
        struct rpl_field one = part;
        one.len = (uint64_t)bytes;
        unpack(c, &one, (char *)buf + elem_at(displs, dsize, i), n, types[i]);
        part.data += bytes;
        part.len -= (uint64_t)bytes;
    }
}

void rpl_out_sent(struct rpl_call *c, const struct rpl_field *f)
{
    want_kind(c, f, LOG_F_DATA);
}

void rpl_check_raw(struct rpl_call *c, const struct rpl_field *f,
                   const void *p, int64_t len)
{
    want_kind(c, f, LOG_F_RAW);
    if ((int64_t)f->len != len || (len && memcmp(p, f->data, f->len)))
        rpl_fail(c, RPL_EXIT_DIVERGED,
                 "replay diverged: argument %u differs from the recorded "
                 "one (%" PRIu64 " bytes logged)", f->arg, f->len);
}

void rpl_check_sent(struct rpl_call *c, const struct rpl_field *f,
                    const void *buf, int64_t count, MPI_Datatype type)
{
    want_kind(c, f, LOG_F_DATA);
    if (buf == MPI_IN_PLACE || !f->len)
        return;
    uint8_t *tmp = malloc(f->len);
    if (!tmp)
        return;
    int64_t got = rpl_type_pack(buf, count, type, tmp, (int64_t)f->len);
    if (got >= 0) {
        for (uint64_t i = 0; i < f->len && i < (uint64_t)got; i++)
            if (tmp[i] != f->data[i]) {
                unsigned now = tmp[i], then = f->data[i];
                free(tmp);
                rpl_fail(c, RPL_EXIT_DIVERGED,
                         "replay diverged: the program sends other data "
                         "than recorded (argument %u, byte %" PRIu64 " of %"
                         PRIu64 ": recorded %#04x, now %#04x)", f->arg, i,
                         f->len, then, now);
            }
        if ((uint64_t)got != f->len) {
            free(tmp);
            rpl_fail(c, RPL_EXIT_DIVERGED,
                     "replay diverged: the program sends %" PRId64 " bytes, "
                     "the recorded message had %" PRIu64, got, f->len);
        }
    }
    free(tmp);
}

void rpl_out_other(struct rpl_call *c, const struct rpl_field *f)
{
    if (f->kind == LOG_F_MEMBERS || f->kind == LOG_F_SIZE)
        return;
    if (f->kind == LOG_F_WINDIFF ||
        (f->kind == LOG_F_DATA && f->arg == LOG_ARG_NONE)) {
        rpl_rma_field(c, f);
        return;
    }
    rpl_fail(c, RPL_EXIT_SETUP,
             "the log holds an output (argument %u, kind %u) this replay "
             "does not know where to write", f->arg, f->kind);
}

/* ---- communicators ------------------------------------------------------ */

static struct {
    MPI_Comm comm;
    int size, remote;
} comms[4096];

void rpl_comm_new(struct rpl_call *c, MPI_Comm comm)
{
    struct rpl_field f;
    int size = -1, remote = -1;
    size_t cur = c->cursor;
    c->cursor = 0;
    while (rpl_field(c, &f))
        if (f.kind == LOG_F_MEMBERS) {
            if (f.elem == 0)
                size = (int)(f.len / 4);
            else
                remote = (int)(f.len / 4);
        }
    c->cursor = cur;
    if (size < 0 || comm == MPI_COMM_NULL)
        return;
    size_t n = sizeof comms / sizeof comms[0];
    size_t h = ((unsigned)comm * 2654435761u) % n;
    for (size_t i = 0; i < n; i++, h = (h + 1) % n)
        if (comms[h].comm == comm || comms[h].comm == 0) {
            comms[h].comm = comm;
            comms[h].size = size;
            comms[h].remote = remote;
            return;
        }
}

static int comm_lookup(MPI_Comm comm, int remote)
{
    if (comm == MPI_COMM_WORLD)
        return world_size;
    if (comm == MPI_COMM_SELF)
        return 1;
    size_t n = sizeof comms / sizeof comms[0];
    size_t h = ((unsigned)comm * 2654435761u) % n;
    for (size_t i = 0; i < n && comms[h].comm; i++, h = (h + 1) % n)
        if (comms[h].comm == comm) {
            int v = remote && comms[h].remote >= 0 ? comms[h].remote
                                                   : comms[h].size;
            return v;
        }
    /* Unknown (a topology or a table overflow): the logged data's length
     * still bounds every copy. */
    return 1 << 20;
}

int rpl_comm_size(MPI_Comm comm)
{
    return comm_lookup(comm, 0);
}

int rpl_comm_peers(MPI_Comm comm)
{
    if (comm == MPI_COMM_NULL)
        return 1 << 20;
    return comm_lookup(comm, 1);
}

/* ---- the request-to-buffer table --------------------------------------- */

struct req_entry {
    MPI_Request req; /* MPI_REQUEST_NULL: free slot */
    int fn;
    int persistent;
    MPI_Datatype type;
    void *buf;
    int64_t n;
    const void *counts, *displs; /* v- and w-layouts; else NULL */
    const MPI_Datatype *types;   /* w-layouts */
    uint8_t csize, dsize;
};

/* Neighbourhood collectives: their peers are the topology's neighbours,
 * whose number the stub does not track. */
static int fn_is_neighbor(int fn)
{
    return strstr(log_func_name(fn), "eighbor_") != NULL;
}

static struct util_htab reqs =
    UTIL_HTAB_INIT(struct req_entry, req, MPI_REQUEST_NULL);

static struct req_entry *req_find(MPI_Request r)
{
    return util_htab_find(&reqs, r);
}

static void req_put(const struct req_entry *e)
{
    if (util_htab_put(&reqs, e) < 0)
        rpl_fail(NULL, RPL_EXIT_SETUP, "out of memory for requests");
}

void rpl_req_register(MPI_Request req, int fn, void *buf, int64_t n,
                      MPI_Datatype type, MPI_Comm comm, int persistent)
{
    (void)comm;
    struct req_entry e = {req,  fn,   persistent, type, buf,
                          n,    NULL, NULL,       NULL, 0, 0};
    if (req != MPI_REQUEST_NULL)
        req_put(&e);
}

void rpl_req_register_v(MPI_Request req, int fn, void *buf,
                        const void *counts, size_t csize, const void *displs,
                        size_t dsize, MPI_Datatype type, MPI_Comm comm,
                        int persistent)
{
    struct req_entry e = {req,    fn,     persistent,     type,
                          buf,    rpl_comm_peers(comm),   counts,
                          displs, NULL,   (uint8_t)csize, (uint8_t)dsize};
    if (fn_is_neighbor(fn))
        e.n = RPL_MANY_PEERS;
    if (req != MPI_REQUEST_NULL)
        req_put(&e);
}

void rpl_req_register_w(MPI_Request req, int fn, void *buf,
                        const void *counts, size_t csize, const void *displs,
                        size_t dsize, const MPI_Datatype *types,
                        int64_t peers, int persistent)
{
    struct req_entry e = {req,    fn,    persistent,     MPI_DATATYPE_NULL,
                          buf,    peers, counts,         displs,
                          types,  (uint8_t)csize, (uint8_t)dsize};
    if (req != MPI_REQUEST_NULL)
        req_put(&e);
}

void rpl_req_data(struct rpl_call *c, MPI_Request req,
                  const struct rpl_field *f)
{
    struct req_entry *e = req_find(req);
    if (!e) {
        if (f->len)
            rpl_fail(c, RPL_EXIT_DIVERGED,
                     "replay diverged: request %#x completes with %" PRIu64
                     " bytes of data but no receive started it",
                     (unsigned)req, f->len);
        return;
    }
    if (e->types)
        rpl_out_wdata(c, f, e->buf, e->counts, e->csize, e->displs, e->dsize,
                      e->types, e->n);
    else if (e->counts)
        rpl_out_vdata(c, f, e->buf, e->counts, e->csize, e->displs, e->dsize,
                      e->type, e->n);
    else
        rpl_out_data(c, f, e->buf, e->n, e->type);
}

void rpl_req_done(MPI_Request req, int force)
{
    struct req_entry *e = req_find(req);
    if (e && (force || !e->persistent))
        util_htab_remove(&reqs, e);
}
