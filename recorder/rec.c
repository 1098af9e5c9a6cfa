/*
 * The recorder's runtime: opening and closing the rank's log, the run
 * description, starting and ending records, and the compression of polling
 * loops (rec.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include "drdb_mpi_abi.h"
#include "log-writer.h"
#include "rec.h"
#include "util.h"

int rec_on;
int rec_send_data;
uint64_t rec_t0;
static struct log_writer writer;
/* Time spent building and committing records, for the overhead estimate. */
static uint64_t busy_ns, cur_t1;

/* "drdb-record: MSG" on stderr, with one write(2): no stdio in the
 * recorded process, whose own streams may be in any state. */
static void warn(const char *msg)
{
    char line[PATH_MAX + 256];
    int n = snprintf(line, sizeof line, "drdb-record: %s\n", msg);
    if (n > (int)sizeof line - 1)
        n = (int)sizeof line - 1;
    if (write(2, line, (size_t)n) < 0) {
        /* nothing else to do */
    }
}

/* The run of identical unsuccessful polls not yet logged. */
static struct {
    int fn;
    size_t len;
    uint8_t img[512];
    uint64_t n, t0, t1;
} poll;

static void poll_flush(void)
{
    struct log_rec rec;
    uint64_t n = poll.n;
    poll.n = 0;
    if (!log_writer_begin(&writer, &rec, poll.len + 10, poll.fn,
                          n > 1 ? LOG_REC_REPEAT : 0, poll.t0,
                          poll.t1 - poll.t0)) {
        rec_on = 0;
        return;
    }
    if (n > 1)
        log_put_varint(&rec, n);
    log_put_bytes(&rec, poll.img, poll.len);
    log_writer_commit(&writer, &rec);
}

void rec_poll(int fn, const void *img, size_t len, uint64_t t0, uint64_t t1)
{
    if (poll.n && poll.fn == fn && poll.len == len &&
        memcmp(poll.img, img, len) == 0) {
        poll.n++;
        poll.t1 = t1;
        return;
    }
    if (poll.n)
        poll_flush();
    if (len > sizeof poll.img || !rec_on)
        return;
    poll.fn = fn;
    poll.len = len;
    memcpy(poll.img, img, len);
    poll.n = 1;
    poll.t0 = t0;
    poll.t1 = t1;
}

int rec_begin(struct log_rec *rec, int fn, unsigned flags, int ret,
              uint64_t t0, uint64_t t1, size_t room)
{
    if (poll.n)
        poll_flush();
    if (!rec_on)
        return 0;
    if (ret != MPI_SUCCESS)
        flags |= LOG_REC_RET;
    if (!log_writer_begin(&writer, rec, room + 10, fn, flags, t0, t1 - t0)) {
        rec_on = 0; /* the writer warned once; the program goes on */
        return 0;
    }
    cur_t1 = t1;
    if (flags & LOG_REC_RET)
        log_put_varint(rec, ((uint64_t)(int64_t)ret << 1) ^
                                (uint64_t)((int64_t)ret >> 63));
    return 1;
}

void rec_end(struct log_rec *rec)
{
    log_writer_commit(&writer, rec);
    busy_ns += rec_now() - cur_t1;
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
    proc_args("/proc/self/cmdline", buf, sizeof buf);
    run_kv(&t, "argv", buf);
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
    const char *ranks = getenv("DRDB_RANKS");
    if (ranks && *ranks)
        run_kv(&t, "ranks", ranks);
    const char *cmd = getenv("DRDB_COMMAND");
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
        char msg[PATH_MAX + 128];
        snprintf(msg, sizeof msg, "cannot write the run description in "
                 "'%s' (%s)", dir, strerror(-rc));
        warn(msg);
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

/* Whether RANK is in the DRDB_RANKS list ("0-3,8"; unset: every rank). */
static int rank_selected(int rank)
{
    const char *s = getenv("DRDB_RANKS");
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

/* Called right after PMPI_Init*: rank 0 describes the run, each recorded
 * rank opens its log. */
void rec_open(void)
{
    const char *dir = getenv("DRDB_RUN_DIR");
    int rank = 0, size = 1;
    char name[64];

    if (!dir || !*dir) {
        rec_sys_drop();
        return; /* preloaded outside 'drdb record': stay out of the way */
    }
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &size);
    int selected = rank_selected(rank);
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
    gethostname(hdr.host, sizeof hdr.host - 1);
    stack_strings(&hdr);
    if (getenv("DRDB_SEND_DATA")) {
        hdr.flags |= LOG_HDR_SEND_DATA;
        rec_send_data = 1;
    }

    /* The directory, once: every file is made relative to it. A link as
     * the run directory is refused. */
    int dfd = util_dir_open(AT_FDCWD, dir, 1);
    if (dfd < 0) {
        char msg[PATH_MAX + 128];
        snprintf(msg, sizeof msg, "rank %d: cannot open the run directory "
                 "'%s': %s; this rank is not recorded", rank, dir,
                 strerror(-dfd));
        warn(msg);
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
    close(dfd);
    if (rc < 0) {
        char msg[PATH_MAX + 128];
        snprintf(msg, sizeof msg, "rank %d: cannot create '%s/%s': %s; this "
                 "rank is not recorded", rank, dir, name, strerror(-rc));
        warn(msg);
        return;
    }
    clock_gettime(CLOCK_MONOTONIC, &ts);
    rec_t0 = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
    rec_on = 1;
}

void rec_close(void)
{
    if (poll.n && rec_on)
        poll_flush();
    rec_on = 0;
    if (writer.map)
        log_writer_close(&writer, busy_ns);
}
