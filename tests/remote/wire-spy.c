/*
 * wire-spy.c - a `drdb agent` between the client and a real one that
 * writes down the frames going by (test-remote-pipeline.sh): given as
 * --remote-drdb for localhost, it is started as `SPY agent [ARGS]`, starts
 * `$WIRE_SPY_DRDB agent [ARGS]` and relays both ways unchanged, appending
 * to $WIRE_SPY_LOG one line per frame in the order it passed them on:
 *
 *     > TYPE CHANNEL      client -> agent
 *     < TYPE CHANNEL      agent -> client
 *
 * What the client wrote in one go is read (and logged) in one go before
 * anything else is relayed, so the log shows which requests the client
 * had sent before it saw an answer.
 *
 * usage: WIRE_SPY_DRDB=DRDB WIRE_SPY_LOG=FILE wire-spy agent [ARGS...]
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "wire.h"

static FILE *spylog;

/* Bytes of one direction not yet parsed into whole frames. */
struct dir {
    const char *mark;
    struct wire_buf pend;
};

/* Relays what FROM has to TO, logging each frame completed: 1, or 0 at
 * FROM's end (or an error). */
static int relay(int from, int to, struct dir *d)
{
    static uint8_t buf[1 << 16];
    ssize_t n;
    do
        n = read(from, buf, sizeof buf);
    while (n < 0 && errno == EINTR);
    if (n <= 0)
        return 0;
    wire_buf_add(&d->pend, buf, (size_t)n);
    for (;;) {
        struct wire_frame f;
        char err[256];
        long k = wire_parse(d->pend.p + d->pend.off, wire_buf_size(&d->pend),
                            &f, err, sizeof err);
        if (k <= 0) {
            if (k < 0) {
                fprintf(spylog, "%s BAD %s\n", d->mark, err);
                wire_buf_drop(&d->pend, wire_buf_size(&d->pend));
            }
            break;
        }
        fprintf(spylog, "%s %s %u\n", d->mark, wire_type_name(f.type),
                (unsigned)f.channel);
        wire_buf_drop(&d->pend, (size_t)k);
    }
    fflush(spylog);
    for (ssize_t done = 0; done < n;) {
        ssize_t w = write(to, buf + done, (size_t)(n - done));
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return 0;
        done += w;
    }
    return 1;
}

int main(int argc, char **argv)
{
    const char *drdb = getenv("WIRE_SPY_DRDB"), *path = getenv("WIRE_SPY_LOG");
    int to[2], from[2];
    if (!drdb || !path || argc < 2 || !(spylog = fopen(path, "a")) ||
        pipe(to) < 0 || pipe(from) < 0) {
        fprintf(stderr, "usage: WIRE_SPY_DRDB=DRDB WIRE_SPY_LOG=FILE "
                "wire-spy agent [ARGS...]\n");
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    pid_t pid = fork();
    if (pid < 0)
        return 2;
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
    struct dir out = {.mark = ">"}, in = {.mark = "<"};
    wire_buf_init(&out.pend);
    wire_buf_init(&in.pend);
    int client = 0, agent = from[0];
    while (agent >= 0) {
        struct pollfd fds[2] = {{client, POLLIN, 0}, {agent, POLLIN, 0}};
        if (poll(fds, 2, -1) < 0 && errno != EINTR)
            break;
        /* The client's bytes first: what it sent before an answer. */
        if (client >= 0 && fds[0].revents && !relay(client, to[1], &out)) {
            close(to[1]); /* the agent's end of the connection */
            client = -1;
        }
        if (fds[1].revents && !relay(agent, 1, &in)) {
            close(agent);
            agent = -1;
        }
    }
    int st = 0;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}
