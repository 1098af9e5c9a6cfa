/*
 * bench-mi-roundtrip.c - cost of one MI command round trip through the
 * driver (mi_gdb_exec_sync) compared with a bare client that writes the
 * command to a GDB pipe and scans the raw output for "<token>^done" (GDB's
 * own time plus the pipes). The difference is the driver's overhead.
 *
 * usage: bench-mi-roundtrip [N]
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "mi.h"

static double now_us(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static double bare(int n)
{
    int in[2], out[2], i;
    pid_t pid;
    char buf[65536];
    size_t len = 0;
    double t0 = 0;

    if (pipe(in) < 0 || pipe(out) < 0)
        return -1;
    pid = fork();
    if (pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        close(in[1]);
        close(out[0]);
        execlp("gdb", "gdb", "-nx", "-q", "--interpreter=mi3", (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    for (i = 0; i <= n; i++) {
        char cmd[64], want[32];
        int l = snprintf(cmd, sizeof cmd, "%d-data-evaluate-expression 1\n", i + 1);
        snprintf(want, sizeof want, "\n%d^done", i + 1);
        buf[0] = '\n'; /* the buffer always starts at a line start */
        len = 1;
        if (i == 1)
            t0 = now_us(); /* the first one includes GDB's start */
        if (write(in[1], cmd, (size_t)l) != l)
            return -1;
        for (;;) {
            ssize_t r;
            buf[len] = '\0';
            if (strstr(buf, want))
                break;
            if (len > sizeof buf / 2)
                len = 1;
            r = read(out[0], buf + len, sizeof buf - 1 - len);
            if (r <= 0)
                return -1;
            len += (size_t)r;
        }
    }
    t0 = (now_us() - t0) / n;
    close(in[1]);
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    close(out[0]);
    return t0;
}

static double driver(int n)
{
    struct mi_gdb *g;
    struct mi_reply rep;
    char msg[256];
    double t0;
    int i;

    if (mi_gdb_start(&g, NULL, msg, sizeof msg) || mi_gdb_wait_ready(g, 20000))
        return -1;
    t0 = now_us();
    for (i = 0; i < n; i++) {
        if (mi_gdb_exec_sync(g, "-data-evaluate-expression 1", &rep, 10000) != 0)
            return -1;
        mi_reply_release(&rep);
    }
    t0 = (now_us() - t0) / n;
    mi_gdb_free(g);
    return t0;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 2000;
    double b = bare(n), d = driver(n), b2 = bare(n), d2 = driver(n);

    if (b < 0 || d < 0) {
        fprintf(stderr, "bench-mi-roundtrip: gdb failed\n");
        return 1;
    }
    if (b2 < b)
        b = b2;
    if (d2 < d)
        d = d2;
    printf("%d x -data-evaluate-expression 1: bare pipe client %.1f us/command, "
           "mi driver %.1f us/command (overhead %.1f us)\n", n, b, d, d - b);
    return 0;
}
