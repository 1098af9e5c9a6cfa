/*
 * test-mi-gdb.c - the mi/ driver against a real GDB and a real program
 * (tests/mi/mi-inferior.c, built -g -O0): break, run, evaluate, backtrace,
 * step, finish, interrupt, exit codes, crashes, deadlines, a killed GDB, a
 * missing GDB, and 64 GDBs in one poll loop.
 *
 * usage: test-mi-gdb PATH-TO-MI-INFERIOR
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "mi.h"

static const char *inferior;

/* What the callbacks saw. */
struct seen {
    struct mi_record *stopped; /* last *stopped (owned) */
    int nstopped;
    int nrunning;
    long inferior_pid;
    char pty[65536];           /* program output from the pty */
    size_t ptylen;
    int nconsole;
    int ngroup_started;
    int nlibrary_loaded;
};

static void on_async(struct mi_gdb *g, const struct mi_record *rec, void *ud)
{
    struct seen *s = ud;

    if (rec->kind == MI_RECORD_EXEC && strcmp(rec->klass, "stopped") == 0) {
        mi_record_free(s->stopped);
        s->stopped = mi_record_dup(rec);
        s->nstopped++;
    } else if (rec->kind == MI_RECORD_EXEC && strcmp(rec->klass, "running") == 0) {
        s->nrunning++;
    } else if (rec->kind == MI_RECORD_NOTIFY &&
               strcmp(rec->klass, "thread-group-started") == 0) {
        const char *pid = mi_get_str(rec, "pid");
        s->inferior_pid = pid ? atol(pid) : 0;
        s->ngroup_started++;
    } else if (rec->kind == MI_RECORD_NOTIFY &&
               strcmp(rec->klass, "library-loaded") == 0) {
        s->nlibrary_loaded++;
    }
}

static void on_stream(struct mi_gdb *g, const struct mi_record *rec, void *ud)
{
    struct seen *s = ud;

    if (rec->kind == MI_RECORD_CONSOLE)
        s->nconsole++;
}

static void read_pty(struct mi_gdb *g, struct seen *s)
{
    int fd = mi_gdb_pty_fd(g);
    ssize_t n;

    if (fd < 0)
        return;
    while (s->ptylen < sizeof s->pty - 1 &&
           (n = read(fd, s->pty + s->ptylen, sizeof s->pty - 1 - s->ptylen)) > 0)
        s->ptylen += (size_t)n;
    s->pty[s->ptylen] = '\0';
}

/* One poll round over GDB and its pty. */
static int pump(struct mi_gdb *g, struct seen *s, int ms)
{
    struct pollfd fds[MI_GDB_MAX_POLLFDS + 1];
    int n = mi_gdb_pollfds(g, fds, MI_GDB_MAX_POLLFDS), t = mi_gdb_timeout(g), r;

    if (n == 0)
        return MI_EEXITED;
    fds[n].fd = mi_gdb_pty_fd(g);
    fds[n].events = POLLIN;
    fds[n].revents = 0;
    if (t < 0 || t > ms)
        t = ms;
    r = poll(fds, (nfds_t)n + 1, t);
    if (r > 0 && fds[n].revents)
        read_pty(g, s);
    return mi_gdb_process(g, fds, r > 0 ? n : 0);
}

/* Wait until the count of *stopped passes `before`; the record, or NULL. */
static const struct mi_record *wait_stopped(struct mi_gdb *g, struct seen *s,
                                            int before, int timeout_ms)
{
    int64_t end = mi_now_ms() + timeout_ms;

    while (s->nstopped <= before && mi_now_ms() < end)
        if (pump(g, s, 100) == MI_EEXITED)
            break;
    read_pty(g, s);
    return s->nstopped > before ? s->stopped : NULL;
}

static void wait_pty(struct mi_gdb *g, struct seen *s, const char *text,
                     int timeout_ms)
{
    int64_t end = mi_now_ms() + timeout_ms;

    while (!strstr(s->pty, text) && mi_now_ms() < end)
        if (pump(g, s, 100) == MI_EEXITED)
            break;
}

static struct mi_gdb *start(struct seen *s)
{
    struct mi_gdb_options opt;
    struct mi_gdb *g = NULL;
    char msg[256];
    int r;

    memset(s, 0, sizeof *s);
    memset(&opt, 0, sizeof opt);
    opt.on_async = on_async;
    opt.on_stream = on_stream;
    opt.ud = s;
    r = mi_gdb_start(&g, &opt, msg, sizeof msg);
    CHECK_MSG(r == 0, "start: %s: %s", mi_strerror(r), msg);
    if (r)
        return NULL;
    r = mi_gdb_wait_ready(g, 20000);
    CHECK_MSG(r == 0, "setup: %s: %s", mi_strerror(r), mi_gdb_error(g));
    if (r) {
        mi_gdb_free(g);
        return NULL;
    }
    return g;
}

/* exec_sync expecting success; returns the reply status. */
static int run_ok(struct mi_gdb *g, const char *cmd, struct mi_reply *rep)
{
    int r = mi_gdb_exec_sync(g, cmd, rep, 20000);

    CHECK_MSG(r == 0, "'%s': %s: %s", cmd, mi_strerror(r), rep->message);
    return r;
}

static void simple(struct mi_gdb *g, const char *cmd)
{
    struct mi_reply rep;

    run_ok(g, cmd, &rep);
    mi_reply_release(&rep);
}

/* Load the inferior with up to two program arguments (each one argv
   element: -exec-arguments keeps a quoted argument whole). */
static void load(struct mi_gdb *g, const char *arg1, const char *arg2)
{
    struct mi_cmd c;

    mi_cmd_init(&c);
    mi_cmd_op(&c, "-file-exec-and-symbols");
    mi_cmd_arg(&c, inferior);
    simple(g, mi_cmd_str(&c));
    if (arg1) {
        mi_cmd_op(&c, "-exec-arguments");
        mi_cmd_arg(&c, arg1);
        if (arg2)
            mi_cmd_arg(&c, arg2);
        simple(g, mi_cmd_str(&c));
    }
    mi_cmd_release(&c);
}

static void finish_gdb(struct mi_gdb *g, struct seen *s)
{
    if (s->inferior_pid > 0)
        kill((pid_t)s->inferior_pid, SIGKILL); /* in case it survived */
    mi_gdb_free(g);
    mi_record_free(s->stopped);
    s->stopped = NULL;
}

TEST(start_and_setup)
{
    struct seen s;
    struct mi_gdb *g = start(&s);
    struct mi_reply rep;

    REQUIRE(g);
    CHECK(mi_gdb_has_feature(g, "thread-info"));
    CHECK(mi_gdb_has_feature(g, "exec-run-start-option"));
    CHECK(!mi_gdb_has_feature(g, "no-such-feature"));
    CHECK(mi_gdb_pty_fd(g) >= 0);
    CHECK(mi_gdb_pty_name(g) && strncmp(mi_gdb_pty_name(g), "/dev/pts/", 9) == 0);
    /* the settings the driver made */
    if (run_ok(g, "-gdb-show mi-async", &rep) == 0)
        CHECK_STR_EQ(mi_get_str(rep.record, "value"), "on");
    mi_reply_release(&rep);
    if (run_ok(g, "-gdb-show pagination", &rep) == 0)
        CHECK_STR_EQ(mi_get_str(rep.record, "value"), "off");
    mi_reply_release(&rep);
    if (run_ok(g, "-gdb-show confirm", &rep) == 0)
        CHECK_STR_EQ(mi_get_str(rep.record, "value"), "off");
    mi_reply_release(&rep);
    if (run_ok(g, "-gdb-show width", &rep) == 0)
        CHECK_STR_EQ(mi_get_str(rep.record, "value"), "unlimited");
    mi_reply_release(&rep);
    if (run_ok(g, "-inferior-tty-show", &rep) == 0)
        CHECK_STR_EQ(mi_get_str(rep.record, "inferior_tty_terminal"),
                     mi_gdb_pty_name(g));
    mi_reply_release(&rep);
    /* ^error is a reply, with its message */
    CHECK_INT_EQ(mi_gdb_exec_sync(g, "-no-such-command", &rep, 10000), MI_EGDB);
    CHECK(rep.record && rep.record->result_class == MI_CLASS_ERROR);
    CHECK(rep.message && strstr(rep.message, "Undefined MI command"));
    mi_reply_release(&rep);
    /* a command line with a newline is refused before reaching GDB */
    CHECK_INT_EQ(mi_gdb_exec_sync(g, "-gdb-version\n-gdb-exit", &rep, 1000), MI_EINVAL);
    mi_reply_release(&rep);
    CHECK_INT_EQ(mi_gdb_send(g, "", 0, NULL, NULL), MI_EINVAL);
    CHECK_INT_EQ(mi_gdb_close(g, 5000), 0);
    CHECK(WIFEXITED(mi_gdb_wait_status(g)));
    finish_gdb(g, &s);
}

TEST(console_output_in_reply)
{
    struct seen s;
    struct mi_gdb *g = start(&s);
    struct mi_reply rep;
    struct mi_cmd c;

    REQUIRE(g);
    mi_cmd_init(&c);
    mi_cmd_console(&c, "print 6*7");
    if (run_ok(g, mi_cmd_str(&c), &rep) == 0)
        CHECK_STR_EQ(rep.console, "$1 = 42\n");
    mi_reply_release(&rep);
    CHECK(s.nconsole >= 1);
    /* a nasty argument survives the trip: GDB gives back the same bytes */
    mi_cmd_console(&c, "echo tab\\there \\\"q\\\" \\\\ end\\n");
    if (run_ok(g, mi_cmd_str(&c), &rep) == 0)
        CHECK_STR_EQ(rep.console, "tab\there \"q\" \\ end\n");
    mi_reply_release(&rep);
    mi_cmd_op(&c, "-data-evaluate-expression");
    mi_cmd_arg(&c, "sizeof(\"a b\\\"c\\\\d\\n\xc3\xa9\")");
    if (run_ok(g, mi_cmd_str(&c), &rep) == 0)
        CHECK_STR_EQ(mi_get_str(rep.record, "value"), "11");
    mi_reply_release(&rep);
    mi_cmd_release(&c);
    finish_gdb(g, &s);
}

TEST(break_run_evaluate_backtrace_step_finish)
{
    struct seen s;
    struct mi_gdb *g = start(&s);
    struct mi_reply rep;
    const struct mi_record *st;
    int n;

    REQUIRE(g);
    load(g, NULL, NULL);
    if (run_ok(g, "-break-insert compute", &rep) == 0) {
        CHECK_STR_EQ(mi_get_str(rep.record, "bkpt.number"), "1");
        CHECK_STR_EQ(mi_get_str(rep.record, "bkpt.func"), "compute");
    }
    mi_reply_release(&rep);
    n = s.nstopped;
    if (run_ok(g, "-exec-run", &rep) == 0)
        CHECK_INT_EQ(rep.record->result_class, MI_CLASS_RUNNING);
    mi_reply_release(&rep);
    st = wait_stopped(g, &s, n, 20000);
    REQUIRE(st);
    CHECK_STR_EQ(mi_get_str(st, "reason"), "breakpoint-hit");
    CHECK_STR_EQ(mi_get_str(st, "frame.func"), "compute");
    CHECK_STR_EQ(mi_get_str(st, "frame.args[0].name"), "a");
    CHECK_STR_EQ(mi_get_str(st, "frame.args[0].value"), "0");
    CHECK(s.ngroup_started == 1 && s.inferior_pid > 0);
    CHECK(s.nlibrary_loaded >= 1);
    CHECK(!mi_gdb_running(g));

    if (run_ok(g, "-data-evaluate-expression a+b", &rep) == 0)
        CHECK_STR_EQ(mi_get_str(rep.record, "value"), "0");
    mi_reply_release(&rep);
    if (run_ok(g, "-data-evaluate-expression weird_string", &rep) == 0)
        CHECK(strstr(mi_get_str(rep.record, "value"), "\\\"quoted\\\"") != NULL);
    mi_reply_release(&rep);
    if (run_ok(g, "-stack-list-frames", &rep) == 0) {
        CHECK_INT_EQ(mi_get(rep.record, "stack")->count, 3);
        CHECK_STR_EQ(mi_get_str(rep.record, "stack[0].func"), "compute");
        CHECK_STR_EQ(mi_get_str(rep.record, "stack[1].func"), "outer");
        CHECK_STR_EQ(mi_get_str(rep.record, "stack[2].func"), "main");
        CHECK_STR_EQ(mi_get_str(rep.record, "stack[2].level"), "2");
    }
    mi_reply_release(&rep);

    n = s.nstopped;
    simple(g, "-exec-next");
    st = wait_stopped(g, &s, n, 20000);
    REQUIRE(st);
    CHECK_STR_EQ(mi_get_str(st, "reason"), "end-stepping-range");
    CHECK_STR_EQ(mi_get_str(st, "frame.func"), "compute");
    if (run_ok(g, "-data-evaluate-expression sum", &rep) == 0)
        CHECK_STR_EQ(mi_get_str(rep.record, "value"), "0");
    mi_reply_release(&rep);

    n = s.nstopped;
    simple(g, "-exec-finish");
    st = wait_stopped(g, &s, n, 20000);
    REQUIRE(st);
    CHECK_STR_EQ(mi_get_str(st, "reason"), "function-finished");
    CHECK_STR_EQ(mi_get_str(st, "frame.func"), "outer");
    CHECK_STR_EQ(mi_get_str(st, "return-value"), "0");

    n = s.nstopped;
    simple(g, "-exec-step");
    st = wait_stopped(g, &s, n, 20000);
    REQUIRE(st);
    CHECK_STR_EQ(mi_get_str(st, "reason"), "end-stepping-range");

    simple(g, "-break-delete 1");
    n = s.nstopped;
    simple(g, "-exec-continue");
    st = wait_stopped(g, &s, n, 20000);
    REQUIRE(st);
    CHECK_STR_EQ(mi_get_str(st, "reason"), "exited-normally");
    wait_pty(g, &s, "\n", 5000);
    CHECK_MSG(strstr(s.pty, "total=22 counter=42\n") != NULL, "pty: '%s'", s.pty);
    CHECK(strstr(s.pty, "\r\n") == NULL); /* raw pty: bytes unchanged */
    finish_gdb(g, &s);
}

TEST(interrupt_busy_loop)
{
    struct seen s;
    struct mi_gdb *g = start(&s);
    struct mi_reply rep;
    const struct mi_record *st;
    int n;

    REQUIRE(g);
    load(g, "loop", NULL);
    n = s.nstopped;
    simple(g, "-exec-run");
    wait_pty(g, &s, "looping\n", 20000);
    CHECK_MSG(strstr(s.pty, "looping\n") != NULL, "pty: '%s'", s.pty);
    CHECK(mi_gdb_running(g));
    CHECK_INT_EQ(mi_gdb_interrupt(g), 0);
    st = wait_stopped(g, &s, n, 10000);
    REQUIRE(st);
    CHECK_STR_EQ(mi_get_str(st, "reason"), "signal-received");
    CHECK(strcmp(mi_get_str(st, "signal-name"), "SIGINT") == 0 ||
          strcmp(mi_get_str(st, "signal-name"), "0") == 0);
    CHECK(!mi_gdb_running(g));
    /* the program saw a pause, not a SIGINT */
    if (run_ok(g, "-data-evaluate-expression got_sigint", &rep) == 0)
        CHECK_STR_EQ(mi_get_str(rep.record, "value"), "0");
    mi_reply_release(&rep);
    /* resume: still no SIGINT delivered; interrupt again */
    n = s.nstopped;
    simple(g, "-exec-continue");
    CHECK(mi_gdb_running(g));
    pump(g, &s, 200);
    CHECK_INT_EQ(mi_gdb_interrupt(g), 0);
    st = wait_stopped(g, &s, n, 10000);
    REQUIRE(st);
    CHECK_STR_EQ(mi_get_str(st, "reason"), "signal-received");
    simple(g, "-data-evaluate-expression stop_loop=1");
    n = s.nstopped;
    simple(g, "-exec-continue");
    st = wait_stopped(g, &s, n, 20000);
    REQUIRE(st);
    CHECK_STR_EQ(mi_get_str(st, "reason"), "exited-normally");
    wait_pty(g, &s, "loop done\n", 5000);
    CHECK_MSG(strstr(s.pty, "loop done\n") != NULL, "pty: '%s'", s.pty);
    CHECK(strstr(s.pty, "got SIGINT") == NULL);
    finish_gdb(g, &s);
}

struct killed_ctx {
    int calls, status;
    char msg[512];
};

static void on_killed_reply(struct mi_gdb *g, const struct mi_reply *r, void *ud)
{
    struct killed_ctx *k = ud;

    k->calls++;
    k->status = r->status;
    snprintf(k->msg, sizeof k->msg, "%s", r->message);
}

TEST(interrupt_while_gdb_is_busy)
{
    /* GDB is stuck in a 6 s `shell sleep` while the program runs, so it does
       not read -exec-interrupt: after 2 s the driver sends SIGINT to GDB's
       process group, which ends the sleep and stops the program well before
       the sleep would have ended, still without a SIGINT for the program */
    struct seen s;
    struct mi_gdb *g = start(&s);
    struct killed_ctx k = {0, 0, ""};
    struct mi_reply rep;
    const struct mi_record *st;
    int64_t t0;
    int n;

    REQUIRE(g);
    load(g, "loop", NULL);
    n = s.nstopped;
    simple(g, "-exec-run");
    wait_pty(g, &s, "looping\n", 20000);
    CHECK(mi_gdb_send(g, "-interpreter-exec console \"shell sleep 6\"", 0,
                      on_killed_reply, &k) > 0);
    pump(g, &s, 200);
    t0 = mi_now_ms();
    CHECK_INT_EQ(mi_gdb_interrupt(g), 0);
    st = wait_stopped(g, &s, n, 10000);
    REQUIRE(st);
    printf("# stopped %lld ms after mi_gdb_interrupt\n", (long long)(mi_now_ms() - t0));
    CHECK_MSG(mi_now_ms() - t0 < 4500, "stopped after %lld ms",
              (long long)(mi_now_ms() - t0));
    CHECK_STR_EQ(mi_get_str(st, "reason"), "signal-received");
    if (run_ok(g, "-data-evaluate-expression got_sigint", &rep) == 0)
        CHECK_STR_EQ(mi_get_str(rep.record, "value"), "0");
    mi_reply_release(&rep);
    CHECK_INT_EQ(k.calls, 1); /* the shell command got its reply */
    finish_gdb(g, &s);
}

TEST(inferior_exit_code)
{
    struct seen s;
    struct mi_gdb *g = start(&s);
    const struct mi_record *st;
    int n;

    REQUIRE(g);
    load(g, "exit", "7");
    n = s.nstopped;
    simple(g, "-exec-run");
    st = wait_stopped(g, &s, n, 20000);
    REQUIRE(st);
    CHECK_STR_EQ(mi_get_str(st, "reason"), "exited");
    CHECK_STR_EQ(mi_get_str(st, "exit-code"), "07");
    finish_gdb(g, &s);
}

TEST(inferior_crash)
{
    struct seen s;
    struct mi_gdb *g = start(&s);
    struct mi_reply rep;
    const struct mi_record *st;
    int n;

    REQUIRE(g);
    load(g, "crash", NULL);
    n = s.nstopped;
    simple(g, "-exec-run");
    st = wait_stopped(g, &s, n, 20000);
    REQUIRE(st);
    CHECK_STR_EQ(mi_get_str(st, "reason"), "signal-received");
    CHECK_STR_EQ(mi_get_str(st, "signal-name"), "SIGSEGV");
    CHECK_STR_EQ(mi_get_str(st, "frame.func"), "main");
    /* letting it go: it dies of the signal */
    n = s.nstopped;
    simple(g, "-exec-continue");
    st = wait_stopped(g, &s, n, 20000);
    REQUIRE(st);
    CHECK_STR_EQ(mi_get_str(st, "reason"), "exited-signalled");
    CHECK_STR_EQ(mi_get_str(st, "signal-name"), "SIGSEGV");
    /* GDB is still fine */
    if (run_ok(g, "-data-evaluate-expression 1+1", &rep) == 0)
        CHECK_STR_EQ(mi_get_str(rep.record, "value"), "2");
    mi_reply_release(&rep);
    finish_gdb(g, &s);
}

TEST(deadline_reported_then_gdb_usable)
{
    struct seen s;
    struct mi_gdb *g = start(&s);
    struct mi_reply rep;
    int64_t t0;

    REQUIRE(g);
    t0 = mi_now_ms();
    CHECK_INT_EQ(mi_gdb_exec_sync(g, "-interpreter-exec console \"shell sleep 1\"",
                                  &rep, 200), MI_ETIMEDOUT);
    CHECK(mi_now_ms() - t0 < 900);
    CHECK(rep.message && strstr(rep.message, "shell sleep 1"));
    mi_reply_release(&rep);
    /* the late reply is dropped; the next command gets its own reply */
    if (run_ok(g, "-data-evaluate-expression 2*21", &rep) == 0)
        CHECK_STR_EQ(mi_get_str(rep.record, "value"), "42");
    mi_reply_release(&rep);
    CHECK_INT_EQ(mi_gdb_pending(g), 0);
    finish_gdb(g, &s);
}

TEST(gdb_killed_with_command_pending)
{
    struct seen s;
    struct mi_gdb *g = start(&s);
    struct killed_ctx k = {0, 0, ""};
    struct mi_reply rep;
    struct mi_cmd c;
    const struct mi_record *st;
    int64_t t0;
    int n;

    REQUIRE(g);
    load(g, NULL, NULL);
    simple(g, "-break-insert compute");
    n = s.nstopped;
    simple(g, "-exec-run");
    st = wait_stopped(g, &s, n, 20000);
    REQUIRE(st);
    /* an inferior function call that takes 30 s: the command stays pending
       (the expression has blanks: it must be quoted) */
    mi_cmd_init(&c);
    mi_cmd_op(&c, "-data-evaluate-expression");
    mi_cmd_arg(&c, "(unsigned int)sleep(30)");
    CHECK(mi_gdb_send(g, mi_cmd_str(&c), 0, on_killed_reply, &k) > 0);
    mi_cmd_release(&c);
    pump(g, &s, 300);
    CHECK_INT_EQ(k.calls, 0);
    CHECK_INT_EQ(mi_gdb_pending(g), 1);
    t0 = mi_now_ms();
    kill(mi_gdb_pid(g), SIGKILL);
    while (k.calls == 0 && mi_now_ms() - t0 < 5000)
        pump(g, &s, 100);
    CHECK_INT_EQ(k.calls, 1);
    CHECK_INT_EQ(k.status, MI_EEXITED);
    CHECK_MSG(strstr(k.msg, "killed by signal 9") && strstr(k.msg, "sleep(30)"),
              "message: %s", k.msg);
    CHECK(mi_now_ms() - t0 < 2000);
    CHECK_INT_EQ(mi_gdb_pending(g), 0);
    CHECK(WIFSIGNALED(mi_gdb_wait_status(g)));
    /* later commands fail at once, never hang */
    CHECK_INT_EQ(mi_gdb_exec_sync(g, "-gdb-version", &rep, 0), MI_EEXITED);
    mi_reply_release(&rep);
    CHECK_INT_EQ(mi_gdb_process(g, NULL, 0), MI_EEXITED);
    finish_gdb(g, &s);
}

TEST(gdb_killed_while_child_holds_its_output)
{
    /* `shell sleep 3` inherits GDB's stdout: killing GDB alone gives no
       EOF for 3 s; the driver's waitpid() check must notice sooner */
    struct seen s;
    struct mi_gdb *g = start(&s);
    struct killed_ctx k = {0, 0, ""};
    int64_t t0;

    REQUIRE(g);
    CHECK(mi_gdb_send(g, "-interpreter-exec console \"shell sleep 3\"", 0,
                      on_killed_reply, &k) > 0);
    pump(g, &s, 300);
    t0 = mi_now_ms();
    kill(mi_gdb_pid(g), SIGKILL);
    while (k.calls == 0 && mi_now_ms() - t0 < 5000)
        pump(g, &s, 100);
    CHECK_INT_EQ(k.calls, 1);
    CHECK_INT_EQ(k.status, MI_EEXITED);
    CHECK_MSG(mi_now_ms() - t0 < 1500, "took %lld ms", (long long)(mi_now_ms() - t0));
    finish_gdb(g, &s);
}

TEST(gdb_not_found)
{
    char *const argv[] = {"/nonexistent/gdb", "--interpreter=mi3", NULL};
    struct mi_gdb_options opt;
    struct mi_gdb *g = NULL;
    char msg[256];

    memset(&opt, 0, sizeof opt);
    opt.argv = argv;
    CHECK_INT_EQ(mi_gdb_start(&g, &opt, msg, sizeof msg), MI_ESPAWN);
    CHECK(g == NULL);
    CHECK_MSG(strstr(msg, "/nonexistent/gdb") && strstr(msg, "No such file"), "%s", msg);
}

TEST(not_an_mi_gdb)
{
    /* a program that exits at once: setup fails cleanly, no hang */
    char *const argv[] = {"true", NULL};
    struct mi_gdb_options opt;
    struct mi_gdb *g = NULL;
    char msg[256];

    memset(&opt, 0, sizeof opt);
    opt.argv = argv;
    REQUIRE(mi_gdb_start(&g, &opt, msg, sizeof msg) == 0);
    CHECK_INT_EQ(mi_gdb_wait_ready(g, 10000), MI_EEXITED);
    CHECK_MSG(strstr(mi_gdb_error(g), "exited with status 0"), "%s", mi_gdb_error(g));
    mi_gdb_free(g);
}

struct wrap_ctx {
    int stderr_lines, saw_wrapper;
};

static void on_wrap_stream(struct mi_gdb *g, const struct mi_record *rec, void *ud)
{
    struct wrap_ctx *w = ud;

    if (rec->kind == MI_RECORD_STDERR) {
        w->stderr_lines++;
        if (strcmp(rec->text, "wrapper: starting gdb") == 0)
            w->saw_wrapper = 1;
    }
}

TEST(caller_argv_wrapper_and_stderr)
{
    /* a caller-given argv, as `ssh host gdb ...` will be: here a wrapper
       that writes to stderr first, then execs gdb */
    char *const argv[] = {
        "sh", "-c",
        "echo 'wrapper: starting gdb' >&2; exec gdb -nx -q --interpreter=mi3",
        NULL,
    };
    struct mi_gdb_options opt;
    struct wrap_ctx w = {0, 0};
    struct mi_gdb *g = NULL;
    struct mi_reply rep;
    char msg[256];

    memset(&opt, 0, sizeof opt);
    opt.argv = argv;
    opt.on_stream = on_wrap_stream;
    opt.ud = &w;
    REQUIRE(mi_gdb_start(&g, &opt, msg, sizeof msg) == 0);
    CHECK_INT_EQ(mi_gdb_wait_ready(g, 20000), 0);
    if (run_ok(g, "-data-evaluate-expression 3*3", &rep) == 0)
        CHECK_STR_EQ(mi_get_str(rep.record, "value"), "9");
    mi_reply_release(&rep);
    CHECK(w.saw_wrapper);
    mi_gdb_free(g);
}

#define MANY 64

struct many_ctx {
    int answered, wrong;
};

static void on_many_reply(struct mi_gdb *g, const struct mi_reply *r, void *ud)
{
    struct many_ctx *m = ud;
    long long v = -1;

    m->answered++;
    if (r->status != 0 || mi_get_int(r->record, "value", &v) != 0 ||
        v != (long long)(intptr_t)mi_gdb_pid(g) % 1000 + 1)
        m->wrong++;
}

TEST(many_gdbs_one_poll_loop)
{
    struct mi_gdb *gs[MANY];
    struct pollfd fds[MANY * MI_GDB_MAX_POLLFDS];
    int idx[MANY + 1];
    struct many_ctx m = {0, 0};
    int i, ready = 0, sent = 0;
    int64_t end = mi_now_ms() + 90000;

    for (i = 0; i < MANY; i++) {
        char msg[256];
        REQUIRE(mi_gdb_start(&gs[i], NULL, msg, sizeof msg) == 0);
    }
    while (m.answered < MANY && mi_now_ms() < end) {
        int n = 0, t = 1000;
        for (i = 0; i < MANY; i++) {
            int gt = mi_gdb_timeout(gs[i]);
            idx[i] = n;
            n += mi_gdb_pollfds(gs[i], fds + n, MI_GDB_MAX_POLLFDS);
            if (gt >= 0 && gt < t)
                t = gt;
        }
        idx[MANY] = n;
        poll(fds, (nfds_t)n, t);
        for (i = 0; i < MANY; i++)
            mi_gdb_process(gs[i], fds + idx[i], idx[i + 1] - idx[i]);
        if (!sent) {
            for (ready = 0, i = 0; i < MANY; i++)
                ready += mi_gdb_ready(gs[i]) == 1;
            if (ready == MANY) {
                for (i = 0; i < MANY; i++) {
                    char cmd[64];
                    snprintf(cmd, sizeof cmd, "-data-evaluate-expression %d+1",
                             (int)(mi_gdb_pid(gs[i]) % 1000));
                    mi_gdb_send(gs[i], cmd, 0, on_many_reply, &m);
                }
                sent = 1;
            }
        }
    }
    CHECK_INT_EQ(ready, MANY);
    CHECK_INT_EQ(m.answered, MANY);
    CHECK_INT_EQ(m.wrong, 0);
    for (i = 0; i < MANY; i++)
        mi_gdb_free(gs[i]);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s PATH-TO-MI-INFERIOR\n", argv[0]);
        return 2;
    }
    inferior = argv[1];
    RUN(start_and_setup);
    RUN(console_output_in_reply);
    RUN(break_run_evaluate_backtrace_step_finish);
    RUN(interrupt_busy_loop);
    RUN(interrupt_while_gdb_is_busy);
    RUN(inferior_exit_code);
    RUN(inferior_crash);
    RUN(deadline_reported_then_gdb_usable);
    RUN(gdb_killed_with_command_pending);
    RUN(gdb_killed_while_child_holds_its_output);
    RUN(gdb_not_found);
    RUN(not_an_mi_gdb);
    RUN(caller_argv_wrapper_and_stderr);
    RUN(many_gdbs_one_poll_loop);
    return check_done();
}
