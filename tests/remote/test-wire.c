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

/* Checks that argv V is WANT, word by word. */
static void argv_is(char **v, const char *const *want)
{
    for (size_t i = 0; want[i] || v[i]; i++) {
        CHECK_MSG(want[i] && v[i] && strcmp(want[i], v[i]) == 0,
                  "word %zu: '%s', want '%s'", i, v[i] ? v[i] : "(end)",
                  want[i] ? want[i] : "(end)");
        if (!want[i] || !v[i])
            break;
    }
}

TEST(ssh_argv)
{
    const char *opts[] = {"Port=2222", "ProxyJump=gw"};
    struct remote_opts o = {.host = "node17", .drdb = "/opt/my drdb/bin/drdb",
                            .ssh_opts = opts, .nssh_opts = 2};
    char err[512];
    char **v = remote_argv(&o, err, sizeof err);
    REQUIRE(v);
    const char *want[] = {"ssh", "-T", "-o", "BatchMode=yes", "-o",
                          "Port=2222", "-o", "ProxyJump=gw", "--", "node17",
                          "'/opt/my drdb/bin/drdb' agent", NULL};
    argv_is(v, want);
    for (size_t i = 0; v[i]; i++)
        CHECK(!strstr(v[i], "StrictHostKeyChecking"));
    remote_argv_free(v);
    /* Keeping: the time limit as a quoted word of the remote command. */
    o.keep_s = 30;
    v = remote_argv(&o, err, sizeof err);
    REQUIRE(v && v[10]);
    CHECK_MSG(!strcmp(v[10], "'/opt/my drdb/bin/drdb' agent '--keep' '30'"),
              "'%s'", v[10]);
    remote_argv_free(v);
    o.keep_s = 0;
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

/* The srun launcher: a fixed argv (no quoting: srun executes the command
 * itself), one node name, and the allocation drdb runs in. */
TEST(srun_argv)
{
    struct remote_opts o = {.host = "node17",
                            .drdb = "/opt/my drdb/bin/drdb",
                            .launcher = "srun"};
    char err[512];
    unsetenv("SLURM_JOBID");
    unsetenv("SLURM_JOB_ID");
    CHECK(!remote_argv(&o, err, sizeof err));
    CHECK_MSG(!strcmp(err, "not inside a Slurm allocation (SLURM_JOB_ID "
                      "unset): run drdb inside salloc/sbatch, or use ssh"),
              "%s", err);
    setenv("SLURM_JOB_ID", "42", 1);
    char **v = remote_argv(&o, err, sizeof err);
    REQUIRE(v);
    const char *want[] = {"srun", "--nodes=1", "--ntasks=1", "--overlap",
                          "--quiet", "--unbuffered", "--kill-on-bad-exit=1",
                          "--mpi=none", "--cpu-bind=none",
                          "--nodelist=node17", "--",
                          "/opt/my drdb/bin/drdb", "agent", NULL};
    argv_is(v, want);
    remote_argv_free(v);
    /* Not a list, a range, a file or an option. */
    const char *bad[] = {"a,b", "n[1-4]", "/etc/hosts", "-w", "a b", "n*2",
                         ""};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        o.host = bad[i];
        CHECK_MSG(!remote_argv(&o, err, sizeof err), "host '%s'", bad[i]);
    }
    o.host = "node17";
    const char *opt[] = {"Port=2"};
    o.ssh_opts = opt;
    o.nssh_opts = 1;
    CHECK(!remote_argv(&o, err, sizeof err) && strstr(err, "--ssh-option"));
    o.nssh_opts = 0;
    o.launcher = "rsh";
    CHECK(!remote_argv(&o, err, sizeof err) &&
          strstr(err, "unknown launcher 'rsh'"));
    unsetenv("SLURM_JOB_ID");
}

/* srun's failures, each one line naming the node (the stderr texts are
 * Slurm 22.05's). */
TEST(srun_diagnose)
{
    char err[1024];
    setenv("SLURM_JOB_ID", "7", 1);
    remote__srun_diagnose("n9", NULL, 1 << 8, "srun: error: Unable to create "
                          "step for job 7: Requested node configuration is "
                          "not available\n", err, sizeof err);
    CHECK_MSG(strstr(err, "n9 is not a node of Slurm job 7 (srun: error: "
                     "Unable to create step") &&
              strstr(err, "give one of its nodes"), "%s", err);
    remote__srun_diagnose("n9", "/x/drdb", 2 << 8, "slurmstepd-n9: error: "
                          "execve(): /x/drdb: No such file or directory\n"
                          "srun: error: n9: task 0: Exited with exit code 2\n",
                          err, sizeof err);
    CHECK_MSG(!strcmp(err, "drdb is not installed on n9 ('/x/drdb' was not "
                      "found there): install the same drdb there, or give "
                      "its path with --remote-drdb PATH"), "%s", err);
    remote__srun_diagnose("n9", NULL, 13 << 8, "slurmstepd-n9: error: "
                          "execve(): drdb: Permission denied\n", err,
                          sizeof err);
    CHECK_MSG(strstr(err, "'drdb' on n9 cannot be run") != NULL, "%s", err);
    remote__srun_diagnose("n9", NULL, 1 << 8, "srun: error: Slurm job 7 has "
                          "expired\n", err, sizeof err);
    CHECK_MSG(strstr(err, "Slurm job 7 has ended") != NULL, "%s", err);
    remote__srun_diagnose("n9", NULL, 5 << 8, "srun: error: other\n", err,
                          sizeof err);
    CHECK_MSG(!strcmp(err, "srun did not start the drdb agent on n9 (exit "
                      "status 5): srun: error: other"), "%s", err);
    unsetenv("SLURM_JOB_ID");
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

TEST(kept_list)
{
    /* LIST's answer: encoded, decoded the same; cut or extended: refused. */
    struct wire_kept k[2] = {
        {7, 1234, WIRE_KEPT_OUT | WIRE_KEPT_TTY, 0, "rank 3", "/dev/pts/9"},
        {65535, 99, WIRE_KEPT_EXITED, 0x0300, "", ""},
    };
    struct wire_buf b;
    wire_buf_init(&b);
    wire_put_list(&b, "run=/r 1\nbreak main", k, 2);
    struct wire_frame f = {WIRE_DATA, 1, (uint32_t)b.len, b.p};
    struct wire_rd r;
    struct wire_kept *got;
    size_t n;
    char *note;
    wire_rd_init(&r, &f);
    REQUIRE(wire_get_list(&r, &note, &got, &n) == 0);
    CHECK(n == 2 && !strcmp(note, "run=/r 1\nbreak main"));
    CHECK(got[0].ch == 7 && got[0].pid == 1234 &&
          got[0].flags == (WIRE_KEPT_OUT | WIRE_KEPT_TTY) &&
          !strcmp(got[0].label, "rank 3") &&
          !strcmp(got[0].tty_name, "/dev/pts/9"));
    CHECK(got[1].ch == 65535 && got[1].status == 0x0300 &&
          got[1].flags == WIRE_KEPT_EXITED && !got[1].label[0]);
    wire_kept_free(got, n);
    free(note);
    for (size_t cut = 0; cut < b.len; cut++) {
        f.len = (uint32_t)cut;
        wire_rd_init(&r, &f);
        CHECK_MSG(wire_get_list(&r, &note, &got, &n) < 0, "cut at %zu", cut);
    }
    wire_buf_add(&b, "x", 1);
    f.data = b.p;
    f.len = (uint32_t)b.len;
    wire_rd_init(&r, &f);
    CHECK(wire_get_list(&r, &note, &got, &n) < 0);
    /* Channel 0 is the connection's, not a process's; a label over its
     * bound is refused. */
    char big[WIRE_MAX_LABEL + 2];
    memset(big, 'l', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    struct wire_kept bad[2] = {{0, 1, 0, 0, "", ""}, {1, 1, 0, 0, big, ""}};
    for (int i = 0; i < 2; i++) {
        wire_buf_release(&b);
        wire_put_list(&b, "", &bad[i], 1);
        f.data = b.p;
        f.len = (uint32_t)b.len;
        wire_rd_init(&r, &f);
        CHECK_MSG(wire_get_list(&r, &note, &got, &n) < 0, "bad %d", i);
    }
    wire_buf_release(&b);
    CHECK(!strcmp(wire_type_name(WIRE_KEEP), "KEEP") &&
          !strcmp(wire_type_name(WIRE_SESSIONS), "SESSIONS"));
}

/* SHADOW's requests and LIST's answer: round trips, each op's fields, a
 * cut or an extra byte refused, an unknown op, a file name with a '/'. */
TEST(shadow_payloads)
{
    struct wire_shadow q[] = {
        {.op = WIRE_SHADOW_START, .pid = 4242, .rundir = "/runs/r 1",
         .rank = 3, .interval = 0.25, .every = 7},
        {.op = WIRE_SHADOW_POLL, .id = 99},
        {.op = WIRE_SHADOW_STOP, .id = 99, .flags = WIRE_SHADOW_CLEAR},
        {.op = WIRE_SHADOW_LIST, .id = 98},
    };
    size_t want[] = {4 + 4 + 4 + 9 + 4 + 8 + 8, 8, 12, 8};
    struct wire_buf b;
    struct wire_rd r;
    struct wire_shadow e;
    for (int i = 0; i < 4; i++) {
        wire_buf_init(&b);
        wire_put_shadow(&b, &q[i]);
        CHECK_MSG(b.len == want[i], "op %d: %zu bytes", i, b.len);
        struct wire_frame f = {WIRE_SHADOW, 5, (uint32_t)b.len, b.p};
        wire_rd_init(&r, &f);
        REQUIRE(wire_get_shadow(&r, &e) == 0);
        CHECK(e.op == q[i].op && e.id == q[i].id && e.flags == q[i].flags &&
              e.pid == q[i].pid && e.rank == q[i].rank &&
              e.interval == q[i].interval && e.every == q[i].every);
        CHECK(i ? !e.rundir : e.rundir && !strcmp(e.rundir, "/runs/r 1"));
        free(e.rundir);
        for (size_t k = 0; k < b.len; k++) {
            f.len = (uint32_t)k;
            wire_rd_init(&r, &f);
            CHECK_MSG(wire_get_shadow(&r, &e) < 0 && !e.rundir,
                      "op %d cut at %zu accepted", i, k);
        }
        wire_buf_add(&b, "x", 1);
        f.data = b.p;
        f.len = (uint32_t)b.len;
        wire_rd_init(&r, &f);
        CHECK(wire_get_shadow(&r, &e) < 0);
        wire_buf_release(&b);
    }
    uint8_t bad[] = {WIRE_SHADOW_END, 0, 0, 0, 1, 0, 0, 0};
    struct wire_frame g = {WIRE_SHADOW, 5, sizeof bad, bad};
    wire_rd_init(&r, &g);
    CHECK(wire_get_shadow(&r, &e) < 0);

    struct launch_shadow_file v[2] = {
        {"ckpt-000001.drdbck", 1, 0, 4, 0.5, 48, 200704},
        {"ckpt-000002.drdbck", 2, 1, 8, 1.25, 29, 122880}};
    struct launch_shadow_file *got;
    size_t n;
    wire_buf_init(&b);
    wire_put_ckpt_files(&b, v, 2);
    struct wire_frame f = {WIRE_DATA, 5, (uint32_t)b.len, b.p};
    wire_rd_init(&r, &f);
    REQUIRE(wire_get_ckpt_files(&r, &got, &n) == 0);
    CHECK(n == 2 && !memcmp(got, v, sizeof v));
    free(got);
    for (size_t k = 0; k < b.len; k++) {
        f.len = (uint32_t)k;
        wire_rd_init(&r, &f);
        CHECK_MSG(wire_get_ckpt_files(&r, &got, &n) < 0, "cut at %zu", k);
    }
    wire_buf_release(&b);
    snprintf(v[1].name, sizeof v[1].name, "../ckpt-000002.drdbck");
    wire_buf_init(&b);
    wire_put_ckpt_files(&b, v, 2);
    f = (struct wire_frame){WIRE_DATA, 5, (uint32_t)b.len, b.p};
    wire_rd_init(&r, &f);
    CHECK(wire_get_ckpt_files(&r, &got, &n) < 0);
    wire_buf_release(&b);
    CHECK(!strcmp(wire_type_name(WIRE_SHADOW), "SHADOW") &&
          WIRE_PROTOCOL >= 3);
}

int main(void)
{
    RUN(quote_round_trip);
    RUN(host_names);
    RUN(ssh_argv);
    RUN(srun_argv);
    RUN(srun_diagnose);
    RUN(frames);
    RUN(payloads);
    RUN(setup_payload);
    RUN(versions);
    RUN(kept_list);
    RUN(shadow_payloads);
    return check_done();
}
