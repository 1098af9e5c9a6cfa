/*
 * Host lists (frontend/run-hosts.c): `--hosts h1,h2:N` and host files in
 * the format of MPICH's (HOST or HOST:N per line, '#' comments), and the
 * rank placement mpiexec makes from them (blocks of N, wrapping around).
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "fe.h"

static char err[512];

TEST(list)
{
    struct fe_hosts l;
    REQUIRE(fe_hosts_parse(&l, "node17,node18:3,n-9.example.org", err,
                           sizeof err) == 0);
    CHECK(l.n == 3);
    CHECK(strcmp(l.v[0].name, "node17") == 0 && l.v[0].slots == 1);
    CHECK(strcmp(l.v[1].name, "node18") == 0 && l.v[1].slots == 3);
    CHECK(strcmp(l.v[2].name, "n-9.example.org") == 0 && l.v[2].slots == 1);
    /* mpiexec's placement: 0 node17; 1-3 node18; 4 n-9; then again */
    int want[] = {0, 1, 1, 1, 2, 0, 1, 1, 1, 2, 0};
    for (int r = 0; r < 11; r++)
        CHECK_MSG(fe_hosts_place(&l, r) == want[r], "rank %d on %d", r,
                  fe_hosts_place(&l, r));
    fe_hosts_release(&l);
}

TEST(refused)
{
    struct fe_hosts l;
    const char *bad[] = {"", "a,,b", "-oProxyCommand=x", "a,b c", "a:0",
                         "a:x", "a:", "a:-1", "a:99999999999", "a\tb",
                         ",a"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        err[0] = '\0';
        CHECK_MSG(fe_hosts_parse(&l, bad[i], err, sizeof err) < 0,
                  "'%s' accepted", bad[i]);
        CHECK_MSG(err[0] != '\0', "'%s': no message", bad[i]);
        CHECK(l.n == 0 && l.v == NULL);
    }
}

TEST(file)
{
    char path[] = "/tmp/drdb-hostsXXXXXX";
    int fd = mkstemp(path);
    REQUIRE(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("# the nodes of the allocation\n"
          "node1:2   # two ranks\n"
          "\n"
          "   node2\n"
          "node3:4\n", f);
    fclose(f);
    struct fe_hosts l;
    char arg[64];
    snprintf(arg, sizeof arg, "@%s", path);
    REQUIRE(fe_hosts_parse(&l, arg, err, sizeof err) == 0);
    CHECK(l.n == 3);
    CHECK(strcmp(l.v[0].name, "node1") == 0 && l.v[0].slots == 2);
    CHECK(strcmp(l.v[1].name, "node2") == 0 && l.v[1].slots == 1);
    CHECK(strcmp(l.v[2].name, "node3") == 0 && l.v[2].slots == 4);
    CHECK(fe_hosts_place(&l, 1) == 0 && fe_hosts_place(&l, 2) == 1 &&
          fe_hosts_place(&l, 6) == 2 && fe_hosts_place(&l, 7) == 0);
    fe_hosts_release(&l);
    /* a line with two words, an option as a host: the line is named */
    f = fopen(path, "w");
    fputs("node1\nnode2 node3\n", f);
    fclose(f);
    CHECK(fe_hosts_parse(&l, arg, err, sizeof err) < 0);
    CHECK_MSG(strstr(err, ":2: one host per line") != NULL, "%s", err);
    f = fopen(path, "w");
    fputs("-oProxyCommand=touch /tmp/x\n", f);
    fclose(f);
    CHECK(fe_hosts_parse(&l, arg, err, sizeof err) < 0);
    f = fopen(path, "w");
    fputs("# nothing\n\n", f);
    fclose(f);
    CHECK(fe_hosts_parse(&l, arg, err, sizeof err) < 0);
    CHECK_MSG(strstr(err, "names no host") != NULL, "%s", err);
    unlink(path);
    CHECK(fe_hosts_parse(&l, arg, err, sizeof err) < 0);
    CHECK_MSG(strstr(err, "cannot read the host file") != NULL, "%s", err);
}

int main(void)
{
    RUN(list);
    RUN(refused);
    RUN(file);
    return check_done();
}
