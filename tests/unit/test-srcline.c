/* Call sites (log-format.h: LOG_REC_SITE) on written logs: a version 4
 * log, and a version 5 record without one, have none ("unknown"); a site
 * in this test program maps to the line it was taken at; the program
 * under another build id, or missing, gives no line; buffer addresses
 * read back as written; a blocking call's only with LOG_REC_BUFS
 * (version 6). */
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* <elf.h>'s EV_NONE (an ELF version, through libdwfl.h) is not
 * events.h's. */
#undef EV_NONE
#include "check.h"
#include "ev-srcline.h"
#include "log-writer.h"

static char dir[] = "/tmp/drdb-test-srcline-XXXXXX";

/* This program as the recorder sees it: load bias (the first object
 * dl_iterate_phdr names) and build id (elfutils' reading of the file). */
struct self {
    uintptr_t bias;
    const unsigned char *id;
    int idlen;
};

static int self_cb(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    ((struct self *)data)->bias = info->dlpi_addr;
    return 1;
}

static const Dwfl_Callbacks callbacks = {
    .find_elf = dwfl_build_id_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
    .section_address = dwfl_offline_section_address,
};

__attribute__((noinline)) static const void *return_address(void)
{
    return __builtin_return_address(0);
}

/* Starts a run of one rank in DIR: its drdb.run and rank-0.log, version
 * VERSION, open in W. */
static void open_log(struct log_writer *w, uint32_t version)
{
    char p[256];
    snprintf(p, sizeof p, "%s/drdb.run", dir);
    FILE *f = fopen(p, "w");
    REQUIRE(f);
    fprintf(f, "format drdb-run 1\nworld_size 1\n");
    fclose(f);
    struct log_file_header h = {0};
    memcpy(h.magic, LOG_MAGIC, 8);
    h.world_size = 1;
    REQUIRE(log_writer_openat_version(w, AT_FDCWD, "rank-0.log", &h,
                                      version) == 0 ||
            (unlink("rank-0.log") == 0 &&
             log_writer_openat_version(w, AT_FDCWD, "rank-0.log", &h,
                                       version) == 0));
}

/* Writes DIR/rank-0.log, version VERSION, of one MPI_Isend record; with
 * SITE, called from OFF in object 0 (PATH, build id ID) and its buffer
 * at 0x1000, 24 bytes from offset -8. */
static void write_log(uint32_t version, int site, uint64_t off,
                      const char *path, const uint8_t *id, size_t idlen)
{
    struct log_writer w;
    open_log(&w, version);
    struct log_rec rec;
    REQUIRE(log_writer_begin(&w, &rec, 8192, LOG_FN_MPI_Isend,
                             site ? LOG_REC_SITE : 0, 0, 1));
    if (site) {
        log_put_site(&rec, 0, off);
        log_put_bufaddr(&rec, 0x1000, -8, 1, 24);
    }
    log_put_arg_int(&rec, 3);           /* count */
    log_put_arg_handle(&rec, 0x4c000405); /* MPI_INT */
    log_put_arg_int(&rec, 0);           /* dest */
    log_put_arg_int(&rec, 7);           /* tag */
    log_put_arg_handle(&rec, 0x44000000);
    if (site) {
        uint8_t body[4200];
        struct log_rec b = {body, body};
        log_put_varint(&b, 0);
        log_put_varint(&b, idlen);
        log_put_bytes(&b, id, idlen);
        log_put_bytes(&b, path, strlen(path));
        log_put_field(&rec, LOG_ARG_NONE, LOG_F_OBJECT, 0,
                      (uint64_t)(b.p - body));
        log_put_bytes(&rec, body, (size_t)(b.p - body));
    }
    log_writer_commit(&w, &rec);
    REQUIRE(log_writer_close(&w, 0) == 0);
}

/* Buffer I of event N of the log written (log_event_bufaddr's result,
 * *B) and the event's argument 4 (the tag: the arguments follow the
 * buffers) in *TAG. */
static int event_buf(uint64_t n, int i, struct log_bufaddr *b, int *tag)
{
    struct ev_run x;
    struct log_event ev;
    char err[256];
    REQUIRE(ev_open(&x, dir, err, sizeof err) == 0);
    REQUIRE(ev_event(&x, 0, n, &ev, err, sizeof err) == 0);
    int rc = log_event_bufaddr(&ev, i, b);
    *tag = (int)log_event_arg(&ev, 4);
    ev_close(&x);
    return rc;
}

/* ev_srcline_why on the log written, into LOC and WHY. */
static int srcline(struct ev_srcloc *loc, char *why, size_t len)
{
    struct ev_run x;
    char err[256];
    REQUIRE(ev_open(&x, dir, err, sizeof err) == 0);
    int rc = ev_srcline_why(&x, 0, 0, loc, why, len, err, sizeof err);
    ev_close(&x);
    return rc;
}

TEST(older_log_has_no_site)
{
    struct ev_srcloc loc;
    char why[256];
    write_log(4, 0, 0, "", NULL, 0);
    CHECK_INT_EQ(srcline(&loc, why, sizeof why), 0);
    CHECK_STR_EQ(why, "recorded before drdb logged call sites");
    write_log(LOG_VERSION, 0, 0, "", NULL, 0);
    CHECK_INT_EQ(srcline(&loc, why, sizeof why), 0);
    CHECK_STR_EQ(why, "not logged for this call");
}

TEST(site_maps_to_its_line)
{
    struct self s = {0};
    dl_iterate_phdr(self_cb, &s);
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    REQUIRE(n > 0);
    exe[n] = '\0';
    Dwfl *dwfl = dwfl_begin(&callbacks);
    REQUIRE(dwfl);
    dwfl_report_begin(dwfl);
    Dwfl_Module *mod = dwfl_report_elf(dwfl, exe, exe, -1, 0, false);
    dwfl_report_end(dwfl, NULL, NULL);
    GElf_Addr vaddr;
    REQUIRE(mod);
    s.idlen = dwfl_module_build_id(mod, &s.id, &vaddr);
    REQUIRE(s.idlen > 0);
    const void *ra = return_address(); int line = __LINE__;
    uint64_t off = (uintptr_t)ra - s.bias;
    write_log(LOG_VERSION, 1, off, exe, s.id, (size_t)s.idlen);

    struct ev_srcloc loc;
    char why[1300];
    CHECK_INT_EQ(srcline(&loc, why, sizeof why), 1);
    CHECK_STR_EQ(why, "");
    CHECK_STR_EQ(loc.object, exe);
    CHECK(loc.offset == off);
    const char *base = strrchr(loc.file, '/');
    CHECK_STR_EQ(base ? base + 1 : loc.file, "test-srcline.c");
    CHECK_INT_EQ(loc.line, line);
    CHECK_STR_EQ(loc.function, "test_site_maps_to_its_line");

    /* The buffer as written. */
    struct log_bufaddr b;
    int tag;
    CHECK_INT_EQ(event_buf(0, 0, &b, &tag), 1);
    CHECK(b.arg == 0 && b.addr == 0x1000 && b.lb == -8 && b.known &&
          b.span == 24);
    CHECK_INT_EQ(event_buf(0, 1, &b, &tag), 0);
    CHECK_INT_EQ(tag, 7);

    /* Another build at the same path. */
    uint8_t other[20] = {1, 2, 3};
    write_log(LOG_VERSION, 1, off, exe, other, sizeof other);
    CHECK_INT_EQ(srcline(&loc, why, sizeof why), 1);
    CHECK_INT_EQ(loc.line, 0);
    CHECK_STR_EQ(loc.file, "");
    CHECK(strstr(why, "was rebuilt since the run") != NULL);

    /* No such file. */
    write_log(LOG_VERSION, 1, off, "/nonexistent/prog", s.id,
              (size_t)s.idlen);
    CHECK_INT_EQ(srcline(&loc, why, sizeof why), 1);
    CHECK_INT_EQ(loc.line, 0);
    CHECK_STR_EQ(why, "'/nonexistent/prog' is missing");
    dwfl_end(dwfl);
}

/* A blocking call's buffers follow its site only with LOG_REC_BUFS: an
 * MPI_Recv record without (as version 5 wrote them all) has none and its
 * arguments right after the site; one with has its buffer. */
TEST(blocking_buffers_only_with_flag)
{
    struct log_writer w;
    open_log(&w, LOG_VERSION);
    for (int with = 0; with < 2; with++) {
        struct log_rec rec;
        REQUIRE(log_writer_begin(&w, &rec, 256, LOG_FN_MPI_Recv,
                                 LOG_REC_SITE | (with ? LOG_REC_BUFS : 0),
                                 0, 1));
        log_put_site(&rec, 0, 0x40);
        if (with)
            log_put_bufaddr(&rec, 0x2000, 0, 1, 12);
        log_put_arg_int(&rec, 3);             /* count */
        log_put_arg_handle(&rec, 0x4c000405); /* MPI_INT */
        log_put_arg_int(&rec, 0);             /* source */
        log_put_arg_int(&rec, 7);             /* tag */
        log_put_arg_handle(&rec, 0x44000000);
        log_writer_commit(&w, &rec);
    }
    REQUIRE(log_writer_close(&w, 0) == 0);

    struct log_bufaddr b;
    int tag;
    CHECK_INT_EQ(event_buf(0, 0, &b, &tag), 0);
    CHECK_INT_EQ(tag, 7);
    CHECK_INT_EQ(event_buf(1, 0, &b, &tag), 1);
    CHECK(b.arg == 0 && b.addr == 0x2000 && b.known && b.span == 12);
    CHECK_INT_EQ(tag, 7);
}

/* A one-sided operation's record carries its buffers since version 8:
 * an MPI_Put of a version 7 log has its arguments right after its site,
 * one of version 8 its origin buffer first. */
TEST(rma_buffers_since_version_8)
{
    for (uint32_t version = 7; version <= 8; version++) {
        struct log_writer w;
        open_log(&w, version);
        struct log_rec rec;
        REQUIRE(log_writer_begin(&w, &rec, 256, LOG_FN_MPI_Put,
                                 LOG_REC_SITE, 0, 1));
        log_put_site(&rec, 0, 0x40);
        if (version == 8)
            log_put_bufaddr(&rec, 0x3000, 0, 1, 4);
        log_put_arg_int(&rec, 1);             /* origin_count */
        log_put_arg_handle(&rec, 0x4c000405); /* MPI_INT */
        log_put_arg_int(&rec, 2);             /* target_rank */
        log_put_arg_int(&rec, 0);             /* target_disp */
        log_put_arg_int(&rec, 1);             /* target_count */
        log_put_arg_handle(&rec, 0x4c000405);
        log_put_arg_handle(&rec, 0xa0000000); /* win */
        log_writer_commit(&w, &rec);
        REQUIRE(log_writer_close(&w, 0) == 0);
        struct ev_run x;
        struct log_event ev;
        struct log_bufaddr b;
        char err[256];
        REQUIRE(ev_open(&x, dir, err, sizeof err) == 0);
        REQUIRE(ev_event(&x, 0, 0, &ev, err, sizeof err) == 0);
        CHECK_INT_EQ(log_event_bufaddr(&ev, 0, &b), version == 8);
        if (version == 8)
            CHECK(b.addr == 0x3000 && b.known && b.span == 4);
        CHECK_INT_EQ(log_event_arg(&ev, 3), 2); /* target_rank */
        ev_close(&x);
    }
}

int main(void)
{
    if (!mkdtemp(dir) || chdir(dir) != 0) {
        perror(dir);
        return 1;
    }
    RUN(older_log_has_no_site);
    RUN(site_maps_to_its_line);
    RUN(blocking_buffers_only_with_flag);
    RUN(rma_buffers_since_version_8);
    char p[256];
    snprintf(p, sizeof p, "%s/rank-0.log", dir);
    unlink(p);
    snprintf(p, sizeof p, "%s/drdb.run", dir);
    unlink(p);
    rmdir(dir);
    return check_done();
}
