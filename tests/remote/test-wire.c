/*
 * test-wire.c - the agent protocol's frame parser and payloads
 * (frontend/wire.c), and how drdb reaches a host (frontend/remote-ssh.c):
 * the one quoting function, through a real /bin/sh, for strings a path
 * may hold; the host names refused; the fixed argv given to ssh.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "launch.h"
#include "remote.h"
#include "remote-int.h"
#include "wire.h"

/* What `sh -c 'printf %s QUOTED'` prints: the word the shell made. */
static char *through_sh(const char *word, const char *tmpfile)
{
    struct wire_buf b;
    wire_buf_init(&b);
    wire_buf_add(&b, "printf %s ", 10);
    remote_quote(&b, word);
    wire_buf_add(&b, "", 1);
    pid_t pid = fork();
    if (pid == 0) {
        FILE *f = fopen(tmpfile, "w");
        if (!f)
            _exit(99);
        dup2(fileno(f), 1);
        execl("/bin/sh", "sh", "-c", (char *)b.p, (char *)NULL);
        _exit(98);
    }
    int st;
    waitpid(pid, &st, 0);
    wire_buf_release(&b);
    FILE *f = fopen(tmpfile, "r");
    static char out[8192];
    size_t n = f ? fread(out, 1, sizeof out - 1, f) : 0;
    if (f)
        fclose(f);
    out[n] = '\0';
    return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? out : NULL;
}

TEST(quote_round_trip)
{
    char dir[] = "/tmp/drdb-test-wire-XXXXXX";
    REQUIRE(mkdtemp(dir));
    char out[4200], marker[4200];
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(marker, sizeof marker, "%s/injected", dir);
    char inject1[4300], inject2[4300], inject3[4300];
    snprintf(inject1, sizeof inject1, "$(touch %s)", marker);
    snprintf(inject2, sizeof inject2, "`touch %s`", marker);
    snprintf(inject3, sizeof inject3, "x'; touch %s; echo '", marker);
    const char *words[] = {
        "plain", "with space", "it's", "'", "''", "\"double\"", "a;b",
        "$HOME", "${HOME}", "a\nnewline", "\\back\\slash", "*", "?",
        "~", "!event", "tab\there", "-n", "a|b&c>d<e", "#comment",
        "", inject1, inject2, inject3, "\x01\x7f\xc3\xa9",
    };
    for (size_t i = 0; i < sizeof words / sizeof *words; i++) {
        char *got = through_sh(words[i], out);
        CHECK_MSG(got && strcmp(got, words[i]) == 0, "word %zu '%s' came "
                  "back as '%s'", i, words[i], got ? got : "(sh failed)");
    }
    CHECK_MSG(access(marker, F_OK) != 0, "a quoted word ran a command");
    unlink(out);
    unlink(marker);
    rmdir(dir);
}

TEST(host_names)
{
    CHECK(remote_host_ok("node17"));
    CHECK(remote_host_ok("me@node17.example.org"));
    CHECK(remote_host_ok("127.0.0.2"));
    CHECK(!remote_host_ok(""));
    CHECK(!remote_host_ok(NULL));
    CHECK(!remote_host_ok("-oProxyCommand=touch /tmp/x"));
    CHECK(!remote_host_ok("-p"));
    CHECK(!remote_host_ok("a b"));
    CHECK(!remote_host_ok("a\tb"));
    CHECK(!remote_host_ok("a\nb"));
    CHECK(!remote_host_ok("a\x7f"));
}

TEST(ssh_argv)
{
    const char *opts[] = {"Port=2222", "ProxyJump=gw"};
    struct remote_opts o = {"node17", "/opt/my drdb/bin/drdb", opts, 2};
    char err[512];
    char **v = remote_argv(&o, err, sizeof err);
    REQUIRE(v);
    const char *want[] = {"ssh", "-T", "-o", "BatchMode=yes", "-o",
                          "Port=2222", "-o", "ProxyJump=gw", "--", "node17",
                          "'/opt/my drdb/bin/drdb' agent", NULL};
    for (size_t i = 0; want[i] || v[i]; i++) {
        CHECK_MSG(want[i] && v[i] && strcmp(want[i], v[i]) == 0,
                  "word %zu: '%s', want '%s'", i, v[i] ? v[i] : "(end)",
                  want[i] ? want[i] : "(end)");
        if (!want[i] || !v[i])
            break;
    }
    for (size_t i = 0; v[i]; i++)
        CHECK(!strstr(v[i], "StrictHostKeyChecking"));
    remote_argv_free(v);
    o.host = "-oProxyCommand=x";
    CHECK(!remote_argv(&o, err, sizeof err));
    CHECK(strstr(err, "-oProxyCommand=x") != NULL);
    o.host = "a b";
    CHECK(!remote_argv(&o, err, sizeof err));
    /* A local agent: this program, "agent", no shell and no ssh. */
    o.host = "localhost";
    v = remote_argv(&o, err, sizeof err);
    REQUIRE(v);
    CHECK(v[0][0] == '/' && strcmp(v[1], "agent") == 0 && !v[2]);
    remote_argv_free(v);
}

static size_t frame(uint8_t *buf, uint32_t len, uint16_t type, uint16_t ch)
{
    memcpy(buf, &len, 4); /* little-endian host */
    memcpy(buf + 4, &type, 2);
    memcpy(buf + 6, &ch, 2);
    return WIRE_HEADER;
}

TEST(frames)
{
    uint8_t buf[64] = {0};
    struct wire_frame f;
    char err[256];
    frame(buf, 5, WIRE_STDOUT, 7);
    memcpy(buf + 8, "hello", 5);
    for (size_t k = 0; k < 13; k++)
        CHECK(wire_parse(buf, k, &f, err, sizeof err) == 0);
    CHECK(wire_parse(buf, 20, &f, err, sizeof err) == 13);
    CHECK(f.type == WIRE_STDOUT && f.channel == 7 && f.len == 5 &&
          memcmp(f.data, "hello", 5) == 0);
    /* Over the limit: refused from the header, before any payload. */
    frame(buf, WIRE_MAX_PAYLOAD + 1, WIRE_STDOUT, 1);
    CHECK(wire_parse(buf, 8, &f, err, sizeof err) == -1);
    CHECK(strstr(err, "limit") != NULL);
    frame(buf, 0xffffffffu, WIRE_DATA, 1);
    CHECK(wire_parse(buf, 8, &f, err, sizeof err) == -1);
    frame(buf, 0, 0, 0);
    CHECK(wire_parse(buf, 8, &f, err, sizeof err) == -1);
    frame(buf, 0, WIRE_TYPE_END, 0);
    CHECK(wire_parse(buf, 8, &f, err, sizeof err) == -1);
    frame(buf, WIRE_MAX_PAYLOAD, WIRE_DATA, 1);
    CHECK(wire_parse(buf, 8, &f, err, sizeof err) == 0);
}

TEST(payloads)
{
    struct launch_desc d, e;
    launch_desc_init(&d);
    char *argv[] = {"drdb", "replay", "a dir;$(x)\n", NULL};
    REQUIRE(launch_desc_argv(&d, argv) == 0);
    d.flags = LAUNCH_SELF | LAUNCH_TTY;
    d.cwd = strdup("/tmp");
    d.rundir = strdup("/runs/r 1");
    launch_env_set(&d.env, "DRDB_CKPT", "on");
    struct wire_buf b;
    wire_buf_init(&b);
    wire_put_desc(&b, &d);
    struct wire_frame f = {WIRE_START, 3, (uint32_t)b.len, b.p};
    struct wire_rd r;
    wire_rd_init(&r, &f);
    REQUIRE(wire_get_desc(&r, &e) == 0);
    CHECK(e.flags == d.flags && !strcmp(e.argv[2], argv[2]) && !e.argv[3]);
    CHECK(!strcmp(e.cwd, "/tmp") && !strcmp(e.rundir, "/runs/r 1") &&
          !e.program);
    CHECK(e.env.n == 1 && !strcmp(e.env.v[0], "DRDB_CKPT=on"));
    launch_desc_release(&e);
    /* Cut anywhere, or with a byte more: refused, nothing leaked. */
    for (size_t k = 0; k < b.len; k++) {
        f.len = (uint32_t)k;
        wire_rd_init(&r, &f);
        CHECK_MSG(wire_get_desc(&r, &e) < 0, "cut at %zu accepted", k);
    }
    wire_buf_add(&b, "x", 1);
    f.data = b.p;
    f.len = (uint32_t)b.len;
    wire_rd_init(&r, &f);
    CHECK(wire_get_desc(&r, &e) < 0);
    wire_buf_release(&b);
    launch_desc_release(&d);
    /* A string with a NUL inside is not a string. */
    uint8_t s[] = {3, 0, 0, 0, 'a', 0, 'b'};
    struct wire_frame g = {WIRE_ERROR, 0, sizeof s, s};
    wire_rd_init(&r, &g);
    CHECK(wire_get_str(&r) == NULL);
}

/* SETUP's answer (struct launch_gdb) round-trips; cut or extended, or
 * without a stub directory, it is refused. */
TEST(setup_payload)
{
    struct launch_gdb g, e;
    launch_gdb_init(&g);
    g.flags = LAUNCH_GDB_CWD | LAUNCH_GDB_MPROTECT;
    g.stub = strdup("/opt/drdb/lib/drdb");
    g.xstate = strdup("");
    g.index = strdup("/home/u/.cache/drdb/gdb-index");
    g.out = strdup("/runs/r 1/replay-out/rank-3");
    launch_env_set(&g.env, "DRDB_REPLAY_RANK", "3");
    launch_env_set(&g.env, "LD_PRELOAD", "/opt/x.so");
    struct wire_buf b;
    wire_buf_init(&b);
    wire_put_gdb(&b, &g);
    struct wire_frame f = {WIRE_DATA, 5, (uint32_t)b.len, b.p};
    struct wire_rd r;
    wire_rd_init(&r, &f);
    REQUIRE(wire_get_gdb(&r, &e) == 0);
    CHECK(e.flags == g.flags && !strcmp(e.stub, g.stub) && !e.xstate[0] &&
          !strcmp(e.index, g.index) && !strcmp(e.out, g.out));
    CHECK(e.env.n == 2 && !strcmp(e.env.v[0], "DRDB_REPLAY_RANK=3") &&
          !strcmp(e.env.v[1], "LD_PRELOAD=/opt/x.so"));
    launch_gdb_release(&e);
    for (size_t k = 0; k < b.len; k++) {
        f.len = (uint32_t)k;
        wire_rd_init(&r, &f);
        CHECK_MSG(wire_get_gdb(&r, &e) < 0, "cut at %zu accepted", k);
    }
    wire_buf_add(&b, "x", 1);
    f.data = b.p;
    f.len = (uint32_t)b.len;
    wire_rd_init(&r, &f);
    CHECK(wire_get_gdb(&r, &e) < 0);
    wire_buf_release(&b);
    free(g.stub);
    g.stub = strdup("");
    wire_buf_init(&b);
    wire_put_gdb(&b, &g);
    f = (struct wire_frame){WIRE_DATA, 5, (uint32_t)b.len, b.p};
    wire_rd_init(&r, &f);
    CHECK_MSG(wire_get_gdb(&r, &e) < 0, "no stub directory accepted");
    wire_buf_release(&b);
    launch_gdb_release(&g);
    CHECK(!strcmp(wire_type_name(WIRE_SETUP), "SETUP"));
}

TEST(versions)
{
    CHECK(wire_version_cmp("0.1.0", "0.1.0") == 0);
    CHECK(wire_version_cmp("0.9.0", "0.10.0") < 0);
    CHECK(wire_version_cmp("1.0", "0.99") > 0);
    char err[512];
    remote__mismatch("node17", WIRE_PROTOCOL, "0.0.1", "0.1.0", err,
                     sizeof err);
    CHECK(strstr(err, "drdb on node17 is version 0.0.1") &&
          strstr(err, "this drdb is 0.1.0") &&
          strstr(err, "install the same drdb on both (node17 is older)"));
    remote__mismatch("node17", WIRE_PROTOCOL, "0.2.0", "0.1.0", err,
                     sizeof err);
    CHECK(strstr(err, "(this one is older)") != NULL);
    struct wire_buf b;
    wire_buf_init(&b);
    wire_put_hello(&b, "9.9");
    struct wire_frame f = {WIRE_HELLO, 0, (uint32_t)b.len, b.p};
    uint32_t proto;
    char *ver;
    REQUIRE(wire_get_hello(&f, &proto, &ver) == 0);
    CHECK(proto == WIRE_PROTOCOL && !strcmp(ver, "9.9"));
    free(ver);
    b.p[0] = 'X'; /* not drdb's */
    CHECK(wire_get_hello(&f, &proto, &ver) < 0);
    wire_buf_release(&b);
}

int main(void)
{
    RUN(quote_round_trip);
    RUN(host_names);
    RUN(ssh_argv);
    RUN(frames);
    RUN(payloads);
    RUN(setup_payload);
    RUN(versions);
    return check_done();
}
