/*
 * gate-agent - a drdb agent behind a gate, for test-remote-index.sh:
 * given to drdb as --remote-drdb for local agents (drdb runs it as
 * `gate-agent agent ...`), it runs `$GATE_DRDB agent ...` and relays the
 * connection both ways, but holds what the agent sends until every agent
 * of the session (GATE_N of them, meeting in directory GATE_DIR) got as
 * far:
 *   - its HELLO until GATE_N gates started: a client that waits for one
 *     host's HELLO before it starts the next host's agent is stuck there;
 *   - its copies (IMAGE, IMAGE_END) until GATE_N gates saw an INDEX
 *     request: a client that waits for one host's copies before it asks
 *     the next host is stuck there.
 * A gate stuck GATE_WAIT_MS (default 8000) opens anyway, after writing
 * GATE_DIR/stuck-started.PID or stuck-index.PID (the test's failure), so the
 * session still ends. The relayed bytes are not changed.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "wire.h"

static const char *dir;
static int want;

static long long now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static void touch(const char *what, long id)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s.%ld", dir, what, id);
    FILE *f = fopen(path, "w");
    if (f)
        fclose(f);
}

/* How many gates got to WHAT (files WHAT.*). */
static int count(const char *what)
{
    char cmd[4400];
    snprintf(cmd, sizeof cmd, "ls '%s' | grep -c '^%s\\.'", dir, what);
    FILE *p = popen(cmd, "r");
    int n = 0;
    if (p) {
        if (fscanf(p, "%d", &n) != 1)
            n = 0;
        pclose(p);
    }
    return n;
}

static int write_all(int fd, const uint8_t *p, size_t n)
{
    while (n) {
        ssize_t k = write(fd, p, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

struct buf {
    uint8_t *p;
    size_t len, cap;
};

static void add(struct buf *b, const uint8_t *p, size_t n)
{
    if (b->len + n > b->cap) {
        b->cap = (b->len + n) * 2;
        b->p = realloc(b->p, b->cap);
        if (!b->p)
            exit(99);
    }
    memcpy(b->p + b->len, p, n);
    b->len += n;
}

/* The frame at P (N bytes): its type and whole size, or 0 if incomplete. */
static size_t frame(const uint8_t *p, size_t n, unsigned *type)
{
    if (n < WIRE_HEADER)
        return 0;
    size_t len = (size_t)p[0] | (size_t)p[1] << 8 | (size_t)p[2] << 16 |
                 (size_t)p[3] << 24;
    *type = (unsigned)p[4] | (unsigned)p[5] << 8;
    return n >= WIRE_HEADER + len ? WIRE_HEADER + len : 0;
}

/* Opens gate WHAT once WANT gates got there, or after the wait. */
static int open_gate(const char *what, long long since, int *stuck)
{
    static long long wait_ms = -1;
    if (wait_ms < 0)
        wait_ms = getenv("GATE_WAIT_MS") ? atoll(getenv("GATE_WAIT_MS"))
                                         : 8000;
    if (count(what) >= want)
        return 1;
    if (now_ms() - since < wait_ms)
        return 0;
    if (!*stuck) {
        char name[64];
        snprintf(name, sizeof name, "stuck-%s", what);
        touch(name, (long)getpid());
        *stuck = 1;
    }
    return 1;
}

int main(int argc, char **argv)
{
    const char *drdb = getenv("GATE_DRDB");
    dir = getenv("GATE_DIR");
    want = getenv("GATE_N") ? atoi(getenv("GATE_N")) : 2;
    if (!drdb || !dir || argc < 2) {
        fprintf(stderr, "usage: GATE_DRDB=DRDB GATE_DIR=DIR [GATE_N=N] "
                "gate-agent agent ARGS...\n");
        return 2;
    }
    int to[2], from[2];
    if (pipe(to) < 0 || pipe(from) < 0)
        return 2;
    signal(SIGPIPE, SIG_IGN);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(to[0], 0);
        dup2(from[1], 1);
        close(to[0]);
        close(to[1]);
        close(from[0]);
        close(from[1]);
        argv[0] = (char *)drdb;
        execv(drdb, argv);
        _exit(127);
    }
    close(to[0]);
    close(from[1]);
    touch("started", (long)getpid());
    long long t_start = now_ms(), t_index = 0;
    int asked = 0, hello_open = 0, index_open = 0, stuck_h = 0, stuck_i = 0;
    struct buf in = {0}, out = {0};
    size_t sent = 0;
    int client = 0, agent = from[0];
    while (agent >= 0 || sent < out.len) {
        struct pollfd fds[2] = {{client, POLLIN, 0}, {agent, POLLIN, 0}};
        if (poll(fds, 2, 50) < 0 && errno != EINTR)
            break;
        uint8_t b[65536];
        if (client >= 0 && fds[0].revents) {
            ssize_t k = read(client, b, sizeof b);
            if (k <= 0) {
                close(to[1]); /* the end of the agent's input */
                client = -1;
            } else {
                add(&in, b, (size_t)k);
                unsigned type;
                size_t at = 0, fl;
                while ((fl = frame(in.p + at, in.len - at, &type))) {
                    if (type == WIRE_INDEX && !asked) {
                        asked = 1;
                        t_index = now_ms();
                        touch("index", (long)getpid());
                    }
                    at += fl;
                }
                memmove(in.p, in.p + at, in.len - at);
                in.len -= at;
                if (write_all(to[1], b, (size_t)k) < 0)
                    client = -1;
            }
        }
        if (agent >= 0 && fds[1].revents) {
            ssize_t k = read(agent, b, sizeof b);
            if (k <= 0) {
                close(agent);
                agent = -1;
            } else {
                add(&out, b, (size_t)k);
            }
        }
        /* Pass on the frames the gates let through, in order. */
        unsigned type;
        size_t fl;
        while ((fl = frame(out.p + sent, out.len - sent, &type))) {
            if (type == WIRE_HELLO && !hello_open &&
                !(hello_open = open_gate("started", t_start, &stuck_h)))
                break;
            if ((type == WIRE_IMAGE || type == WIRE_IMAGE_END) &&
                !index_open &&
                !(index_open = open_gate("index", t_index, &stuck_i)))
                break;
            if (write_all(1, out.p + sent, fl) < 0)
                return 1;
            sent += fl;
        }
        if (agent < 0 && !frame(out.p + sent, out.len - sent, &type))
            break; /* nothing whole left */
    }
    int st = 0;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}
