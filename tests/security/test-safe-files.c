/*
 * test-safe-files.c - util/'s file creation (util.h) against what another
 * user could plant in a directory they can write: a symbolic link or a
 * file under the name drdb is about to create, a link as a directory, a
 * directory of the wrong mode; the log writer, compression and the
 * checkpoint writer on top of it. Each planted link points at a "victim"
 * file whose contents must not change. Also: errno is left as it was (the
 * helpers run inside the recorded and replayed process).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "log-compress.h"
#include "log-reader.h"
#include "log-writer.h"
#include "util.h"

static char dir[64], victim[128];

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/drdb-safe-XXXXXX");
    if (!mkdtemp(dir))
        abort();
    snprintf(victim, sizeof victim, "%s/victim", dir);
    FILE *f = fopen(victim, "w");
    fputs("precious\n", f);
    fclose(f);
}

static int victim_intact(void)
{
    char buf[64] = "";
    FILE *f = fopen(victim, "r");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return strcmp(buf, "precious\n") == 0;
}

static void plant(const char *name)
{
    char p[256];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    unlink(p);
    if (symlink(victim, p) < 0)
        abort();
}

TEST(create_refuses_a_planted_link_and_keeps_errno)
{
    int dfd = util_dir_open(AT_FDCWD, dir, 1);
    REQUIRE(dfd >= 0);
    plant("rank-0.log");
    errno = 1234;
    CHECK_INT_EQ(util_file_create(dfd, "rank-0.log", O_WRONLY), -EEXIST);
    CHECK_INT_EQ(errno, 1234);
    CHECK(victim_intact());
    int fd = util_file_create(dfd, "fresh", O_WRONLY);
    REQUIRE(fd >= 0);
    struct stat st;
    fstat(fd, &st);
    CHECK_INT_EQ(st.st_mode & 0777, 0600);
    CHECK(fcntl(fd, F_GETFD) & FD_CLOEXEC);
    close(fd);
    close(dfd);
}

TEST(temporary_names_skip_planted_ones)
{
    int dfd = util_dir_open(AT_FDCWD, dir, 1);
    char tmp[64], want[64];
    /* Plant the name the next call would take, and the old fixed one. */
    plant(".drdb.run.tmp");
    int fd = util_file_create_tmp(dfd, "drdb.run", tmp, sizeof tmp, O_WRONLY);
    REQUIRE(fd >= 0);
    close(fd);
    unlinkat(dfd, tmp, 0);
    snprintf(want, sizeof want, "%.*s%d", (int)(strrchr(tmp, '-') - tmp + 1),
             tmp, atoi(strrchr(tmp, '-') + 1) + 1);
    plant(want);
    fd = util_file_create_tmp(dfd, "drdb.run", tmp, sizeof tmp, O_WRONLY);
    REQUIRE(fd >= 0);
    CHECK(strcmp(tmp, want) != 0);
    CHECK_INT_EQ(util_write_all(fd, "x\n", 2), 0);
    close(fd);
    /* The rename replaces a link at the final name, never follows it. */
    plant("drdb.run");
    CHECK_INT_EQ(util_file_replace(dfd, tmp, "drdb.run"), 0);
    struct stat st;
    CHECK(fstatat(dfd, "drdb.run", &st, AT_SYMLINK_NOFOLLOW) == 0 &&
          S_ISREG(st.st_mode));
    CHECK(victim_intact());
    close(dfd);
}

TEST(append_refuses_a_link)
{
    int dfd = util_dir_open(AT_FDCWD, dir, 1);
    plant("drdb.run");
    CHECK_INT_EQ(util_file_append(dfd, "drdb.run"), -ELOOP);
    CHECK(victim_intact());
    close(dfd);
}

TEST(directories_made_private_links_refused)
{
    int dfd = util_dir_open(AT_FDCWD, dir, 1);
    CHECK_INT_EQ(util_dir_create(dfd, "sub", 0), 0);
    struct stat st;
    fstatat(dfd, "sub", &st, 0);
    CHECK_INT_EQ(st.st_mode & 0777, 0700);
    CHECK_INT_EQ(util_dir_create(dfd, "sub", 0), -EEXIST);
    CHECK_INT_EQ(util_dir_create(dfd, "sub", 1), 0);
    fchmodat(dfd, "sub", 0777, 0);
    CHECK_INT_EQ(util_dir_create(dfd, "sub", 1), -EPERM);
    plant("linkdir");
    CHECK_INT_EQ(util_dir_create(dfd, "linkdir", 1), -ELOOP);
    CHECK_INT_EQ(util_dir_create(dfd, "victim", 1), -ENOTDIR);
    /* A link as the directory itself. */
    char p[128];
    snprintf(p, sizeof p, "%s/dirlink", dir);
    symlink(dir, p);
    CHECK_INT_EQ(util_dir_open(AT_FDCWD, p, 1), -ELOOP);
    int ok = util_dir_open(AT_FDCWD, p, 0);
    CHECK(ok >= 0);
    close(ok);
    close(dfd);
}

/* The log writer and compression on top: a link at the log's name stops
 * the writer; compression's temporary file is a new name. */
TEST(writer_and_compression)
{
    char p[256];
    struct log_file_header h;
    struct log_writer w;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, LOG_MAGIC, 8);
    h.world_size = 1;
    plant("rank-0.log");
    snprintf(p, sizeof p, "%s/rank-0.log", dir);
    CHECK_INT_EQ(log_writer_open(&w, p, &h), -EEXIST);
    CHECK(victim_intact());
    unlink(p);
    REQUIRE(log_writer_open(&w, p, &h) == 0);
    CHECK_INT_EQ(w.map_size, LOG_WRITER_FIRST);
    log_writer_close(&w, 0);
    plant("rank-0.log.zst-tmp"); /* the name compression used to take */
    uint64_t before, after;
    char err[256];
    CHECK(log_compress_file(p, NULL, &before, &after, err, sizeof err) >= 0);
    CHECK(victim_intact());
    struct log_rank r;
    CHECK_INT_EQ(log_rank_open(&r, p, err, sizeof err), 0);
    CHECK_INT_EQ(r.hdr.version, LOG_VERSION);
    log_rank_release(&r);
}

int main(void)
{
    setup();
    RUN(create_refuses_a_planted_link_and_keeps_errno);
    RUN(temporary_names_skip_planted_ones);
    RUN(append_refuses_a_link);
    RUN(directories_made_private_links_refused);
    RUN(writer_and_compression);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        return 1;
    return check_done();
}
