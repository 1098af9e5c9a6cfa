/* The log format: write with log_writer, read back with log_rank; damaged
 * logs (truncated or corrupted at any offset) read cleanly up to the damage. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "log-codec.h"
#include "log-compress.h"
#include "log-reader.h"
#include "log-sys.h"
#include "log-writer.h"
#include "log.h"

static char dir[] = "/tmp/drdb-test-log-XXXXXX";
static char path[128];

/* A new log of rank 3 of 4 at P. */
static void open_log(struct log_writer *w, const char *p)
{
    struct log_file_header h = {0};
    memcpy(h.magic, LOG_MAGIC, 8);
    h.version = LOG_VERSION;
    h.header_size = LOG_HEADER_SIZE;
    h.rank = 3;
    h.world_size = 4;
    unlink(p);
    REQUIRE(log_writer_open(w, p, &h) == 0);
}

/* Added to the index of each event's DATA field's length (write_log):
 * another log than the usual one with the same number of events. */
static int data_shift;

/* Writes N events of MPI_Recv with a DATA field of (i % 50) bytes. */
static void write_log(const char *p, int n, int close_it)
{
    struct log_writer w;
    open_log(&w, p);
    for (int i = 0; i < n; i++) {
        struct log_rec rec;
        uint8_t data[64];
        for (int k = 0; k < 64; k++)
            data[k] = (uint8_t)(i + k);
        unsigned flags = i % 7 == 3 ? LOG_REC_RET : 0;
        REQUIRE(log_writer_begin(&w, &rec, 200, LOG_FN_MPI_Recv, flags,
                                 (uint64_t)i * 1000, 10 + (uint64_t)i));
        if (flags & LOG_REC_RET)
            log_put_varint(&rec, (uint64_t)(i * 2 + 1)); /* zigzag: -(i+1) */
        /* by-value: count, datatype, source, tag, comm */
        log_put_arg_int(&rec, i);
        log_put_arg_handle(&rec, 0x4c00040a);
        log_put_arg_int(&rec, i % 5 == 4 ? -2 : i % 4);
        log_put_arg_int(&rec, 100 + i);
        log_put_arg_handle(&rec, i % 2 ? 0x44000000 : 0x84000003);
        log_put_field(&rec, 0, LOG_F_DATA, 0,
                      (uint64_t)((i + data_shift) % 50));
        log_put_bytes(&rec, data, (size_t)((i + data_shift) % 50));
        log_writer_commit(&w, &rec);
    }
    if (close_it)
        REQUIRE(log_writer_close(&w, 1234) == 0);
    else
        close(w.fd); /* as if killed: the mapping's contents are in the file */
}

/* Checks events [0, n) read back exactly as written. */
static void check_events(const struct log_rank *r, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++) {
        struct log_event ev;
        struct log_field f;
        char err[200];
        REQUIRE(log_rank_event(r, i, &ev, err, sizeof err) == 0);
        CHECK_INT_EQ(ev.fn, LOG_FN_MPI_Recv);
        CHECK_INT_EQ(ev.enter_ns, i * 1000);
        CHECK_INT_EQ(ev.dur_ns, 10 + i);
        CHECK_INT_EQ(ev.ret, i % 7 == 3 ? -(int64_t)(i + 1) : 0);
        CHECK_INT_EQ(log_event_arg(&ev, 1), (int64_t)i);     /* count */
        CHECK_INT_EQ(log_event_arg(&ev, 2), 0x4c00040a); /* datatype */
        CHECK_INT_EQ(log_event_arg(&ev, 3),
                     i % 5 == 4 ? -2 : (int64_t)(i % 4)); /* source */
        CHECK_INT_EQ(log_event_arg(&ev, 4), 100 + (int64_t)i); /* tag */
        /* comm: a handle with the top bit set reads back sign-extended,
         * as (int64_t)(int32_t)comm */
        CHECK_INT_EQ(log_event_arg(&ev, 5),
                     i % 2 ? 0x44000000 : (int32_t)0x84000003);
        int64_t vals[8];
        CHECK_INT_EQ(log_event_args(&ev, vals, 8), 5);
        CHECK_INT_EQ(vals[0], (int64_t)i);
        CHECK_INT_EQ(vals[4], log_event_arg(&ev, 5));
        REQUIRE(log_event_find(&ev, 0, LOG_F_DATA, &f));
        CHECK_INT_EQ(f.len, i % 50);
        for (uint64_t k = 0; k < f.len; k++)
            CHECK(f.data[k] == (uint8_t)(i + k));
    }
}

TEST(roundtrip)
{
    struct log_rank r;
    char err[200];
    write_log(path, 1000, 1);
    REQUIRE(log_rank_open(&r, path, err, sizeof err) == 0);
    CHECK_INT_EQ(r.nevents, 1000);
    CHECK_STR_EQ(r.stop_reason, "");
    CHECK(r.hdr.flags & LOG_HDR_COMPLETE);
    CHECK_INT_EQ(r.hdr.rank, 3);
    CHECK_INT_EQ(r.hdr.recorder_ns, 1234);
    check_events(&r, 1000);
    struct log_event ev;
    CHECK(log_rank_event(&r, 1000, &ev, err, sizeof err) == -ERANGE);
    log_rank_release(&r);
}

/* The reader keeps the offset and time of every LOG_RANK_STRIDE-th record
 * only: any record, in any order, from any of two logs read in turn, reads
 * back as written (its time, its count), and each starts where the one
 * before it ended. */
TEST(random_access)
{
    struct log_rank r, r2;
    char err[200], path2[160];
    snprintf(path2, sizeof path2, "%s/second.log", dir);
    write_log(path, 1000, 1);
    data_shift = 17; /* records of other sizes */
    write_log(path2, 300, 1);
    data_shift = 0;
    REQUIRE(log_rank_open(&r, path, err, sizeof err) == 0);
    REQUIRE(log_rank_open(&r2, path2, err, sizeof err) == 0);
    CHECK(log_rank_table_bytes(&r) < 1000 * 2);
    uint64_t seed = 7;
    for (int q = 0; q < 5000; q++) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        const struct log_rank *lr = q % 3 == 2 ? &r2 : &r;
        /* backwards, forwards, and at random */
        uint64_t i = (q < 1000 ? 999 - (uint64_t)q
                      : q < 2000 ? (uint64_t)q - 1000
                                 : seed >> 17) % lr->nevents;
        struct log_event ev;
        REQUIRE(log_rank_event(lr, i, &ev, err, sizeof err) == 0);
        CHECK_MSG(ev.enter_ns == i * 1000 && log_event_arg(&ev, 1) ==
                  (int64_t)i, "query %d: event %llu", q,
                  (unsigned long long)i);
        CHECK_INT_EQ(log_rank_enter(lr, i), i * 1000);
        if (i + 1 < lr->nevents) {
            uint64_t size;
            unsigned fixed;
            uint64_t off = log_rank_offset(lr, i);
            REQUIRE(log_rec_size(lr->map + off, lr->size - off, &size,
                                 &fixed) == 0);
            CHECK_INT_EQ(log_rank_offset(lr, i + 1), off + size);
        }
    }
    CHECK_INT_EQ(log_rank_offset(&r, 0), LOG_HEADER_SIZE);
    log_rank_release(&r);
    log_rank_release(&r2);
}

TEST(private_mode)
{
    struct stat st;
    write_log(path, 1, 1);
    REQUIRE(stat(path, &st) == 0);
    CHECK_INT_EQ(st.st_mode & 0777, 0600);
}

TEST(killed_writer_reads_to_last_record)
{
    struct log_rank r;
    char err[200];
    write_log(path, 300, 0);
    REQUIRE(log_rank_open(&r, path, err, sizeof err) == 0);
    CHECK_INT_EQ(r.nevents, 300);
    CHECK(strncmp(r.stop_reason, "incomplete", 10) == 0);
    check_events(&r, 300);
    log_rank_release(&r);
}

static void copy_prefix(const char *src, const char *dst, off_t len,
                        off_t flip)
{
    int in = open(src, O_RDONLY), out = open(dst, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    char *buf = malloc((size_t)len + 1);
    REQUIRE(in >= 0 && out >= 0 && buf);
    REQUIRE(read(in, buf, (size_t)len) == len);
    if (flip >= 0 && flip < len)
        buf[flip] ^= 0x5a;
    REQUIRE(write(out, buf, (size_t)len) == len);
    free(buf);
    close(in);
    close(out);
}

/* Every truncation point: the reader keeps the complete records before it,
 * never crashes, and says why it stopped. */
TEST(truncated_at_every_offset)
{
    char cut[160];
    struct stat st;
    snprintf(cut, sizeof cut, "%s/cut.log", dir);
    write_log(path, 40, 1);
    REQUIRE(stat(path, &st) == 0);
    struct log_rank full;
    char err[200];
    REQUIRE(log_rank_open(&full, path, err, sizeof err) == 0);
    for (off_t len = 0; len < st.st_size; len++) {
        struct log_rank r;
        copy_prefix(path, cut, len, -1);
        int rc = log_rank_open(&r, cut, err, sizeof err);
        if (len < LOG_HEADER_SIZE) {
            CHECK_MSG(rc == -EINVAL, "len %ld rc %d", (long)len, rc);
            continue;
        }
        REQUIRE(rc == 0);
        /* Complete records: those that end at or before LEN. */
        uint64_t want = 0;
        while (want < full.nevents &&
               (want + 1 == full.nevents
                    ? (uint64_t)st.st_size
                    : log_rank_offset(&full, want + 1)) <= (uint64_t)len)
            want++;
        CHECK_MSG(r.nevents == want, "len %ld: %llu events, want %llu",
                  (long)len, (unsigned long long)r.nevents,
                  (unsigned long long)want);
        if (len < st.st_size && len > LOG_HEADER_SIZE &&
            (uint64_t)len !=
                log_rank_offset(&full, want < full.nevents ? want : 0))
            CHECK_MSG(strncmp(r.stop_reason, "corrupt", 7) == 0,
                      "len %ld: '%s'", (long)len, r.stop_reason);
        check_events(&r, r.nevents);
        log_rank_release(&r);
    }
    log_rank_release(&full);
}

/* A flipped byte anywhere after the header: the records before it read
 * back exactly, nothing after it is trusted. */
TEST(corrupted_at_every_offset)
{
    char bad[160];
    struct stat st;
    struct log_rank full;
    char err[200];
    snprintf(bad, sizeof bad, "%s/bad.log", dir);
    write_log(path, 30, 1);
    REQUIRE(stat(path, &st) == 0);
    REQUIRE(log_rank_open(&full, path, err, sizeof err) == 0);
    for (off_t at = LOG_HEADER_SIZE; at < st.st_size; at++) {
        struct log_rank r;
        copy_prefix(path, bad, st.st_size, at);
        REQUIRE(log_rank_open(&r, bad, err, sizeof err) == 0);
        uint64_t hit = 0; /* the record holding byte AT */
        while (hit + 1 < full.nevents &&
               log_rank_offset(&full, hit + 1) <= (uint64_t)at)
            hit++;
        CHECK_MSG(r.nevents == hit, "flip at %ld: %llu events, want %llu",
                  (long)at, (unsigned long long)r.nevents,
                  (unsigned long long)hit);
        CHECK_MSG(r.stop_reason[0] != '\0', "flip at %ld: no reason",
                  (long)at);
        check_events(&r, r.nevents);
        log_rank_release(&r);
    }
    log_rank_release(&full);
}

TEST(not_a_log)
{
    struct log_rank r;
    char err[200], p[160];
    snprintf(p, sizeof p, "%s/junk", dir);
    int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    char junk[512];
    memset(junk, 'x', sizeof junk);
    REQUIRE(write(fd, junk, sizeof junk) == (ssize_t)sizeof junk);
    close(fd);
    CHECK(log_rank_open(&r, p, err, sizeof err) == -EINVAL);
    CHECK(strstr(err, "not a drdb log") != NULL);
    CHECK(log_rank_open(&r, "/nonexistent/x.log", err, sizeof err) == -ENOENT);
    CHECK(strstr(err, "/nonexistent/x.log") != NULL);
}

/* Every argument encoding round-trips its extremes (MPI_Type_create_hvector:
 * int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype;
 * MPI_File_close's MPI_File is a 64-bit handle). */
TEST(argument_encodings)
{
    static const int32_t ints[] = {0, 1, -1, 63, -64, 64, INT32_MAX, INT32_MIN};
    static const int64_t aints[] = {0, -1, 1, INT64_MAX, INT64_MIN,
                                    (int64_t)1 << 40};
    static const uint32_t handles[] = {0x4c000405, 0x44000000, 0x8c000005,
                                       0xffffffff, 0, 0x0c000000};
    const char *p = "/tmp/drdb-test-log-enc.log";
    struct log_file_header h;
    struct log_writer w;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, LOG_MAGIC, 8);
    h.version = LOG_VERSION;
    h.header_size = LOG_HEADER_SIZE;
    h.world_size = 1;
    unlink(p);
    REQUIRE(log_writer_open(&w, p, &h) == 0);
    int n = 0;
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
        for (size_t k = 0; k < sizeof aints / sizeof aints[0]; k++, n++) {
            struct log_rec rec;
            REQUIRE(log_writer_begin(&w, &rec, 64,
                                     LOG_FN_MPI_Type_create_hvector, 0, 0, 0));
            log_put_arg_int(&rec, ints[i]);
            log_put_arg_int(&rec, -ints[i] - 1);
            log_put_arg_aint(&rec, aints[k]);
            log_put_arg_handle(&rec, handles[k]);
            log_writer_commit(&w, &rec);
        }
    struct log_rec rec;
    REQUIRE(log_writer_begin(&w, &rec, 64, LOG_FN_MPI_File_close, 0, 0, 0));
    log_writer_commit(&w, &rec);
    REQUIRE(log_writer_close(&w, 0) == 0);

    struct log_rank r;
    char err[200];
    REQUIRE(log_rank_open(&r, p, err, sizeof err) == 0);
    CHECK_INT_EQ(r.nevents, (uint64_t)n + 1);
    n = 0;
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
        for (size_t k = 0; k < sizeof aints / sizeof aints[0]; k++, n++) {
            struct log_event ev;
            REQUIRE(log_rank_event(&r, (uint64_t)n, &ev, err, sizeof err) == 0);
            CHECK_INT_EQ(log_event_arg(&ev, 0), ints[i]);
            CHECK_INT_EQ(log_event_arg(&ev, 1), -(int64_t)ints[i] - 1 ==
                         (int64_t)INT32_MAX + 1 ? INT32_MIN
                                                : -(int64_t)ints[i] - 1);
            CHECK_INT_EQ(log_event_arg(&ev, 2), aints[k]);
            CHECK_INT_EQ(log_event_arg(&ev, 3), (int32_t)handles[k]);
            CHECK_INT_EQ(ev.fields_len, 0);
        }
    log_rank_release(&r);
    unlink(p);
}

/* log_compress_file: DATA fields of 64 bytes and more shrink when zstd can
 * shrink them; every field reads back as it was written; a compressed field
 * that does not inflate is an error, never a crash. */
static void compress_roundtrip(int large)
{
    const char *p = "/tmp/drdb-test-log-z.log";
    static uint8_t data[5000];
    struct log_file_header h;
    struct log_writer w;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, LOG_MAGIC, 8);
    h.version = LOG_VERSION;
    h.header_size = LOG_HEADER_SIZE;
    h.world_size = 1;
    unlink(p);
    REQUIRE(log_writer_open(&w, p, &h) == 0);
    /* Lengths around the threshold; compressible (i % 3 != 2) or not. */
    static const size_t lens[] = {0, 8, 63, 64, 65, 1000, 5000};
    uint32_t seed = 12345;
    int n = 0;
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++)
        for (int mode = 0; mode < 3; mode++, n++) {
            for (size_t k = 0; k < lens[i]; k++) {
                seed = seed * 1103515245u + 12345u;
                data[k] = mode == 2 ? (uint8_t)(seed >> 16)
                                    : (uint8_t)(k % 7 + mode);
            }
            struct log_rec rec;
            /* LARGE: every other record in the framing of records over
             * 4 GiB. */
            log_writer_large_from = large && n % 2 ? 0 : UINT32_MAX;
            REQUIRE(log_writer_begin(&w, &rec, lens[i] + 100,
                                     LOG_FN_MPI_Recv, 0, 0, 0));
            for (int a = 0; a < 5; a++)
                log_put_arg_int(&rec, a);
            log_put_field(&rec, 0, LOG_F_DATA, 0, lens[i]);
            log_put_bytes(&rec, data, lens[i]);
            log_put_handle(&rec, 6, LOG_F_HANDLE, 0, 0xac000000u + (unsigned)n);
            log_writer_commit(&w, &rec);
        }
    REQUIRE(log_writer_close(&w, 0) == 0);
    log_writer_large_from = UINT32_MAX;
    if (large) {
        /* The framing as written, and as read back before compression. */
        struct log_rank r0;
        char err0[200];
        REQUIRE(log_rank_open(&r0, p, err0, sizeof err0) == 0);
        CHECK_INT_EQ(r0.nevents, (uint64_t)n);
        CHECK_STR_EQ(r0.stop_reason, "");
        uint32_t s0, s1;
        memcpy(&s0, r0.map + log_rank_offset(&r0, 0), 4);
        memcpy(&s1, r0.map + log_rank_offset(&r0, 1), 4);
        CHECK(s0 != LOG_REC_LARGE && s1 == LOG_REC_LARGE);
        log_rank_release(&r0);
    }

    uint64_t before, after;
    char err[200];
    REQUIRE(log_compress_file(p, NULL, &before, &after, err, sizeof err) == 0);
    CHECK_MSG(after < before, "%llu -> %llu bytes", (unsigned long long)before,
              (unsigned long long)after);
    CHECK_INT_EQ(log_compress_file(p, NULL, &before, &after, err, sizeof err), 1);

    struct log_rank r;
    REQUIRE(log_rank_open(&r, p, err, sizeof err) == 0);
    CHECK(r.hdr.flags & LOG_HDR_COMPRESSED);
    CHECK(r.hdr.flags & LOG_HDR_COMPLETE);
    CHECK_INT_EQ(r.nevents, (uint64_t)n);
    CHECK_STR_EQ(r.stop_reason, "");
    seed = 12345;
    n = 0;
    int zfields = 0;
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++)
        for (int mode = 0; mode < 3; mode++, n++) {
            for (size_t k = 0; k < lens[i]; k++) {
                seed = seed * 1103515245u + 12345u;
                data[k] = mode == 2 ? (uint8_t)(seed >> 16)
                                    : (uint8_t)(k % 7 + mode);
            }
            struct log_event ev;
            struct log_field f;
            REQUIRE(log_rank_event(&r, (uint64_t)n, &ev, err, sizeof err) == 0);
            CHECK_INT_EQ(log_event_arg(&ev, 4), 3); /* tag */
            /* Stored compressed? (the raw field kind, before inflation) */
            size_t cur = 0;
            zfields += ev.fields[1] == LOG_F_DATA_ZSTD;
            REQUIRE(log_event_field(&ev, &cur, &f) == 1);
            CHECK_INT_EQ(f.kind, LOG_F_DATA);
            CHECK_INT_EQ(f.len, lens[i]);
            CHECK(f.len == 0 || memcmp(f.data, data, f.len) == 0);
            uint32_t hv = 0;
            REQUIRE(log_event_field(&ev, &cur, &f) == 1);
            CHECK(f.kind == LOG_F_HANDLE && log_field_handle(&f, &hv) == 0 &&
                  hv == 0xac000000u + (unsigned)n);
            CHECK_INT_EQ(log_event_field(&ev, &cur, &f), 0);
        }
    /* 64, 65, 1000 and 5000 bytes, compressible: 8 fields. */
    CHECK_INT_EQ(zfields, 8);
    log_rank_release(&r);

    /* A DATA_ZSTD field whose frame is garbage (CRC intact). */
    unlink(p);
    REQUIRE(log_writer_open(&w, p, &h) == 0);
    struct log_rec rec;
    REQUIRE(log_writer_begin(&w, &rec, 100, LOG_FN_MPI_Recv, 0, 0, 0));
    for (int a = 0; a < 5; a++)
        log_put_arg_int(&rec, a);
    log_put_field(&rec, 0, LOG_F_DATA_ZSTD, 0, 10);
    log_put_bytes(&rec, "\x40garbage!", 10);
    log_writer_commit(&w, &rec);
    REQUIRE(log_writer_close(&w, 0) == 0);
    REQUIRE(log_rank_open(&r, p, err, sizeof err) == 0);
    struct log_event ev;
    struct log_field f;
    size_t cur = 0;
    REQUIRE(log_rank_event(&r, 0, &ev, err, sizeof err) == 0);
    CHECK_INT_EQ(log_event_field(&ev, &cur, &f), -EINVAL);
    log_rank_release(&r);
    unlink(p);
}

TEST(compression)
{
    compress_roundtrip(0);
}

/* Records in the framing of records of 4 GiB and more (LOG_REC_LARGE),
 * mixed with ordinary ones: read, compressed and read again the same. */
TEST(large_records)
{
    compress_roundtrip(1);
}

/* Payloads written with pwrite (log_writer_put_big): records with none,
 * one, and more than LOG_WRITER_SEGS of them between ordinary fields, in
 * both framings, read back (every record's checksum checked) as written;
 * a payload byte changed is found, but not by the trusted opening; then
 * the file is cut inside a payload, as by a writer killed there: the
 * records before it read. */
TEST(payloads_written_apart)
{
    const char *p = "/tmp/drdb-test-log-big.log";
    static uint8_t data[3 * 70000];
    struct log_writer w;
    for (size_t k = 0; k < sizeof data; k++)
        data[k] = (uint8_t)(k * 7 + (k >> 8));
    open_log(&w, p);
    size_t was_big = log_writer_big_from;
    log_writer_big_from = 1000;
    static const int npay[] = {0, 1, 3, LOG_WRITER_SEGS + 3, 2};
    static const size_t plen[] = {999, 1000, 70001, 4096};
    for (int n = 0; n < 10; n++) {
        struct log_rec rec;
        log_writer_large_from = n % 2 ? 0 : UINT32_MAX;
        REQUIRE(log_writer_begin(&w, &rec, 20 * 70100, LOG_FN_MPI_Recv, 0,
                                 0, 0));
        for (int a = 0; a < 5; a++)
            log_put_arg_int(&rec, a);
        for (int i = 0; i < npay[n % 5]; i++) {
            size_t len = plen[(n + i) % 4];
            log_put_field(&rec, 0, LOG_F_DATA, (uint64_t)i, len);
            log_writer_put_big(&w, &rec, data + i, len);
        }
        log_put_handle(&rec, 6, LOG_F_HANDLE, 0, 0xac000000u + (unsigned)n);
        log_writer_commit(&w, &rec);
    }
    size_t cut = 0;
    REQUIRE(log_writer_close(&w, 0) == 0);
    log_writer_large_from = UINT32_MAX;
    log_writer_big_from = was_big;

    struct log_rank r;
    char err[200];
    REQUIRE(log_rank_open(&r, p, err, sizeof err) == 0);
    CHECK_STR_EQ(r.stop_reason, "");
    CHECK_INT_EQ(r.nevents, 10);
    for (int n = 0; n < 10; n++) {
        struct log_event ev;
        struct log_field f;
        size_t cur = 0;
        REQUIRE(log_rank_event(&r, (uint64_t)n, &ev, err, sizeof err) == 0);
        for (int i = 0; i < npay[n % 5]; i++) {
            size_t len = plen[(n + i) % 4];
            REQUIRE(log_event_field(&ev, &cur, &f) == 1);
            CHECK(f.kind == LOG_F_DATA && f.len == len &&
                  memcmp(f.data, data + i, len) == 0);
        }
        uint32_t hv = 0;
        REQUIRE(log_event_field(&ev, &cur, &f) == 1);
        CHECK(log_field_handle(&f, &hv) == 0 &&
              hv == 0xac000000u + (unsigned)n);
        if (n == 3)
            cut = (size_t)log_rank_offset(&r, 3) + 40000;
    }
    log_rank_release(&r);
    /* A byte of a payload changed: the reader stops at its record; drdb
     * record's trusted opening, which reads no payload, does not. */
    int fd = open(p, O_RDWR);
    REQUIRE(fd >= 0);
    REQUIRE(pwrite(fd, "\xff", 1, (off_t)cut) == 1);
    close(fd);
    REQUIRE(log_rank_open(&r, p, err, sizeof err) == 0);
    CHECK_INT_EQ(r.nevents, 3);
    CHECK(strncmp(r.stop_reason, "corrupt", 7) == 0);
    log_rank_release(&r);
    REQUIRE(log_rank_open_trusted(&r, p, err, sizeof err) == 0);
    CHECK_INT_EQ(r.nevents, 10);
    CHECK_STR_EQ(r.stop_reason, "");
    log_rank_release(&r);
    REQUIRE(truncate(p, (off_t)cut) == 0);
    REQUIRE(log_rank_open(&r, p, err, sizeof err) == 0);
    CHECK_INT_EQ(r.nevents, 3);
    log_rank_release(&r);
    unlink(p);
}

/* Window diffs: changes around the 64 KiB steps the search takes, a run
 * across one, the first and last bytes; written, read back and applied to
 * zeros they give the memory again; the shadow is then the memory, and a
 * second diff logs nothing (rec-shm.c's two passes rely on it). */
TEST(windiff_roundtrip)
{
    enum { SIZE = 200000 };
    static uint8_t mem[SIZE], shadow[SIZE], replay[SIZE];
    const uint64_t at[] = {0, 1, 65535, 65536, 65537, 131000, 131071,
                           131072, 199999};
    memset(mem, 0, sizeof mem);
    memset(shadow, 0, sizeof shadow);
    memset(replay, 0, sizeof replay);
    for (size_t i = 0; i < sizeof at / sizeof at[0]; i++)
        mem[at[i]] = (uint8_t)(i + 1);
    for (int k = 65000; k < 66100; k += 3)
        mem[k] = (uint8_t)k | 1;

    struct log_writer w;
    open_log(&w, path);
    struct log_rec rec;
    REQUIRE(log_writer_begin(&w, &rec, 2 * log_windiff_room(SIZE),
                             LOG_FN_MPI_Barrier, 0, 0, 1));
    log_put_arg_handle(&rec, 0x44000000);
    uint8_t *start = rec.p;
    log_put_windiff(&rec, 7, mem, shadow, SIZE);
    CHECK((size_t)(rec.p - start) <= log_windiff_room(SIZE));
    CHECK(memcmp(mem, shadow, SIZE) == 0);
    uint8_t *second = rec.p;
    log_put_windiff(&rec, 7, mem, shadow, SIZE);
    CHECK(rec.p == second);
    log_writer_commit(&w, &rec);
    REQUIRE(log_writer_close(&w, 1) == 0);

    struct log_rank r;
    struct log_event ev;
    struct log_field f;
    struct log_windiff d;
    char err[200];
    uint64_t off, len;
    const uint8_t *bytes;
    REQUIRE(log_rank_open(&r, path, err, sizeof err) == 0);
    REQUIRE(log_rank_event(&r, 0, &ev, err, sizeof err) == 0);
    REQUIRE(log_event_find(&ev, LOG_ARG_NONE, LOG_F_WINDIFF, &f));
    CHECK_INT_EQ(f.elem, 7);
    log_windiff_init(&d, &f, SIZE);
    int rc;
    while ((rc = log_windiff_next(&d, &off, &bytes, &len)) > 0)
        memcpy(replay + off, bytes, len);
    CHECK_INT_EQ(rc, 0);
    CHECK(memcmp(mem, replay, SIZE) == 0);
    log_windiff_init(&d, &f, SIZE - 1); /* a run past a smaller region */
    while ((rc = log_windiff_next(&d, &off, &bytes, &len)) > 0)
        ;
    CHECK_INT_EQ(rc, -EINVAL);
    log_rank_release(&r);
    unlink(path);
}

/* LOG_REC_CALLBACK: an entry (its callback read back by log_event_cb) and
 * a call made inside a callback at depth 2 read back with their depth; a
 * record with a flag the reader does not know ends the log there. */
TEST(callback_records)
{
    const char *p = "/tmp/drdb-test-log-cb.log";
    struct log_file_header h;
    struct log_writer w;
    struct log_rec rec;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, LOG_MAGIC, 8);
    h.version = LOG_VERSION;
    h.header_size = LOG_HEADER_SIZE;
    h.world_size = 1;
    unlink(p);
    REQUIRE(log_writer_open(&w, p, &h) == 0);
    REQUIRE(log_writer_begin(&w, &rec, 64, LOG_FN_MPI_Comm_create_keyval,
                             LOG_REC_CALLBACK, 0, 0));
    log_put_varint(&rec, 1u << 1 | LOG_CB_ENTRY);
    struct log_cb in = {LOG_CB_DELETE, (int32_t)0xa4400001, 0xc4000003u, 0};
    log_put_cb(&rec, &in);
    log_writer_commit(&w, &rec);
    REQUIRE(log_writer_begin(&w, &rec, 64, LOG_FN_MPI_Comm_rank,
                             LOG_REC_CALLBACK | LOG_REC_RET, 0, 0));
    log_put_varint(&rec, 10); /* ret 5, zigzag */
    log_put_varint(&rec, 2u << 1);
    log_put_arg_handle(&rec, 0x44000000u);
    log_writer_commit(&w, &rec);
    REQUIRE(log_writer_begin(&w, &rec, 64, LOG_FN_MPI_Comm_free, 0, 0, 0));
    log_writer_commit(&w, &rec);
    REQUIRE(log_writer_begin(&w, &rec, 64, LOG_FN_MPI_Barrier, 1u << 15, 0,
                             0));
    log_put_arg_handle(&rec, 0x44000000u);
    log_writer_commit(&w, &rec);
    REQUIRE(log_writer_close(&w, 0) == 0);

    struct log_rank r;
    struct log_event ev;
    struct log_cb out;
    char err[200];
    REQUIRE(log_rank_open(&r, p, err, sizeof err) == 0);
    CHECK_INT_EQ(r.nevents, 3);
    CHECK(strstr(r.stop_reason, "unknown record flags 0x8000") != NULL);
    REQUIRE(log_rank_event(&r, 0, &ev, err, sizeof err) == 0);
    CHECK_INT_EQ(ev.depth, 1);
    CHECK_INT_EQ(ev.cb_entry, 1);
    REQUIRE(log_event_cb(&ev, &out) == 0);
    CHECK_INT_EQ(out.what, LOG_CB_DELETE);
    CHECK_INT_EQ((uint32_t)out.handle, 0xa4400001u);
    CHECK_INT_EQ(out.obj, 0xc4000003u);
    REQUIRE(log_rank_event(&r, 1, &ev, err, sizeof err) == 0);
    CHECK_INT_EQ(ev.depth, 2);
    CHECK_INT_EQ(ev.cb_entry, 0);
    CHECK_INT_EQ(ev.ret, 5);
    CHECK_INT_EQ(log_event_arg(&ev, 0), 0x44000000);
    CHECK(log_event_cb(&ev, &out) < 0);
    REQUIRE(log_rank_event(&r, 2, &ev, err, sizeof err) == 0);
    CHECK_INT_EQ(ev.depth, 0);
    log_rank_release(&r);
    unlink(p);
}

/* The libc streams' names: by thread number, read back by the parser. */
TEST(sys_stream_names)
{
    static const struct {
        uint64_t thread;
        uint32_t nth;
        const char *name, *file;
    } cases[] = {
        {0, 0, "0", "rank-2.sys"},
        {1, 0, "1", "rank-2.sys.1"},
        {(1u << 16) | 2, 0, "1.2", "rank-2.sys.1.2"},
        {(3ull << 32) | (1u << 16) | 65535, 0, "3.1.65535",
         "rank-2.sys.3.1.65535"},
        {LOG_SYS_UNNUMBERED, 4, "u4", "rank-2.sys.u4"},
    };
    char buf[96];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        uint64_t t;
        uint32_t n;
        log_sys_thread_name(buf, sizeof buf, cases[i].thread, cases[i].nth);
        CHECK_STR_EQ(buf, cases[i].name);
        log_sys_name(buf, sizeof buf, 2, cases[i].thread, cases[i].nth);
        CHECK_STR_EQ(buf, cases[i].file);
        REQUIRE(log_sys_thread_parse(cases[i].name, &t, &n) == 0);
        CHECK(t == cases[i].thread);
        CHECK_INT_EQ(n, cases[i].nth);
    }
    static const char *const bad[] = {"", "01", "0.1", "1.", ".1", "1..2",
                                      "65536", "1.2.3.4.5", "u", "u0", "u01",
                                      "unnumbered", "+1", "1 "};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        uint64_t t;
        uint32_t n;
        CHECK_MSG(log_sys_thread_parse(bad[i], &t, &n) == -EINVAL,
                  "'%s' parsed", bad[i]);
    }
}

/* An operator's entry: the callback (operator, len, datatype) and its
 * vectors read back by log_event_cb_op, a shorter logged prefix than the
 * span included; an entry without geometry, or with more bytes than its
 * span, is malformed; an unknown `what` is no callback. */
TEST(operator_entries)
{
    struct log_writer w;
    struct log_rec rec;
    const int64_t geom[2] = {-8, 24}, bad[2] = {0, 2};
    const uint8_t in[4] = {1, 2, 3, 4}, inout[4] = {5, 6, 7, 8};
    open_log(&w, path);
    for (int k = 0; k < 3; k++) {
        REQUIRE(log_writer_begin(&w, &rec, 160, LOG_FN_MPI_Op_create,
                                 LOG_REC_CALLBACK, 0, 0));
        log_put_varint(&rec, 1u << 1 | LOG_CB_ENTRY);
        log_put_arg_int(&rec, 1); /* commute */
        struct log_cb cb = {k == 2 ? LOG_CB_LAST + 1 : LOG_CB_OP,
                            (int32_t)0x98000000u, 3, 0x4c000405};
        log_put_cb(&rec, &cb);
        log_put_field(&rec, LOG_ARG_NONE, LOG_F_RAW, LOG_CB_OP_GEOM, 16);
        log_put_bytes(&rec, k == 1 ? bad : geom, 16);
        log_put_field(&rec, LOG_ARG_NONE, LOG_F_RAW, LOG_CB_OP_IN, 4);
        log_put_bytes(&rec, in, 4);
        log_put_field(&rec, LOG_ARG_NONE, LOG_F_RAW, LOG_CB_OP_INOUT, 4);
        log_put_bytes(&rec, inout, 4);
        log_writer_commit(&w, &rec);
    }
    REQUIRE(log_writer_close(&w, 0) == 0);

    struct log_rank r;
    struct log_event ev;
    struct log_cb cb;
    struct log_cb_op op;
    char err[200];
    REQUIRE(log_rank_open(&r, path, err, sizeof err) == 0);
    CHECK_INT_EQ(r.nevents, 3);
    REQUIRE(log_rank_event(&r, 0, &ev, err, sizeof err) == 0);
    CHECK_INT_EQ(log_event_arg(&ev, 1), 1);
    REQUIRE(log_event_cb(&ev, &cb) == 0);
    CHECK_INT_EQ(cb.what, LOG_CB_OP);
    CHECK_INT_EQ((uint32_t)cb.handle, 0x98000000u);
    CHECK_INT_EQ(cb.obj, 3);
    CHECK_INT_EQ(cb.code, 0x4c000405);
    REQUIRE(log_event_cb_op(&ev, &op) == 0);
    CHECK_INT_EQ(op.lo, -8);
    CHECK_INT_EQ(op.span, 24);
    CHECK_INT_EQ(op.in_len, 4);
    CHECK_INT_EQ(op.inout_len, 4);
    CHECK(memcmp(op.in, in, 4) == 0 && memcmp(op.inout, inout, 4) == 0);
    REQUIRE(log_rank_event(&r, 1, &ev, err, sizeof err) == 0);
    CHECK(log_event_cb_op(&ev, &op) < 0);
    REQUIRE(log_rank_event(&r, 2, &ev, err, sizeof err) == 0);
    CHECK(log_event_cb(&ev, &cb) < 0);
    log_rank_release(&r);
    unlink(path);
}

int main(void)
{
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    snprintf(path, sizeof path, "%s/rank-3.log", dir);
    RUN(roundtrip);
    RUN(random_access);
    RUN(private_mode);
    RUN(killed_writer_reads_to_last_record);
    RUN(truncated_at_every_offset);
    RUN(corrupted_at_every_offset);
    RUN(not_a_log);
    RUN(argument_encodings);
    RUN(compression);
    RUN(large_records);
    RUN(payloads_written_apart);
    RUN(windiff_roundtrip);
    RUN(callback_records);
    RUN(sys_stream_names);
    RUN(operator_entries);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        printf("# could not remove %s\n", dir);
    return check_done();
}
