/*
 * test-agent-mutate.c - a mutation campaign against a real `drdb agent`:
 * a valid session (HELLO, START of cat, of true and of a sleep that only
 * ends when killed, stdin, a signal, a file read) with random bytes changed, inserted or cut, written to a
 * fresh agent each round. The agent must end by itself once its input
 * ends (no crash: exit status, not a signal; no hang: 10 s), answer only
 * with well-formed frames, and leave no process behind.
 *
 * The agent's PATH holds only cat, true and sleep (links in a directory of the
 * test), so a mutated program name runs nothing else.
 *
 * usage: test-agent-mutate DRDB ROUNDS [SEED]
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "launch.h"
#include "wire.h"

static void frame(struct wire_buf *s, unsigned type, unsigned ch,
                  const struct wire_buf *b)
{
    struct wire_conn c;
    wire_conn_init(&c, -1, -1);
    wire_send(&c, type, ch, b ? b->p : NULL, b ? b->len : 0);
    wire_buf_add(s, c.outq.p, c.outq.len);
    wire_conn_release(&c);
}

static void session(struct wire_buf *s, const char *dir)
{
    struct wire_buf b;
    struct launch_desc d;
    char *cat[] = {"cat", NULL}, *tru[] = {"true", NULL};
    char *slp[] = {"sleep", "1000", NULL};
    wire_buf_init(&b);
    wire_put_hello(&b, wire_version());
    frame(s, WIRE_HELLO, 0, &b);
    for (int i = 0; i < 3; i++) {
        launch_desc_init(&d);
        launch_desc_argv(&d, i == 2 ? slp : i ? tru : cat);
        d.flags = i == 1 ? LAUNCH_TTY : 0;
        launch_env_set(&d.env, "X", "y");
        wire_buf_drop(&b, b.len);
        wire_put_desc(&b, &d);
        frame(s, WIRE_START, 1 + (unsigned)i, &b);
        launch_desc_release(&d);
    }
    wire_buf_drop(&b, b.len);
    wire_buf_add(&b, "some input\n", 11);
    frame(s, WIRE_STDIN, 1, &b);
    frame(s, WIRE_STDIN, 1, NULL);
    wire_buf_drop(&b, b.len);
    wire_put_u32(&b, 15);
    frame(s, WIRE_SIGNAL, 2, &b);
    wire_buf_drop(&b, b.len);
    wire_put_str(&b, dir);
    wire_put_str(&b, "file");
    wire_put_u64(&b, 2);
    wire_put_u32(&b, 100);
    frame(s, WIRE_READ, 3, &b);
    wire_buf_release(&b);
}

static void mutate(struct wire_buf *s, unsigned *seed)
{
    int k = 1 + rand_r(seed) % 4;
    for (int i = 0; i < k && s->len > 1; i++) {
        size_t at = (size_t)rand_r(seed) % s->len;
        switch (rand_r(seed) % 4) {
        case 0:
            s->p[at] = (uint8_t)rand_r(seed);
            break;
        case 1:
            s->p[at] ^= (uint8_t)(1u << (rand_r(seed) % 8));
            break;
        case 2: /* cut the end */
            s->len = at;
            break;
        default: /* an extreme byte: lengths and counts */
            s->p[at] = (uint8_t)(rand_r(seed) % 2 ? 0xff : 0);
        }
    }
}

/* One agent on stream S: 0 when it behaved. */
static int round_run(const char *drdb, const char *path, const struct wire_buf *s,
                     int round)
{
    int in[2], out[2];
    if (pipe(in) < 0 || pipe(out) < 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        int dn = open("/dev/null", O_WRONLY);
        dup2(dn, 2);
        for (int fd = 3; fd < 64; fd++)
            close(fd);
        setenv("PATH", path, 1);
        setpgid(0, 0);
        execl(drdb, drdb, "agent", (char *)NULL);
        _exit(126);
    }
    close(in[0]);
    close(out[1]);
    fcntl(in[1], F_SETFL, O_NONBLOCK);
    size_t off = 0;
    struct wire_conn c;
    wire_conn_init(&c, out[0], -1);
    int bad = 0, eof = 0;
    time_t end = time(NULL) + 10;
    while (!eof && time(NULL) < end) {
        struct pollfd p[2] = {{out[0], POLLIN, 0}, {in[1], POLLOUT, 0}};
        poll(p, in[1] >= 0 ? 2 : 1, 500);
        if (in[1] >= 0 && p[1].revents) {
            ssize_t n = write(in[1], s->p + off, s->len - off);
            if (n > 0)
                off += (size_t)n;
            if (n < 0 || off == s->len) {
                close(in[1]);
                in[1] = -1;
            }
        }
        if (p[0].revents) {
            int rc = wire_fill(&c);
            struct wire_frame f;
            int got;
            while ((got = wire_next(&c, &f)) > 0)
                ;
            if (got < 0) {
                printf("#   round %d: the agent sent a bad frame: %s\n",
                       round, c.err);
                bad = 1;
            }
            eof = rc <= 0;
        }
    }
    if (in[1] >= 0)
        close(in[1]);
    close(out[0]);
    wire_conn_release(&c);
    int st = 0;
    if (!eof) {
        printf("#   round %d: the agent did not end\n", round);
        kill(-pid, SIGKILL);
        bad = 1;
    }
    waitpid(pid, &st, 0);
    if (WIFSIGNALED(st)) {
        printf("#   round %d: the agent died of signal %d\n", round,
               WTERMSIG(st));
        bad = 1;
    }
    /* Its processes (group = their own pid) end with it. */
    return bad ? -1 : 0;
}

/* How many processes have PATH=BIN (the agents' own) in their
 * environment, after up to 2 s for them to go. */
static int left_behind(const char *bin)
{
    char marker[300];
    int left = 0;
    snprintf(marker, sizeof marker, "PATH=%s", bin);
    for (int t = 0; t < 20; t++) {
        left = 0;
        DIR *pd = opendir("/proc");
        struct dirent *de;
        while (pd && (de = readdir(pd))) {
            char ep[300], env[65536];
            if (de->d_name[0] < '0' || de->d_name[0] > '9')
                continue;
            snprintf(ep, sizeof ep, "/proc/%s/environ", de->d_name);
            int fd = open(ep, O_RDONLY);
            ssize_t n = fd >= 0 ? read(fd, env, sizeof env - 1) : -1;
            if (fd >= 0)
                close(fd);
            if (n > 0)
                env[n] = '\0';
            for (ssize_t i = 0; i < n; i += (ssize_t)strlen(env + i) + 1)
                if (!strcmp(env + i, marker))
                    left++;
        }
        if (pd)
            closedir(pd);
        if (!left)
            break;
        usleep(100000);
    }
    return left;
}

/* An agent whose input stays open, with the session's processes running:
 * SIGHUP (the terminal or sshd going away) ends it and all of them. */
static int hangup(const char *drdb, const char *bin, const char *dir)
{
    struct wire_buf s;
    int in[2], out[2], ok = 0;
    wire_buf_init(&s);
    session(&s, dir);
    if (pipe(in) < 0 || pipe(out) < 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        for (int fd = 3; fd < 64; fd++)
            close(fd);
        setenv("PATH", bin, 1);
        execl(drdb, drdb, "agent", (char *)NULL);
        _exit(126);
    }
    close(in[0]);
    close(out[1]);
    if (write(in[1], s.p, s.len) != (ssize_t)s.len)
        return -1;
    struct wire_conn c;
    wire_conn_init(&c, out[0], -1);
    /* Until the sleep (channel 3) started. */
    int started = 0;
    time_t end = time(NULL) + 10;
    while (!started && time(NULL) < end && wire_fill(&c) > 0) {
        struct wire_frame f;
        while (wire_next(&c, &f) > 0)
            started |= f.type == WIRE_STARTED && f.channel == 3;
    }
    int st = 0;
    kill(pid, SIGHUP);
    waitpid(pid, &st, 0);
    int left = left_behind(bin);
    ok = started && WIFSIGNALED(st) && WTERMSIG(st) == SIGHUP && !left;
    printf("%s 2 - SIGHUP ends the agent and what it started (started %d, "
           "%d left)\n", ok ? "ok" : "not ok", started, left);
    close(in[1]);
    close(out[0]);
    wire_conn_release(&c);
    wire_buf_release(&s);
    return ok ? 0 : -1;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: test-agent-mutate DRDB ROUNDS [SEED]\n");
        return 2;
    }
    const char *drdb = argv[1];
    int rounds = atoi(argv[2]);
    unsigned seed = argc > 3 ? (unsigned)atoi(argv[3]) : 1;
    char dir[] = "/tmp/drdb-mutate-XXXXXX", p[256];
    if (!mkdtemp(dir))
        return 1;
    snprintf(p, sizeof p, "%s/file", dir);
    FILE *f = fopen(p, "w");
    if (f) {
        fputs("0123456789", f);
        fclose(f);
    }
    char bin[128];
    snprintf(bin, sizeof bin, "%s/bin", dir);
    mkdir(bin, 0700);
    const char *tools[] = {"/bin/cat", "/bin/true", "/bin/sleep"};
    for (int i = 0; i < 3; i++) {
        snprintf(p, sizeof p, "%s/%s", bin, strrchr(tools[i], '/') + 1);
        if (symlink(tools[i], p) < 0)
            return 1;
    }
    struct wire_buf base;
    wire_buf_init(&base);
    session(&base, dir);
    int failed = 0;
    /* Round 0: the session as it is, which must work. */
    for (int r = 0; r <= rounds; r++) {
        struct wire_buf s;
        wire_buf_init(&s);
        wire_buf_add(&s, base.p, base.len);
        if (r)
            mutate(&s, &seed);
        failed += round_run(drdb, bin, &s, r) < 0;
        wire_buf_release(&s);
    }
    wire_buf_release(&base);
    /* Nothing the agents started is left: no process has their PATH. */
    int left = left_behind(bin);
    if (left) {
        printf("#   %d processes of the agents are left\n", left);
        failed++;
    }
    printf("%s 1 - %d mutated sessions: no crash, no hang, well-formed "
           "answers, nothing left (%d bad)\n", failed ? "not ok" : "ok",
           rounds, failed);
    int hup = hangup(drdb, bin, dir);
    for (int i = 0; i < 3; i++) {
        snprintf(p, sizeof p, "%s/%s", bin, strrchr(tools[i], '/') + 1);
        unlink(p);
    }
    rmdir(bin);
    snprintf(p, sizeof p, "%s/file", dir);
    unlink(p);
    rmdir(dir);
    printf("1..2\n");
    return failed || hup ? 1 : 0;
}
