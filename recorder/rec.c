/*
 * The recorder's runtime: opening and closing the rank's log, the run
 * description, starting and ending records (rec.h). Polling loops are
 * rec-poll.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "drdb_mpi_abi.h"
#include "log-writer.h"
#include "rec.h"
#include "thread.h"
#include "util.h"

int rec_on;
int rec_send_data;
__thread int rec_busy __attribute__((tls_model("initial-exec")));
__thread unsigned rec_cb_depth __attribute__((tls_model("initial-exec")));
__thread uint64_t rec_cb_ran_mask __attribute__((tls_model("initial-exec")));
uint64_t rec_t0;
static struct log_writer writer;
int rec_mt;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static __thread int held; /* this thread's rec_lock depth */
/* Time spent building and committing records, for the overhead estimate. */
static uint64_t busy_ns, cur_t1;
/* The record being built carries the shared-memory segments' changes. */
static int cur_shm;
/* The record being built is its site's probe (REC_PROBE): the CFA of the
 * program's calling frame, for its LOG_F_FRAME field; else 0. */
static uintptr_t cur_frame;

int rec_begin_raw(struct log_rec *rec, int fn, unsigned flags, uint64_t t0,
                  uint64_t dur, size_t room)
{
    if (!rec_on)
        return 0;
    if (!log_writer_begin(&writer, rec, room + 10, fn, flags, t0, dur)) {
        rec_on = 0; /* the writer warned once; the program goes on */
        return 0;
    }
    return 1;
}

/* ---- threads (rec.h) ----------------------------------------------------- */

void rec__lock(void)
{
    if (held++ == 0)
        pthread_mutex_lock(&lock);
}

void rec__unlock(void)
{
    /* 0: taken before MPI_Init_thread turned rec_mt on. */
    if (held > 0 && --held == 0)
        pthread_mutex_unlock(&lock);
}

int rec__lock_drop(void)
{
    int h = held;
    if (h) {
        held = 0;
        pthread_mutex_unlock(&lock);
    }
    return h;
}

void rec__lock_retake(int h)
{
    pthread_mutex_lock(&lock);
    held = h;
}

/* Pinned handles (rec.h): the handle and the pinning thread (the address
 * of its `held`). Under the lock. */
static struct pin {
    int handle;
    const int *owner;
} *pins;
static size_t npins, pins_cap;
static pthread_cond_t unpinned = PTHREAD_COND_INITIALIZER;

void rec_pin_handles(const int *handles, int n)
{
    if (!handles || n <= 0)
        return;
    rec__lock();
    for (int i = 0; i < n; i++) {
        if (util_grow(&pins, &pins_cap, npins + 1, sizeof *pins) < 0)
            break; /* out of memory: that handle is not ordered */
        pins[npins++] = (struct pin){handles[i], &held};
    }
    rec__unlock();
}

void rec__unpin_handles(void)
{
    rec__lock();
    size_t k = 0;
    for (size_t i = 0; i < npins; i++)
        if (pins[i].owner != &held)
            pins[k++] = pins[i];
    if (k != npins) {
        npins = k;
        pthread_cond_broadcast(&unpinned);
    }
    rec__unlock();
}

/* The caller holds the lock (and no record is open). */
void rec_wait_unpinned(int handle)
{
    for (;;) {
        size_t i = 0;
        while (i < npins && !(pins[i].handle == handle &&
                              pins[i].owner != &held))
            i++;
        if (i == npins)
            return;
        pthread_cond_wait(&unpinned, &lock);
    }
}

void rec_put_big(struct log_rec *rec, const void *src, size_t n)
{
    log_writer_put_big(&writer, rec, src, n);
}

void rec_end_raw(struct log_rec *rec)
{
    log_writer_commit(&writer, rec);
}

int rec_begin(struct log_rec *rec, int fn, unsigned flags, int ret,
              uint64_t t0, uint64_t t1, size_t room)
{
    return rec_begin_at(rec, fn, flags, ret, t0, t1, room, NULL);
}

int rec_begin_at(struct log_rec *rec, int fn, unsigned flags, int ret,
                 uint64_t t0, uint64_t t1, size_t room, const void *ra)
{
#ifdef REC_NO_SITES
    ra = NULL; /* the benchmarks' baseline (recorder/meson.build) */
#endif
    if (__builtin_expect(rec_mt, 0)) {
        rec__lock();
        flags |= LOG_REC_THREAD;
    }
    if (rec_poll_pending)
        rec_poll_flush();
    if (!rec_on) {
        rec_unlock();
        return 0;
    }
    /* Without a shared-memory window, this test is all it costs. */
    if (__builtin_expect(rec_shm_n != 0, 0) && !(flags & REC_CB_ENTRY)) {
        cur_shm = (flags & REC_SYNC) || rec_shm_syncs(fn);
        if (cur_shm)
            room += rec_shm_room();
    }
    unsigned entry = flags & REC_CB_ENTRY ? LOG_CB_ENTRY : 0;
    unsigned probe = flags & REC_PROBE;
    if (!entry)
        rec_cb_ran_mask &= ~(1ull << (rec_cb_depth & 63));
    flags &= ~(REC_SYNC | REC_CB_ENTRY | REC_PROBE);
    if (ret != MPI_SUCCESS)
        flags |= LOG_REC_RET;
    if (rec_cb_depth)
        flags |= LOG_REC_CALLBACK;
    const struct rec_site_enc *site = NULL;
    if (ra && !entry &&
        (site = rec_site(ra, (uintptr_t)__builtin_dwarf_cfa())) != NULL) {
        flags |= LOG_REC_SITE;
        room += site->room;
    } else {
        flags &= ~(unsigned)LOG_REC_BUFS; /* buffers follow a site only */
    }
    if (__builtin_expect(rec_site_probe != 0, 0)) {
        /* A site's first call: its buffers and the caller's frame. */
        if (probe && site &&
            (cur_frame = rec_site_frame(rec_site_probe)) != 0) {
            flags |= LOG_REC_BUFS;
            room += LOG_FIELD_HEAD + LOG_ARG_ROOM64;
        }
        rec_site_probe = 0;
    }
    if (!log_writer_begin(&writer, rec, room + 30, fn, flags, t0, t1 - t0)) {
        rec_on = 0; /* the writer warned once; the program goes on */
        cur_shm = 0;
        cur_frame = 0;
        rec_site_announce = NULL;
        rec_unlock();
        return 0;
    }
    cur_t1 = t1;
    if (flags & LOG_REC_RET)
        log_put_varint(rec, ((uint64_t)(int64_t)ret << 1) ^
                                (uint64_t)((int64_t)ret >> 63));
    if (flags & LOG_REC_CALLBACK) /* after `repeat`, which it never has */
        log_put_varint(rec, (uint64_t)rec_cb_depth << 1 | entry);
    if (flags & LOG_REC_THREAD)
        log_put_varint(rec, util_thread_self());
    if (flags & LOG_REC_SITE) {
        rec_site_put(rec, site);
        return flags & LOG_REC_BUFS ? REC_SITE_BUFS : REC_SITE_PUT;
    }
    return 1;
}

int rec_cb_begin(struct log_rec *rec, int fn, size_t room)
{
    uint64_t t = rec_now();
    if (!rec_begin(rec, fn, REC_CB_ENTRY, MPI_SUCCESS, t, t,
                   LOG_FIELD_HEAD + LOG_CB_BYTES + room))
        return 0;
    /* The call one level up runs a program callback (rec_cb_ran). */
    rec_cb_ran_mask |= 1ull << ((rec_cb_depth - 1) & 63);
    return 1;
}

void rec_cb_entry(int fn, const struct log_cb *cb)
{
    struct log_rec rec;
    if (rec_cb_begin(&rec, fn, 0)) {
        log_put_cb(&rec, cb);
        rec_end(&rec);
    }
}

void rec_end(struct log_rec *rec)
{
    if (__builtin_expect(cur_shm, 0)) {
        rec_shm_put(rec);
        cur_shm = 0;
    }
    if (__builtin_expect(rec_site_announce != NULL, 0)) {
        rec_site_put_object(rec, rec_site_announce);
        rec_site_announce = NULL;
    }
    if (__builtin_expect(cur_frame != 0, 0)) {
        uint8_t v[LOG_ARG_ROOM64];
        struct log_rec b = {v, v};
        log_put_varint(&b, cur_frame);
        log_put_field(rec, LOG_ARG_NONE, LOG_F_FRAME, 0, (size_t)(b.p - v));
        log_put_bytes(rec, v, (size_t)(b.p - v));
        cur_frame = 0;
    }
    log_writer_commit(&writer, rec);
    busy_ns += rec_now() - cur_t1;
    rec_unlock();
}

/* ---- failures (rec.h) --------------------------------------------------- */

static int opened = -1; /* the rank the log was opened for (-1: not yet) */

/* The line being written: *P moves on, never past END. */
static void put_str(char **p, char *end, const char *s)
{
    while (*s && *p < end)
        *(*p)++ = *s++;
}

static void put_num(char **p, char *end, unsigned long long v, int neg)
{
    char digits[24], *d = digits + sizeof digits;
    *--d = '\0';
    do
        *--d = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    if (neg)
        *--d = '-';
    put_str(p, end, d);
}

/* FMT's conversions %s %d %u %zu %llu and %%, all the recorder's messages
 * use; another is copied as it is. */
static void put_fmt(char **p, char *end, const char *fmt, va_list ap)
{
    for (; *fmt; fmt++) {
        if (*fmt != '%') {
            if (*p < end)
                *(*p)++ = *fmt;
            continue;
        }
        const char *at = fmt++;
        if (*fmt == 's') {
            const char *s = va_arg(ap, const char *);
            put_str(p, end, s ? s : "(null)");
        } else if (*fmt == 'd') {
            int v = va_arg(ap, int);
            put_num(p, end, v < 0 ? -(unsigned long long)v : (unsigned)v,
                    v < 0);
        } else if (*fmt == 'u') {
            put_num(p, end, va_arg(ap, unsigned), 0);
        } else if (fmt[0] == 'z' && fmt[1] == 'u') {
            put_num(p, end, va_arg(ap, size_t), 0);
            fmt++;
        } else if (fmt[0] == 'l' && fmt[1] == 'l' && fmt[2] == 'u') {
            put_num(p, end, va_arg(ap, unsigned long long), 0);
            fmt += 2;
        } else if (*fmt == '%') {
            put_str(p, end, "%");
        } else {
            put_str(p, end, "%");
            fmt = at;
        }
    }
}

/*
 * The one way the recorder speaks (rec_warn, rec_fail): one line on
 * standard error, "drdb-record: [warning: ][rank R: ][event N (MPI_F): ]
 * MESSAGE", with one write(2). No stdio, no allocation, no lock: the
 * recorded process's own streams may be in any state, its heap may be
 * what failed, and a warning may come from any thread at any time.
 */
static void report(int warning, int fn, const char *fmt, va_list ap)
{
    char line[PATH_MAX + 512], *p = line, *end = line + sizeof line - 1;
    put_str(&p, end, "drdb-record: ");
    if (warning)
        put_str(&p, end, "warning: ");
    if (opened >= 0) {
        put_str(&p, end, "rank ");
        put_num(&p, end, (unsigned)opened, 0);
        put_str(&p, end, ": ");
    }
    if (fn) {
        if (writer.map) {
            put_str(&p, end, "event ");
            put_num(&p, end, writer.events, 0);
            put_str(&p, end, " (");
        }
        put_str(&p, end, log_func_name(fn));
        put_str(&p, end, writer.map ? "): " : ": ");
    }
    put_fmt(&p, end, fmt, ap);
    *p++ = '\n';
    if (write(2, line, (size_t)(p - line)) < 0) {
        /* nothing else to do */
    }
}

void rec_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(1, 0, fmt, ap);
    va_end(ap);
}

void rec_fail(int fn, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(0, fn, fmt, ap);
    va_end(ap);
    abort();
}

const char *rec_strerror(int err)
{
    const char *s = strerrordesc_np(err);
    return s ? s : "unknown error";
}

/* ---- opening and closing ---------------------------------------------- */

/* The run description being built: no stdio inside the recorded process
 * (it may be what the program is using when MPI_Init runs). */
struct text {
    char buf[LOG_RUN_MAX];
    size_t len;
    int over; /* did not fit */
};

static void text_put(struct text *t, const char *s, size_t n)
{
    if (t->len + n >= sizeof t->buf) {
        t->over = 1;
        return;
    }
    memcpy(t->buf + t->len, s, n);
    t->len += n;
}

/* Appends "key value\n", escaping newlines and backslashes. */
static void run_kv(struct text *t, const char *key, const char *val)
{
    text_put(t, key, strlen(key));
    text_put(t, " ", 1);
    for (const char *p = val; *p; p++) {
        if (*p == '\n')
            text_put(t, "\\n", 2);
        else if (*p == '\\')
            text_put(t, "\\\\", 2);
        else
            text_put(t, p, 1);
    }
    text_put(t, "\n", 1);
}

/* Reads a /proc file of NUL-separated strings into "a b c" form. */
static void proc_args(const char *path, char *buf, size_t len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    ssize_t n = fd >= 0 ? read(fd, buf, len - 1) : -1;
    if (fd >= 0)
        close(fd);
    if (n < 0)
        n = 0;
    buf[n] = '\0';
    for (ssize_t i = 0; i + 1 < n; i++)
        if (buf[i] == '\0')
            buf[i] = '\x1f'; /* unit separator: arguments may hold spaces */
}

/*
 * The program's arguments as exec gave them, taken before main: a program
 * may edit its argument strings in place before MPI_Init (strtok on
 * argv[1]), and /proc/self/cmdline shows the edited bytes (OSU's "-m
 * 1:65536" became "-m 1 65536", and the replay ran with four arguments).
 * glibc calls a shared object's .init_array functions with argc, argv and
 * envp, and a preloaded library's before the program's own constructors.
 * Empty when not taken (another libc): then /proc/self/cmdline, as late.
 */
static char run_args[LOG_RUN_MAX];

static void take_args(int argc, char **argv, char **envp)
{
    (void)envp;
    if (log_run_args(argc, argv, run_args, sizeof run_args) < 0)
        run_args[0] = '\0'; /* too long for drdb.run anyway */
}
__attribute__((section(".init_array"), used)) static void (*const
    take_args_at_start)(int, char **, char **) = take_args;

/*
 * Rank 0 describes the run (drdb.run) before any log takes room on the
 * disk: it is tiny, and without it the logs cannot be opened. Written to a
 * new temporary file of the run directory DFD, then renamed: a reader
 * never sees half of it, and nothing planted in the directory is followed.
 */
static void write_run_file(int dfd, const char *dir, int size,
                           uint64_t start_ns)
{
    static struct text t; /* large: not on the program's stack */
    char buf[8192], tmp[64];
    t.len = 0;
    t.over = 0;
    snprintf(buf, sizeof buf, "format drdb-run 1\nworld_size %d\n", size);
    text_put(&t, buf, strlen(buf));
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    buf[n > 0 ? n : 0] = '\0';
    run_kv(&t, "exe", buf);
    /* here, not after the run: a run whose drdb record was killed keeps
     * it (a replay tells another binary by it) */
    if (rec_exe_build_id(buf, sizeof buf) == 0)
        run_kv(&t, "exe_build_id", buf);
    if (run_args[0])
        run_kv(&t, "argv", run_args);
    else {
        proc_args("/proc/self/cmdline", buf, sizeof buf);
        run_kv(&t, "argv", buf);
    }
    if (getcwd(buf, sizeof buf))
        run_kv(&t, "cwd", buf);
    int len = 0;
    char ver[MPI_MAX_LIBRARY_VERSION_STRING];
    if (PMPI_Get_library_version(ver, &len) == MPI_SUCCESS) {
        char *nl = strchr(ver, '\n');
        if (nl)
            *nl = '\0';
        run_kv(&t, "mpi_library", ver);
    }
    run_kv(&t, "recorder", DRDB_VERSION);
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)start_ns);
    run_kv(&t, "start_ns", buf);
    const char *ranks = getenv(DRDB_ENV_RANKS);
    if (ranks && *ranks)
        run_kv(&t, "ranks", ranks);
    const char *cmd = getenv(DRDB_ENV_COMMAND);
    if (cmd)
        run_kv(&t, "command", cmd);
    /* The room drdb record reserved (log-format.h), else a new file. */
    int fd = openat(dfd, LOG_RUN_ROOM, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
        st.st_uid == geteuid())
        snprintf(tmp, sizeof tmp, "%s", LOG_RUN_ROOM);
    else {
        if (fd >= 0)
            close(fd);
        fd = util_file_create_tmp(dfd, LOG_RUN_FILE, tmp, sizeof tmp,
                                  O_WRONLY);
    }
    int rc = fd < 0 ? fd : t.over ? -E2BIG : util_write_all(fd, t.buf, t.len);
    if (rc == 0 && ftruncate(fd, (off_t)t.len) < 0)
        rc = -errno;
    if (fd >= 0 && close(fd) < 0 && rc == 0)
        rc = -errno;
    if (rc == 0)
        rc = util_file_replace(dfd, tmp, LOG_RUN_FILE);
    if (rc < 0) {
        if (fd >= 0)
            unlinkat(dfd, tmp, 0);
        rec_warn("cannot write the run description in '%s' (%s)", dir,
                 rec_strerror(-rc));
    }
}

/* What the kernel put at the top of the stack at exec (log-format.h):
 * the initial environment and arguments as /proc shows them (the blocks
 * the kernel copied, whatever the program did to environ since), and the
 * path it was run by. */
static void stack_strings(struct log_file_header *h)
{
    static const char *const files[] = {"/proc/self/environ",
                                        "/proc/self/cmdline"};
    char buf[4096];
    uint64_t bytes = 0, nenv = 0;
    for (int i = 0; i < 2; i++) {
        int fd = open(files[i], O_RDONLY | O_CLOEXEC);
        ssize_t n;
        if (fd < 0)
            return;
        while ((n = read(fd, buf, sizeof buf)) > 0) {
            bytes += (uint64_t)n;
            for (ssize_t k = 0; i == 0 && k < n; k++)
                nenv += buf[k] == '\0';
        }
        close(fd);
        if (n < 0)
            return;
    }
    const char *fn = (const char *)getauxval(AT_EXECFN);
    if (!fn || bytes + strlen(fn) + 1 > UINT32_MAX)
        return;
    h->stack_strings = (uint32_t)(bytes + strlen(fn) + 1);
    h->stack_nenv = (uint32_t)nenv;
}

/* Whether RANK is in the DRDB_ENV_RANKS list ("0-3,8"; unset: every rank). */
static int rank_selected(int rank)
{
    const char *s = getenv(DRDB_ENV_RANKS);
    if (!s || !*s)
        return 1;
    while (*s) {
        char *end;
        long a = strtol(s, &end, 10), b = a;
        if (end == s)
            return 1; /* malformed: drdb record validated it; be generous */
        if (*end == '-')
            b = strtol(end + 1, &end, 10);
        if (rank >= a && rank <= b)
            return 1;
        s = *end == ',' ? end + 1 : end;
        if (*end && *end != ',')
            break;
    }
    return 0;
}

int rec_tried;
static int open_size;
static int world_up, sessions; /* MPI_Init..MPI_Finalize; open sessions */
static int finalized;            /* MPI_Finalize returned */

/* At exit, the log is closed when the program ended its use of MPI
 * (MPI_Finalize, whose calls after it are logged too: LOG_HDR_POST; the
 * Sessions model: its last MPI_Session_finalize; or it never initialized
 * MPI at all): complete. Otherwise (MPI still initialized) it stays as it
 * is, which readers take for a rank killed mid-run. */
static void at_exit(void)
{
    if (writer.map && rec_fly.fn)
        rec_fly_end(0); /* exit() inside a call: MPI ended the rank there
                         * (also one made before MPI_Init, after
                         * MPI_Finalize) */
    else if (writer.map && !finalized && world_up && rec_call_slot)
        rec_call_slot->exited = 1; /* no MPI_Finalize */
    if (writer.map && (finalized || (!world_up && sessions == 0)))
        rec_close();
}

void rec_finalized(void)
{
    finalized = 1;
    world_up = 0;
    /* complete from here, should the process not reach its exit */
    if (writer.map) {
        log_writer_set_flags(&writer, LOG_HDR_COMPLETE);
        ((struct log_file_header *)writer.map)->recorder_ns = busy_ns;
    }
}

void rec_world(int up)
{
    world_up = up;
}

void rec_sessions(int delta)
{
    sessions += delta;
}

/*
 * The rank and world size of this process before MPI_Init, from the process
 * manager's environment: PMI_RANK and PMI_SIZE (MPICH's hydra, and the
 * PMI-1/PMI-2 libraries of other launchers); no PMI connection at all
 * (neither PMI_FD nor PMI_PORT, nor PMIx) is MPICH's singleton: rank 0 of
 * 1. 0 when unknown: the log then opens after MPI_Init.
 */
static int env_rank(int *rank, int *size)
{
    const char *r = getenv("PMI_RANK"), *n = getenv("PMI_SIZE");
    if (r && n && *r && *n) {
        char *e1, *e2;
        long a = strtol(r, &e1, 10), b = strtol(n, &e2, 10);
        if (*e1 || *e2 || a < 0 || b < 1 || a >= b || b > LOG_MAX_WORLD)
            return 0;
        *rank = (int)a;
        *size = (int)b;
        return 1;
    }
    if (getenv("PMI_FD") || getenv("PMI_PORT") || getenv("PMIX_RANK"))
        return 0;
    *rank = 0;
    *size = 1;
    return 1;
}

static void open_log(int rank, int size, uint32_t flags);

int rec_start(void)
{
    int rank, size;
    rec_tried = 1;
    const char *dir = getenv(DRDB_ENV_RUN_DIR);
    if (dir && *dir && env_rank(&rank, &size))
        open_log(rank, size, LOG_HDR_EARLY);
    return rec_on;
}

/* Called right after PMPI_Init*: the log is open when the rank was known
 * before (rec_start), else rank 0 describes the run and each recorded rank
 * opens its log now. */
void rec_open(void)
{
    int rank = 0, size = 1;
    if (!getenv(DRDB_ENV_RUN_DIR))
        return;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &size);
    if (opened < 0) {
        open_log(rank, size, 0);
    } else if (opened != rank || open_size != size) {
        rec_warn("the environment said rank %d of %d, MPI_COMM_WORLD says "
                 "%d of %d: the log is named after the first", opened,
                 open_size, rank, size);
    }
}

/* The limits of `drdb record --max-log-size` on the log just opened: its
 * size (DRDB_ENV_MAX_LOG_SIZE, bytes) and the run's budget (LOG_BUDGET_FILE of
 * run directory DFD, when drdb record made one: a regular file of ours,
 * never through a link). */
static void limit_log(int dfd)
{
    const char *s = getenv(DRDB_ENV_MAX_LOG_SIZE);
    uint64_t limit = s && *s ? strtoull(s, NULL, 10) : 0;
    uint64_t *budget = NULL;
    if (getenv(DRDB_ENV_LOG_BUDGET)) {
        int fd = openat(dfd, LOG_BUDGET_FILE,
                        O_RDWR | O_NOFOLLOW | O_CLOEXEC);
        struct stat st;
        void *m = MAP_FAILED;
        if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
            st.st_uid == geteuid() && st.st_size == sizeof *budget)
            m = mmap(NULL, sizeof *budget, PROT_READ | PROT_WRITE,
                     MAP_SHARED, fd, 0);
        if (fd >= 0)
            close(fd);
        if (m != MAP_FAILED)
            budget = m;
        else
            rec_warn("the run's log budget (--max-log-size total=) cannot "
                     "be opened: this rank's log is not limited by it");
    }
    if (limit || budget)
        log_writer_limit(&writer, limit, budget);
}

/* Rank 0 describes the run, each recorded rank opens its log. */
static void open_log(int rank, int size, uint32_t flags)
{
    const char *dir = getenv(DRDB_ENV_RUN_DIR);
    char name[64];

    if (!dir || !*dir) {
        rec_sys_drop();
        return; /* preloaded outside 'drdb record': stay out of the way */
    }
    opened = rank;
    open_size = size;
    int selected = rank_selected(rank);
    rec_files_rank(rank, selected);
    if (!selected && rank != 0) {
        rec_sys_drop();
        return;
    }

    struct log_file_header hdr;
    struct timespec ts;
    memset(&hdr, 0, sizeof hdr);
    memcpy(hdr.magic, LOG_MAGIC, 8);
    hdr.version = LOG_VERSION;
    hdr.header_size = LOG_HEADER_SIZE;
    hdr.rank = rank;
    hdr.world_size = size;
    clock_gettime(CLOCK_REALTIME, &ts);
    hdr.start_ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
    hdr.max_func_id = DRDB_MPI_FUNC_MAX_ID;
    hdr.pid = getpid();
    hdr.flags = flags | LOG_HDR_POST;
    gethostname(hdr.host, sizeof hdr.host - 1);
    stack_strings(&hdr);
    if (run_args[0])
        hdr.args_crc = log_args_crc(run_args);
    if (getenv(DRDB_ENV_SEND_DATA)) {
        hdr.flags |= LOG_HDR_SEND_DATA;
        rec_send_data = 1;
    }

    /* The directory, once: every file is made relative to it. A link as
     * the run directory is refused. */
    int dfd = util_dir_open(AT_FDCWD, dir, 1);
    if (dfd < 0) {
        rec_warn("cannot open the run directory '%s': %s; this rank is not "
                 "recorded", dir, rec_strerror(-dfd));
        rec_sys_drop();
        return;
    }
    if (rank == 0)
        write_run_file(dfd, dir, size, hdr.start_ns);
    if (!selected) {
        rec_sys_drop();
        close(dfd);
        return;
    }
    if (rec_sys_open(dir, rank, &hdr))
        hdr.flags |= LOG_HDR_SYS;
    log_name(name, sizeof name, rank);
    int rc = log_writer_openat(&writer, dfd, name, &hdr);
    if (rc < 0) {
        close(dfd);
        rec_warn("cannot create '%s/%s': %s; this rank is not recorded", dir,
                 name, rec_strerror(-rc));
        return;
    }
    limit_log(dfd);
    rec_call_open(dfd, rank);
    close(dfd);
    clock_gettime(CLOCK_MONOTONIC, &ts);
    rec_t0 = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
    rec_on = 1;
    atexit(at_exit);
}

void rec_close(void)
{
    if (rec_poll_pending && rec_on)
        rec_poll_flush();
    rec_on = 0;
    if (writer.map)
        log_writer_close(&writer, busy_ns);
}
