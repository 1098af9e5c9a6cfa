/* The libc side stream (log/log-sys.h): written with log_sys_writer, read
 * back with log_sys_open/log_sys_next. A stream cut or torn at any byte
 * reads up to its last whole record; a byte flipped anywhere in a finished
 * stream is reported; what is read is never other than what was written. */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "log-sys-writer.h"

/* In memory when it can be: thousands of small files are written. */
static char dir[64];

/* What the test wrote: each call's record and where it ends. */
struct want {
    int kind, err;
    int64_t ret, arg;
    uint8_t data[400];
    size_t len;
    size_t end; /* the record's end offset in the file */
};
#define NREC 160
static struct want want[NREC];

static void header(struct log_file_header *h)
{
    memset(h, 0, sizeof *h);
    memcpy(h->magic, LOG_SYS_MAGIC, 8);
    h->header_size = LOG_HEADER_SIZE;
    h->rank = 2;
    h->world_size = 4;
}

/* Writes NREC records of every shape (the inline short path, the slow
 * path, large records, failed calls, clocks going back and forward) into
 * NAME; ended: the thread's end (complete). Leaves the file's bytes in
 * *BUF (its whole size in *SIZE) and the records' end in *END. */
static void write_stream(const char *name, int ended, uint8_t **buf,
                         size_t *size, size_t *end)
{
    struct log_sys_writer w;
    struct log_file_header h;
    int dfd = open(dir, O_RDONLY | O_DIRECTORY);
    REQUIRE(dfd >= 0);
    unlinkat(dfd, name, 0);
    header(&h);
    REQUIRE(log_sys_writer_openat(&w, dfd, name, &h) == 0);
    close(dfd);
    int64_t sec = 1700000000, nsec = 999999000;
    for (int i = 0; i < NREC; i++) {
        struct want *x = &want[i];
        memset(x, 0, sizeof *x);
        size_t before = w.w.off;
        switch (i % 7) {
        case 0: /* a clock: small steps, a second's wrap, backwards */
        case 1: {
            nsec += i % 5 == 0 ? -7000 : 37 * i;
            if (nsec >= 1000000000)
                nsec -= 1000000000, sec++;
            if (nsec < 0)
                nsec += 1000000000, sec--;
            int64_t t[2] = {sec + (i % 7), nsec};
            x->kind = LOG_SYS_CLOCK_GETTIME;
            x->arg = i % 7 ? 1 : 0;
            memcpy(x->data, t, 16);
            x->len = 16;
            uint8_t *p = log_sys_here(&w);
            if (log_sys_fits(&w, 25))
                log_sys_done(&w, p, log_sys_clock_body(&w, p + 1,
                                                       (int)x->arg, t[0],
                                                       t[1]));
            else
                log_sys_append(&w, x->kind, 0, 0, x->arg, t, 16);
            break;
        }
        case 2: { /* the generic short path */
            x->kind = LOG_SYS_GETPID;
            x->ret = 100000 + i;
            uint8_t *p = log_sys_here(&w);
            if (log_sys_fits(&w, 22))
                log_sys_done(&w, p, log_sys_body(p + 1, x->kind, x->ret, 0,
                                                 NULL, 0));
            else
                log_sys_append(&w, x->kind, x->ret, 0, 0, NULL, 0);
            break;
        }
        case 3: /* random bytes, up to a large record */
            x->kind = LOG_SYS_GETRANDOM;
            x->len = (size_t)(i * 13) % 390;
            x->arg = (int64_t)x->len;
            x->ret = (int64_t)x->len;
            for (size_t k = 0; k < x->len; k++)
                x->data[k] = (uint8_t)(k * 7 + (size_t)i);
            log_sys_append(&w, x->kind, x->ret, 0, x->arg, x->data, x->len);
            break;
        case 4: /* a failed call */
            x->kind = i % 2 ? LOG_SYS_CLOCK_GETTIME : LOG_SYS_GETRANDOM;
            x->ret = -1;
            x->err = i % 2 ? EINVAL : EFAULT;
            x->arg = i % 2 ? 1 : 8;
            log_sys_append(&w, x->kind, -1, x->err, x->arg, NULL, 0);
            break;
        case 5:
            x->kind = LOG_SYS_TIME;
            x->ret = sec - i;
            log_sys_append(&w, x->kind, x->ret, 0, 0, NULL, 0);
            break;
        default:
            x->kind = LOG_SYS_GETHOSTNAME;
            x->arg = 64;
            memcpy(x->data, "node-17", 7);
            x->len = 7;
            log_sys_append(&w, x->kind, 0, 0, 64, x->data, 7);
            break;
        }
        /* A SEAL (6 bytes) may follow the record at once. */
        x->end = w.block == w.w.off ? w.w.off - 6 : w.w.off;
        REQUIRE(x->end > before);
    }
    if (ended)
        log_sys_writer_end(&w);
    *end = w.w.off;
    /* The zeros after the records, as far as a reader looks. */
    *size = w.w.off + 4 * LOG_SYS_BLOCK < w.w.map_size
                ? w.w.off + 4 * LOG_SYS_BLOCK : w.w.map_size;
    *buf = malloc(*size);
    REQUIRE(*buf);
    memcpy(*buf, w.w.map, *size);
    REQUIRE(log_writer_close(&w.w, 0) == 0);
}

static void put_file(const char *path, const uint8_t *buf, size_t len)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    REQUIRE(fd >= 0);
    REQUIRE(write(fd, buf, len) == (ssize_t)len);
    close(fd);
}

/* Reads PATH: the number of records read (each checked against want),
 * -1 when it does not open; its stop reason in WHY. */
static long read_back(const char *path, char *why, size_t whylen)
{
    struct log_sys s;
    struct log_sys_cursor c;
    struct log_sys_rec r;
    char err[512];
    if (log_sys_open(&s, path, err, sizeof err) < 0) {
        snprintf(why, whylen, "%s", err);
        return -1;
    }
    long n = 0;
    log_sys_start(&c);
    while (log_sys_next(&s, &c, &r)) {
        if (n >= NREC) {
            CHECK_MSG(0, "more records than written");
            break;
        }
        const struct want *x = &want[n];
        int same = r.kind == x->kind && r.ret == x->ret && r.arg == x->arg &&
                   r.err == x->err && r.len == x->len &&
                   (!x->len || memcmp(r.data, x->data, x->len) == 0) &&
                   !!(r.flags & LOG_SYS_ERRNO) == !!x->err;
        if (!same) {
            CHECK_MSG(0, "%s: record %ld misread (kind %d, want %d)", path, n,
                      r.kind, x->kind);
            break;
        }
        n++;
    }
    CHECK_INT_EQ(n, (long)s.nrecs);
    snprintf(why, whylen, "%s", s.stop_reason);
    log_sys_release(&s);
    return n;
}

/* Records whose end is at or before byte K. */
static long whole_before(size_t k)
{
    long n = 0;
    while (n < NREC && want[n].end <= k)
        n++;
    return n;
}

TEST(roundtrip)
{
    uint8_t *buf;
    size_t size, end;
    char path[256], why[600];
    write_stream("rank-2.sys", 1, &buf, &size, &end);
    snprintf(path, sizeof path, "%s/rank-2.sys", dir);
    CHECK_INT_EQ(read_back(path, why, sizeof why), NREC);
    CHECK_STR_EQ(why, "");
    CHECK(end > LOG_HEADER_SIZE + 3 * LOG_SYS_BLOCK); /* several SEALs */
    struct log_sys s;
    char err[200];
    REQUIRE(log_sys_open(&s, path, err, sizeof err) == 0);
    CHECK_INT_EQ(s.unsealed, 0);
    CHECK_INT_EQ(s.hdr.version, LOG_SYS_VERSION);
    log_sys_release(&s);
    free(buf);
}

/* Whether the LEN bytes at BYTES, written to PATH, read as the records
 * that end at or before byte K, stopping as incomplete (HOW: the cut). */
static int reads_to(const char *path, const uint8_t *bytes, size_t len,
                    size_t k, const char *how)
{
    char why[600];
    long want_n = whole_before(k);
    put_file(path, bytes, len);
    long n = read_back(path, why, sizeof why);
    if (n == want_n && strncmp(why, "incomplete", 10) == 0)
        return 1;
    CHECK_MSG(0, "%s %zu: %ld records (want %ld): %s", how, k, n, want_n,
              why);
    return 0;
}

/* A process killed at any point: the file cut at every byte (shorter, or
 * zeros after the cut as a lost page leaves them). */
TEST(cut_at_every_byte)
{
    uint8_t *buf;
    size_t size, end;
    char path[256];
    write_stream("rank-2.sys.2", 0, &buf, &size, &end);
    snprintf(path, sizeof path, "%s/cut.sys", dir);
    uint8_t *z = calloc(1, size);
    REQUIRE(z);
    int bad = 0;
    for (size_t k = LOG_HEADER_SIZE; k <= end && bad < 5; k++) {
        bad += !reads_to(path, buf, k, k, "cut at");
        memcpy(z, buf, k);
        memset(z + k, 0, size - k);
        bad += !reads_to(path, z, size, k, "zeros from");
    }
    free(z);
    free(buf);
}

/* A finished stream with one byte changed anywhere (but the header's
 * flags and recorder time, which change as the rank runs): refused, or
 * read up to the damage and reported. */
TEST(flipped_byte_reported)
{
    uint8_t *buf;
    size_t size, end;
    char path[256], why[600];
    write_stream("rank-2.sys.3", 1, &buf, &size, &end);
    snprintf(path, sizeof path, "%s/flip.sys", dir);
    size_t fl = offsetof(struct log_file_header, flags),
           rn = offsetof(struct log_file_header, recorder_ns);
    int bad = 0;
    for (size_t i = 0; i < end + 64 && bad < 5; i++) {
        if ((i >= fl && i < fl + 4) || (i >= rn && i < rn + 8))
            continue;
        for (int m = 0; m < 2; m++) {
            uint8_t old = buf[i];
            buf[i] ^= m ? 0x80 : 0x01;
            put_file(path, buf, size);
            buf[i] = old;
            long n = read_back(path, why, sizeof why);
            if (n >= 0 && strncmp(why, "corrupt", 7) != 0) {
                CHECK_MSG(0, "byte %zu ^ %s: %ld records, reason '%s'", i,
                          m ? "0x80" : "0x01", n, why);
                bad++;
            }
        }
    }
    free(buf);
}

/* A stream of another layout is refused by name. */
TEST(other_versions)
{
    struct log_writer w;
    struct log_file_header h;
    char path[256], err[512];
    struct log_sys s;
    int dfd = open(dir, O_RDONLY | O_DIRECTORY);
    REQUIRE(dfd >= 0);
    header(&h);
    REQUIRE(log_writer_openat_version(&w, dfd, "old.sys", &h, 4) == 0);
    log_writer_close(&w, 0);
    REQUIRE(log_writer_openat_version(&w, dfd, "new.sys", &h,
                                      LOG_SYS_VERSION + 1) == 0);
    log_writer_close(&w, 0);
    close(dfd);
    snprintf(path, sizeof path, "%s/old.sys", dir);
    CHECK_INT_EQ(log_sys_open(&s, path, err, sizeof err), -EPROTO);
    CHECK_MSG(strstr(err, "record the run again"), "%s", err);
    snprintf(path, sizeof path, "%s/new.sys", dir);
    CHECK_INT_EQ(log_sys_open(&s, path, err, sizeof err), -EPROTO);
    CHECK_MSG(strstr(err, "upgrade drdb"), "%s", err);
}

int main(void)
{
    snprintf(dir, sizeof dir, "%s/drdb-test-sys-XXXXXX",
             access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    RUN(roundtrip);
    RUN(cut_at_every_byte);
    RUN(flipped_byte_reported);
    RUN(other_versions);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        printf("# could not remove %s\n", dir);
    return check_done();
}
