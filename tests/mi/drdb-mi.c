/*
 * drdb-mi.c - a small tool to drive one GDB through mi/ by hand or script.
 *
 * usage: drdb-mi [-t TIMEOUT_MS] [-- GDB-ARGV...]
 *
 * Reads lines on stdin and, once GDB's setup is done, handles them in order:
 *   -mi-command args...   sent with a token; waits for its reply
 *   !interrupt            mi_gdb_interrupt()
 *   !wait-stopped         waits for a *stopped record not waited for yet
 *                         (each one is taken once, even if it came early)
 *   !sleep MS             keeps driving GDB for MS milliseconds
 *   # comment / empty     ignored
 * and prints, in the mi_record_dump format, every record GDB sends (replies
 * prefixed "reply:", status shown), plus the program's pty output as
 * "pty: ..." lines. Exits 0 when every command succeeded, 1 when one
 * failed (^error, GDB gone, deadline), 2 on usage errors.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mi.h"

struct state {
    int nstopped;
    int consumed;      /* *stopped records taken by !wait-stopped */
    int failed;
    int waiting;       /* reply still to come */
};

static void print_pty(struct mi_gdb *g)
{
    char buf[4096];
    ssize_t n;
    int fd = mi_gdb_pty_fd(g);

    while (fd >= 0 && (n = read(fd, buf, sizeof buf)) > 0) {
        char *p = buf, *e = buf + n;
        while (p < e) {
            char *nl = memchr(p, '\n', (size_t)(e - p));
            size_t l = nl ? (size_t)(nl - p) : (size_t)(e - p);
            printf("pty: %.*s\n", (int)l, p);
            p += l + (nl != NULL);
        }
    }
}

static void on_async(struct mi_gdb *g, const struct mi_record *rec, void *ud)
{
    struct state *s = ud;

    if (rec->kind == MI_RECORD_EXEC && strcmp(rec->klass, "stopped") == 0)
        s->nstopped++;
    mi_record_dump(rec, stdout);
}

static void on_stream(struct mi_gdb *g, const struct mi_record *rec, void *ud)
{
    mi_record_dump(rec, stdout);
}

static void on_reply(struct mi_gdb *g, const struct mi_reply *r, void *ud)
{
    struct state *s = ud;

    printf("reply: token=%llu status=%s", (unsigned long long)r->token,
           mi_err_name(r->status));
    if (r->status)
        printf(" message=\"%s\"", r->message);
    printf("\n");
    if (r->record)
        mi_record_dump(r->record, stdout);
    if (r->status)
        s->failed = 1;
    s->waiting = 0;
}

/* Drive GDB (and print the pty) until `done` or ms pass (-1: no limit). */
static int drive(struct mi_gdb *g, struct state *s, int ms, int (*done)(struct state *, int),
                 int arg)
{
    int64_t end = ms >= 0 ? mi_now_ms() + ms : INT64_MAX;

    while (!(done && done(s, arg))) {
        struct pollfd fds[MI_GDB_MAX_POLLFDS + 1];
        int n = mi_gdb_pollfds(g, fds, MI_GDB_MAX_POLLFDS), t = mi_gdb_timeout(g), r;
        int64_t now = mi_now_ms();
        if (n == 0)
            return MI_EEXITED;
        if (now >= end)
            return MI_ETIMEDOUT;
        if (t < 0 || t > end - now)
            t = (int)(end - now > 1000 ? 1000 : end - now);
        fds[n].fd = mi_gdb_pty_fd(g);
        fds[n].events = POLLIN;
        fds[n].revents = 0;
        r = poll(fds, (nfds_t)n + 1, t);
        if (r > 0 && fds[n].revents)
            print_pty(g);
        mi_gdb_process(g, fds, r > 0 ? n : 0);
        fflush(stdout);
    }
    return 0;
}

static int reply_done(struct state *s, int arg)
{
    return !s->waiting;
}

static int stopped_done(struct state *s, int arg)
{
    return s->nstopped > arg;
}

int main(int argc, char **argv)
{
    struct mi_gdb_options opt;
    struct state s = {0, 0, 0, 0};
    struct mi_gdb *g;
    char msg[512], line[65536];
    int timeout = 30000, i = 1, r;

    while (i < argc && strcmp(argv[i], "--") != 0) {
        if (strcmp(argv[i], "-t") == 0 && i + 1 < argc) {
            timeout = atoi(argv[i + 1]);
            i += 2;
        } else {
            fprintf(stderr, "usage: drdb-mi [-t TIMEOUT_MS] [-- GDB-ARGV...] < script\n");
            return 2;
        }
    }
    memset(&opt, 0, sizeof opt);
    if (i < argc && i + 1 < argc)
        opt.argv = argv + i + 1;
    opt.on_async = on_async;
    opt.on_stream = on_stream;
    opt.ud = &s;
    r = mi_gdb_start(&g, &opt, msg, sizeof msg);
    if (r) {
        fprintf(stderr, "drdb-mi: %s: %s\n", mi_strerror(r), msg);
        return 1;
    }
    r = mi_gdb_wait_ready(g, timeout);
    if (r) {
        fprintf(stderr, "drdb-mi: %s: %s\n", mi_strerror(r), mi_gdb_error(g));
        mi_gdb_free(g);
        return 1;
    }
    printf("ready: pid=%ld pty=%s\n", (long)mi_gdb_pid(g),
           mi_gdb_pty_name(g) ? mi_gdb_pty_name(g) : "-");
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (!line[0] || line[0] == '#')
            continue;
        printf("> %s\n", line);
        fflush(stdout);
        if (strcmp(line, "!interrupt") == 0) {
            if (mi_gdb_interrupt(g) < 0)
                s.failed = 1;
        } else if (strcmp(line, "!wait-stopped") == 0) {
            if (drive(g, &s, timeout, stopped_done, s.consumed) < 0) {
                printf("error: no *stopped within %d ms\n", timeout);
                s.failed = 1;
            } else {
                s.consumed++;
            }
        } else if (strncmp(line, "!sleep ", 7) == 0) {
            drive(g, &s, atoi(line + 7), NULL, 0);
        } else {
            int64_t tok;
            s.waiting = 1;
            tok = mi_gdb_send(g, line, timeout, on_reply, &s);
            if (tok < 0) {
                printf("error: %s\n", mi_strerror((int)tok));
                s.failed = 1;
                s.waiting = 0;
                if (tok == MI_EEXITED)
                    break;
                continue;
            }
            drive(g, &s, -1, reply_done, 0);
        }
    }
    fflush(stdout);
    mi_gdb_close(g, 5000);
    mi_gdb_free(g);
    return s.failed;
}
