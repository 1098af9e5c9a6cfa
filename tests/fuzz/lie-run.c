/*
 * lie-run.c - a campaign of runs whose sizes lie (issue 33, item 4): each
 * round makes a run directory from a real recorded 4-rank run whose
 * drdb.run claims a world size from the edge values (1 to 1048576, the
 * documented maximum, and past it) and whose rank logs are kept, dropped,
 * renamed to claim ranks beyond the logs (rank-1048575.log), or have their
 * header's rank, world size and header size changed (with the checksum
 * fixed, so that the reader's own checks are what refuses them). drdb
 * then reads it as a user would: `log info`, `log events` (the event
 * index), `log sql`, `check`, `log graph` and `batch` (status, events,
 * info breakpoints), each under RLIMIT_AS and a time limit.
 *
 * What it costs must follow the logs present: a command that dies of a
 * signal, runs out of its time, says "out of memory" or peaks above
 * MAX_RSS_MB fails the campaign (an allocation sized by a claimed count
 * meets RLIMIT_AS and says "out of memory", or crashes).
 *
 * usage: lie-run DRDB RUNDIR WORKDIR ROUNDS [SEED]
 * Prints executions, failures and the peak memory seen; exit 0 when none
 * failed.
 */
/* Paths and notes are cut to their buffers on purpose. */
#pragma GCC diagnostic ignored "-Wformat-truncation"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "log-reader.h"

#define NLOGS 4
#define AS_LIMIT_MB 2048  /* address space: drdb, and GDB under batch */
#define MAX_RSS_MB 200    /* peak resident memory of one command */
#define TIME_LIMIT_S 20

static uint64_t seed = 88172645463325252ULL;
static uint64_t rnd(void)
{
    seed ^= seed << 13;
    seed ^= seed >> 7;
    seed ^= seed << 17;
    return seed;
}
static long pick(long n) { return n > 0 ? (long)(rnd() % (uint64_t)n) : 0; }

struct blob {
    unsigned char *data;
    size_t len;
};

static int slurp(const char *path, struct blob *b)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    b->data = malloc((size_t)n + 1);
    b->len = b->data ? fread(b->data, 1, (size_t)n, f) : 0;
    fclose(f);
    return b->data && b->len == (size_t)n ? 0 : -1;
}

static int spill(const char *path, const void *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t w = fwrite(p, 1, n, f);
    return fclose(f) == 0 && w == n ? 0 : -1;
}

/* The world sizes a drdb.run may claim: the edges, and any. */
static long world_lie(void)
{
    static const long edge[] = {1, 2, 3, 4, 5, 64, 65536, 65537, 1048575,
                                1048576, 1048577, 0, -1, 2147483647};
    long n = sizeof edge / sizeof edge[0];
    long k = pick(n + n / 2);
    return k < n ? edge[k] : 1 + pick(1048576); /* a third: any */
}

/* A rank number a log file's name claims, in a world of W. */
static long rank_lie(long w, int r)
{
    switch (pick(5)) {
    case 0: return w - 1;
    case 1: return 1048575;
    case 2: return w > 0 ? pick(w) : r;
    case 3: return r + NLOGS;
    default: return r;
    }
}

/* Rank R's log as the round writes it into DIR (or not). */
static void lie_log(const char *dir, const struct blob *b, int r, long w,
                    char *what, size_t wlen)
{
    char path[4200];
    struct log_file_header h;
    if (b->len < sizeof h)
        return;
    long name = r;
    unsigned char *copy = malloc(b->len);
    if (!copy)
        return;
    memcpy(copy, b->data, b->len);
    memcpy(&h, copy, sizeof h);
    int k = (int)pick(10); /* half of them kept */
    k = k > 5 ? 5 : k;
    switch (k) {
    case 0: /* dropped */
        snprintf(what + strlen(what), wlen - strlen(what),
                 " rank %d dropped;", r);
        free(copy);
        return;
    case 1: /* named beyond the logs, its header saying so too */
        name = rank_lie(w, r);
        h.rank = (int32_t)name;
        h.world_size = (int32_t)w;
        break;
    case 2: /* named beyond the logs, its header not */
        name = rank_lie(w, r);
        break;
    case 3: /* a header claiming a huge world */
        h.world_size = (int32_t)world_lie();
        break;
    case 4: /* a header claiming a huge header */
        h.header_size = (uint32_t)rnd();
        break;
    default: /* kept, its world the drdb.run's */
        h.world_size = (int32_t)w;
        break;
    }
    if (k)
        snprintf(what + strlen(what), wlen - strlen(what),
                 " rank-%ld.log(%d: r%d w%d hs%u);", name, k, h.rank,
                 h.world_size, h.header_size);
    if (h.version >= 3)
        h.hdr_crc = log_header_crc(&h);
    memcpy(copy, &h, sizeof h);
    snprintf(path, sizeof path, "%s/rank-%ld.log", dir, name);
    spill(path, copy, b->len);
    free(copy);
}

/* Runs ARGV (stdout and stderr into ERRFILE) under the limits: its wait
 * status (-1 when it ran out of time) and its peak RSS in KB. */
static int run_limited(char *const argv[], const char *errfile, long *kb)
{
    pid_t p = fork();
    if (p == 0) {
        struct rlimit as = {(rlim_t)AS_LIMIT_MB << 20, (rlim_t)AS_LIMIT_MB << 20};
        setrlimit(RLIMIT_AS, &as);
        int fd = open(errfile, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        dup2(fd, 1);
        dup2(fd, 2);
        setpgid(0, 0);
        alarm(TIME_LIMIT_S);
        execv(argv[0], argv);
        _exit(127);
    }
    int st;
    struct rusage ru;
    if (p < 0 || wait4(p, &st, 0, &ru) < 0)
        return -2;
    kill(-p, SIGKILL); /* (what it left: its GDB) */
    *kb = ru.ru_maxrss;
    return WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM ? -1 : st;
}

static int grep_file(const char *path, const char *s)
{
    struct blob b;
    if (slurp(path, &b) < 0)
        return 0;
    b.data[b.len] = '\0';
    int hit = strstr((char *)b.data, s) != NULL;
    free(b.data);
    return hit;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: lie-run DRDB RUNDIR WORKDIR ROUNDS [SEED]\n");
        return 2;
    }
    const char *drdb = argv[1], *src = argv[2], *work = argv[3];
    int rounds = atoi(argv[4]);
    if (argc > 5)
        seed ^= strtoull(argv[5], NULL, 0) * 0x9e3779b97f4a7c15ULL;
    struct blob logs[NLOGS], run;
    char path[4200], dir[4200], errf[4200], script[4200];
    for (int r = 0; r < NLOGS; r++) {
        log_path(path, sizeof path, src, r);
        if (slurp(path, &logs[r]) < 0) {
            fprintf(stderr, "lie-run: cannot read %s\n", path);
            return 2;
        }
    }
    snprintf(path, sizeof path, "%s/drdb.run", src);
    if (slurp(path, &run) < 0) {
        fprintf(stderr, "lie-run: cannot read %s\n", path);
        return 2;
    }
    run.data[run.len] = '\0';
    snprintf(script, sizeof script, "%s/lie.drdb", work);
    const char *lines = "status\nevents\ninfo breakpoints\n";
    spill(script, lines, strlen(lines));
    snprintf(errf, sizeof errf, "%s/lie.err", work);
    long execs = 0, failed = 0, peak = 0;
    char peak_what[512] = "";
    for (int round = 0; round < rounds; round++) {
        char what[1024];
        long w = world_lie();
        snprintf(dir, sizeof dir, "%s/lie%d", work, round);
        if (mkdir(dir, 0700) < 0 && errno != EEXIST)
            return 2;
        snprintf(what, sizeof what, "world_size %ld;", w);
        /* drdb.run: its world_size line the lie, no signature (--trust) */
        snprintf(path, sizeof path, "%s/drdb.run", dir);
        FILE *f = fopen(path, "w");
        if (!f)
            return 2;
        for (char *l = (char *)run.data, *e; *l; l = e + (*e != '\0')) {
            e = l + strcspn(l, "\n");
            if (strncmp(l, "world_size ", 11) == 0)
                fprintf(f, "world_size %ld\n", w);
            else if (strncmp(l, "signature ", 10) != 0)
                fprintf(f, "%.*s\n", (int)(e - l), l);
        }
        fclose(f);
        for (int r = 0; r < NLOGS; r++)
            lie_log(dir, &logs[r], r, w, what, sizeof what);
        char *cmds[][8] = {
            {(char *)drdb, "log", "info", dir, NULL},
            {(char *)drdb, "log", "events", dir, NULL},
            {(char *)drdb, "log", "sql", dir, "--csv",
             "SELECT count(*) FROM events", NULL},
            {(char *)drdb, "check", dir, NULL},
            {(char *)drdb, "log", "graph", dir, "-o", "/dev/null", NULL},
            {(char *)drdb, "batch", "--trust", dir, script, NULL},
        };
        for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
            long kb = 0;
            int st = run_limited(cmds[i], errf, &kb);
            const char *why = NULL;
            execs++;
            if (st == -2)
                why = "cannot run";
            else if (st == -1)
                why = "out of time";
            else if (WIFSIGNALED(st))
                why = strsignal(WTERMSIG(st));
            else if (grep_file(errf, "out of memory"))
                why = "out of memory";
            else if (kb > (long)MAX_RSS_MB * 1024)
                why = "peak memory above the bound";
            if (kb > peak) {
                peak = kb;
                snprintf(peak_what, sizeof peak_what, "%s %s: %s",
                         cmds[i][1], cmds[i][2], what);
            }
            if (getenv("LIE_VERBOSE"))
                fprintf(stderr, "%s %s: status %d, %ld KB: %s\n", cmds[i][1],
                        cmds[i][2], st, kb, what);
            if (why) {
                failed++;
                printf("FAIL %s %s (%ld MB): %s: %s\n", cmds[i][1],
                       cmds[i][2], kb / 1024, why, what);
            }
        }
        snprintf(path, sizeof path, "rm -rf '%s'", dir);
        if (system(path) != 0)
            fprintf(stderr, "lie-run: cannot remove %s\n", dir);
    }
    printf("%d rounds, %ld executions, %ld failed; peak %ld MB (%s)\n",
           rounds, execs, failed, peak / 1024, peak_what);
    return failed ? 1 : 0;
}
