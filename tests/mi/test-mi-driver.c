/*
 * test-mi-driver.c - the mi/ driver against fake-gdb (fake-gdb.c), a
 * scripted stand-in for GDB: deterministic checks of reply matching, callbacks,
 * console capture, odd output (CRLF, stray tokens, non-MI lines, big
 * lines, stderr), async ordering, deadlines and GDB exiting. No real GDB.
 *
 * usage: test-mi-driver PATH-TO-FAKE-GDB
 */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "check.h"
#include "mi.h"

static const char *fake;

struct seen {
    int async, stream, stderr_lines, invalid, stray, stopped, group_started;
    int order_ok; /* =thread-group-started came before the ^running reply */
    int replied;
};

static void on_async(struct mi_gdb *g, const struct mi_record *rec, void *ud)
{
    struct seen *s = ud;

    s->async++;
    if (rec->kind == MI_RECORD_RESULT && rec->has_token && rec->token == 424242)
        s->stray++;
    if (rec->kind == MI_RECORD_EXEC && strcmp(rec->klass, "stopped") == 0)
        s->stopped++;
    if (rec->kind == MI_RECORD_NOTIFY && strcmp(rec->klass, "thread-group-started") == 0) {
        s->group_started++;
        s->order_ok = !s->replied;
    }
}

static void on_stream(struct mi_gdb *g, const struct mi_record *rec, void *ud)
{
    struct seen *s = ud;

    s->stream++;
    if (rec->kind == MI_RECORD_STDERR && strcmp(rec->text, "fake: a warning") == 0)
        s->stderr_lines++;
    if (rec->kind == MI_RECORD_INVALID && strcmp(rec->line, "this is not mi") == 0)
        s->invalid++;
}

static struct mi_gdb *start(struct seen *s)
{
    char *argv[] = {(char *)fake, NULL};
    struct mi_gdb_options opt;
    struct mi_gdb *g = NULL;
    char msg[256];

    memset(s, 0, sizeof *s);
    memset(&opt, 0, sizeof opt);
    opt.argv = argv;
    opt.on_async = on_async;
    opt.on_stream = on_stream;
    opt.ud = s;
    if (mi_gdb_start(&g, &opt, msg, sizeof msg) != 0) {
        CHECK_MSG(0, "start: %s", msg);
        return NULL;
    }
    CHECK_INT_EQ(mi_gdb_wait_ready(g, 20000), 0);
    return g;
}

TEST(setup_and_features)
{
    struct seen s;
    struct mi_gdb *g = start(&s);

    REQUIRE(g);
    CHECK_INT_EQ(mi_gdb_ready(g), 1);
    CHECK(mi_gdb_has_feature(g, "fake"));
    CHECK(mi_gdb_has_feature(g, "thread-info"));
    CHECK_INT_EQ(mi_gdb_pending(g), 0);
    CHECK_INT_EQ(mi_gdb_close(g, 5000), 0);
    CHECK(WIFEXITED(mi_gdb_wait_status(g)) && WEXITSTATUS(mi_gdb_wait_status(g)) == 0);
    mi_gdb_free(g);
}

TEST(odd_output)
{
    struct seen s;
    struct mi_gdb *g = start(&s);
    struct mi_reply rep;

    REQUIRE(g);
    CHECK_INT_EQ(mi_gdb_exec_sync(g, "-crlf", &rep, 5000), 0);
    CHECK_STR_EQ(mi_get_str(rep.record, "v"), "crlf");
    mi_reply_release(&rep);

    CHECK_INT_EQ(mi_gdb_exec_sync(g, "-stray", &rep, 5000), 0);
    CHECK(mi_get(rep.record, "stray") == NULL); /* not taken for ours */
    CHECK_INT_EQ(s.stray, 1);                     /* went to on_async */
    mi_reply_release(&rep);

    CHECK_INT_EQ(mi_gdb_exec_sync(g, "-garbage", &rep, 5000), 0);
    CHECK_INT_EQ(s.invalid, 1);
    mi_reply_release(&rep);

    CHECK_INT_EQ(mi_gdb_exec_sync(g, "-stderr", &rep, 5000), 0);
    mi_reply_release(&rep);
    CHECK_INT_EQ(mi_gdb_exec_sync(g, "-x", &rep, 5000), 0); /* give stderr time */
    mi_reply_release(&rep);
    CHECK_INT_EQ(s.stderr_lines, 1);

    CHECK_INT_EQ(mi_gdb_exec_sync(g, "-big 3000000", &rep, 20000), 0);
    CHECK_INT_EQ(mi_get(rep.record, "v")->len, 3000000);
    mi_reply_release(&rep);

    {
        /* a 4 MB command line: more than the socket takes at once, so the
           rest goes out on POLLOUT */
        size_t n = 4u << 20;
        char *cmd = malloc(n + 8);
        REQUIRE(cmd);
        memcpy(cmd, "-x ", 3);
        memset(cmd + 3, 'y', n);
        cmd[n + 3] = '\0';
        CHECK_INT_EQ(mi_gdb_exec_sync(g, cmd, &rep, 20000), 0);
        CHECK_STR_EQ(rep.command, cmd);
        mi_reply_release(&rep);
        free(cmd);
    }

    CHECK_INT_EQ(mi_gdb_exec_sync(g, "-error", &rep, 5000), MI_EGDB);
    CHECK_STR_EQ(rep.message, "fake error");
    mi_reply_release(&rep);
    mi_gdb_free(g);
}

TEST(console_capture)
{
    struct seen s;
    struct mi_gdb *g = start(&s);
    struct mi_reply rep;

    REQUIRE(g);
    CHECK_INT_EQ(mi_gdb_exec_sync(g, "-console 3", &rep, 5000), 0);
    CHECK_STR_EQ(rep.console, "line 0\nline 1\nline 2\n");
    CHECK_INT_EQ(rep.console_len, 21);
    mi_reply_release(&rep);
    CHECK_INT_EQ(mi_gdb_exec_sync(g, "-x", &rep, 5000), 0);
    CHECK_STR_EQ(rep.console, "");
    mi_reply_release(&rep);
    mi_gdb_free(g);
}

static void on_run_reply(struct mi_gdb *g, const struct mi_reply *r, void *ud)
{
    struct seen *s = ud;

    CHECK_INT_EQ(r->status, 0);
    CHECK_INT_EQ(r->record->result_class, MI_CLASS_RUNNING);
    s->replied = 1;
}

TEST(async_before_reply)
{
    struct seen s;
    struct mi_gdb *g = start(&s);
    int64_t end = mi_now_ms() + 10000;

    REQUIRE(g);
    CHECK(mi_gdb_send(g, "-run", 0, on_run_reply, &s) > 0);
    while (s.stopped == 0 && mi_now_ms() < end)
        mi_gdb_step(g, 100);
    CHECK(s.replied);
    CHECK_INT_EQ(s.group_started, 1);
    CHECK(s.order_ok);
    CHECK_INT_EQ(s.stopped, 1);
    CHECK(!mi_gdb_running(g));
    mi_gdb_free(g);
}

struct calls {
    int n, status;
    uint64_t tokens[8];
};

static void on_reply(struct mi_gdb *g, const struct mi_reply *r, void *ud)
{
    struct calls *c = ud;

    if (c->n < 8)
        c->tokens[c->n] = r->token;
    c->n++;
    c->status = r->status;
}

TEST(replies_in_order_and_tokens)
{
    struct seen s;
    struct mi_gdb *g = start(&s);
    struct calls c;
    int64_t t[5];
    int i;
    int64_t end = mi_now_ms() + 10000;

    REQUIRE(g);
    memset(&c, 0, sizeof c);
    for (i = 0; i < 5; i++)
        t[i] = mi_gdb_send(g, "-x", 0, on_reply, &c);
    CHECK_INT_EQ(mi_gdb_pending(g), 5);
    while (c.n < 5 && mi_now_ms() < end)
        mi_gdb_step(g, 100);
    CHECK_INT_EQ(c.n, 5);
    for (i = 0; i < 5; i++) {
        CHECK(t[i] > 0);
        CHECK_INT_EQ(c.tokens[i], t[i]);
        if (i)
            CHECK(t[i] > t[i - 1]);
    }
    mi_gdb_free(g);
}

TEST(deadline_and_invalid_commands)
{
    struct seen s;
    struct mi_gdb *g = start(&s);
    struct mi_reply rep;
    int64_t t0;

    REQUIRE(g);
    t0 = mi_now_ms();
    CHECK_INT_EQ(mi_gdb_exec_sync(g, "-hang", &rep, 300), MI_ETIMEDOUT);
    CHECK(mi_now_ms() - t0 >= 290 && mi_now_ms() - t0 < 3000);
    CHECK(strstr(rep.message, "-hang") != NULL);
    mi_reply_release(&rep);
    CHECK_INT_EQ(mi_gdb_pending(g), 0);
    CHECK_INT_EQ(mi_gdb_send(g, "-x\n-y", 0, NULL, NULL), MI_EINVAL);
    CHECK_INT_EQ(mi_gdb_send(g, "-x\r", 0, NULL, NULL), MI_EINVAL);
    CHECK_INT_EQ(mi_gdb_send(g, "12-x", 0, NULL, NULL), MI_EINVAL);
    CHECK_INT_EQ(mi_gdb_send(g, "", 0, NULL, NULL), MI_EINVAL);
    CHECK_INT_EQ(mi_gdb_exec_sync(g, "-x", &rep, 5000), 0);
    mi_reply_release(&rep);
    mi_gdb_free(g);
}

TEST(gdb_exits_with_commands_pending)
{
    struct seen s;
    struct mi_gdb *g = start(&s);
    struct calls c1, c2;
    struct mi_reply rep;
    int64_t end = mi_now_ms() + 10000;

    REQUIRE(g);
    memset(&c1, 0, sizeof c1);
    memset(&c2, 0, sizeof c2);
    CHECK(mi_gdb_send(g, "-hang", 0, on_reply, &c1) > 0);
    CHECK(mi_gdb_send(g, "-die 3", 0, on_reply, &c2) > 0);
    while ((c1.n == 0 || c2.n == 0) && mi_now_ms() < end)
        mi_gdb_step(g, 100);
    CHECK_INT_EQ(c1.n, 1);
    CHECK_INT_EQ(c2.n, 1);
    CHECK_INT_EQ(c1.status, MI_EEXITED);
    CHECK_INT_EQ(c2.status, MI_EEXITED);
    CHECK(WIFEXITED(mi_gdb_wait_status(g)) && WEXITSTATUS(mi_gdb_wait_status(g)) == 3);
    CHECK(strstr(mi_gdb_error(g), "exited with status 3") != NULL);
    CHECK_INT_EQ(mi_gdb_send(g, "-x", 0, on_reply, &c1), MI_EEXITED);
    CHECK_INT_EQ(mi_gdb_exec_sync(g, "-x", &rep, 0), MI_EEXITED);
    mi_reply_release(&rep);
    {
        struct pollfd fds[MI_GDB_MAX_POLLFDS];
        CHECK_INT_EQ(mi_gdb_pollfds(g, fds, MI_GDB_MAX_POLLFDS), 0);
    }
    mi_gdb_free(g);
}

TEST(free_fails_pending)
{
    struct seen s;
    struct mi_gdb *g = start(&s);
    struct calls c;

    REQUIRE(g);
    memset(&c, 0, sizeof c);
    CHECK(mi_gdb_send(g, "-hang", 0, on_reply, &c) > 0);
    mi_gdb_free(g);
    CHECK_INT_EQ(c.n, 1);
    CHECK_INT_EQ(c.status, MI_EEXITED);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s PATH-TO-FAKE-GDB\n", argv[0]);
        return 2;
    }
    fake = argv[1];
    RUN(setup_and_features);
    RUN(odd_output);
    RUN(console_capture);
    RUN(async_before_reply);
    RUN(replies_in_order_and_tokens);
    RUN(deadline_and_invalid_commands);
    RUN(gdb_exits_with_commands_pending);
    RUN(free_fails_pending);
    return check_done();
}
