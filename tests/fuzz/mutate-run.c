/*
 * mutate-run.c - a mutation campaign over a real recorded run: each round
 * copies the run, damages one file (a rank log or drdb.run: bit flips,
 * overwritten bytes, truncation, header fields set to edge values with or
 * without a fixed checksum, records' size fields, drdb.run's numbers and
 * lines), then reads it
 *   - in process: the log reader (log_rank_open, every event, field and
 *     argument, log_rank_ending) and the drdb.run parser (log_run_open);
 *   - through drdb: `log info`, `log dump`, `log events` (the event index)
 *     and `log match --all`, each with a time limit; and, when drdb.run was
 *     changed, `replay`, which must refuse it (its signature no longer
 *     holds: docs/security.md).
 * A crash (a signal), a hang (the limit) or a changed drdb.run replayed
 * fails the campaign; every
 * error message is counted by class (digits and quoted names folded), and
 * a non-zero exit whose message names no file is reported too.
 *
 * usage: mutate-run DRDB RUNDIR WORKDIR ROUNDS [SEED]
 * Prints a summary; exit 0 when no crash, no hang and no changed drdb.run
 * started.
 */
/* Messages are cut to their buffers on purpose. */
#pragma GCC diagnostic ignored "-Wformat-truncation"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "log-reader.h"

static uint64_t seed = 88172645463325252ULL;
static uint64_t rnd(void)
{
    seed ^= seed << 13;
    seed ^= seed >> 7;
    seed ^= seed << 17;
    return seed;
}
static size_t pick(size_t n) { return n ? (size_t)(rnd() % n) : 0; }

struct file {
    char name[64];
    unsigned char *data;
    size_t len;
};
static struct file files[256];
static int nfiles;

static void load(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    while (d && (de = readdir(d)) && nfiles < 256) {
        if (de->d_name[0] == '.')
            continue;
        char p[4200];
        snprintf(p, sizeof p, "%s/%s", dir, de->d_name);
        FILE *f = fopen(p, "rb");
        if (!f)
            continue;
        struct file *x = &files[nfiles++];
        snprintf(x->name, sizeof x->name, "%s", de->d_name);
        fseek(f, 0, SEEK_END);
        x->len = (size_t)ftell(f);
        rewind(f);
        x->data = malloc(x->len + 1);
        if (fread(x->data, 1, x->len, f) != x->len)
            exit(2);
        fclose(f);
    }
    if (d)
        closedir(d);
}

/* The mutated copy of file K into BUF (malloc'd), its length in *LEN;
 * what was done into WHAT. */
static unsigned char *mutate(int k, size_t *len, char *what, size_t wlen)
{
    const struct file *x = &files[k];
    size_t cap = x->len + 4096;
    unsigned char *b = malloc(cap);
    memcpy(b, x->data, x->len);
    *len = x->len;
    int is_log = strncmp(x->name, "rank-", 5) == 0;
    int kind = (int)pick(is_log ? 7 : 6);
    if (!is_log) {
        static const char *const vals[] = {"4x", "-1", "0", "100000000",
                                           "1048577", "1048576", "2", "",
                                           "99999999999999999999", " 2",
                                           "2 ", "0x4", "1e3", "+2"};
        char *t = malloc(x->len + 256), *ws;
        memcpy(t, x->data, x->len);
        t[x->len] = '\0';
        switch (kind) {
        case 0: /* world_size's value */
            if ((ws = strstr(t, "world_size "))) {
                char *nl = strchr(ws, '\n');
                const char *v = vals[pick(sizeof vals / sizeof *vals)];
                *len = (size_t)snprintf((char *)b, cap, "%.*sworld_size %s%s",
                                        (int)(ws - t), t, v, nl ? nl : "");
                snprintf(what, wlen, "drdb.run world_size '%s'", v);
                break;
            }
            /* fall through */
        case 1: { /* delete a line */
            size_t at = pick(x->len), s = at, e = at;
            while (s && t[s - 1] != '\n')
                s--;
            while (e < x->len && t[e] != '\n')
                e++;
            memmove(b + s, b + e, x->len - e);
            *len = x->len - (e - s);
            snprintf(what, wlen, "drdb.run line at %zu deleted", s);
            break;
        }
        case 2: /* truncate */
            *len = pick(x->len);
            snprintf(what, wlen, "drdb.run truncated to %zu", *len);
            break;
        default: { /* byte flips, NULs, newlines */
            int nflip = 1 + (int)pick(4);
            for (int i = 0; i < nflip && x->len; i++) {
                size_t at = pick(x->len);
                static const unsigned char bytes[] = {0, '\n', '\\', ' ',
                                                      0xff, '9'};
                b[at] = kind == 3 ? (unsigned char)(b[at] ^ (1u << pick(8)))
                                  : bytes[pick(sizeof bytes)];
            }
            snprintf(what, wlen, "drdb.run %d bytes changed", nflip);
            break;
        }
        }
        free(t);
        return b;
    }
    struct log_file_header *h = (struct log_file_header *)b;
    switch (kind) {
    case 0: { /* bit flips anywhere */
        int nflip = 1 + (int)pick(8);
        for (int i = 0; i < nflip; i++) {
            size_t at = pick(x->len);
            b[at] ^= (unsigned char)(1u << pick(8));
        }
        snprintf(what, wlen, "%s: %d bit flips", x->name, nflip);
        break;
    }
    case 1: { /* overwrite a range */
        size_t at = pick(x->len), n = 1 + pick(32);
        for (size_t i = 0; i < n && at + i < x->len; i++)
            b[at + i] = (unsigned char)rnd();
        snprintf(what, wlen, "%s: %zu bytes at %zu overwritten", x->name, n,
                 at);
        break;
    }
    case 2: /* truncate */
        *len = pick(x->len);
        snprintf(what, wlen, "%s: truncated to %zu", x->name, *len);
        break;
    case 3:
    case 4: { /* a header field, the CRC fixed or not */
        static const int64_t edge[] = {0, -1, 1, 2, 3, 255, 256, 65535,
                                       0x7fffffff, (int64_t)0x80000000u,
                                       LOG_MAX_WORLD, LOG_MAX_WORLD + 1,
                                       100000000};
        int64_t v = edge[pick(sizeof edge / sizeof *edge)];
        static const char *const names[] = {"version", "header_size", "rank",
                                            "world_size", "flags",
                                            "max_func_id", "pid", "host"};
        int f = (int)pick(8);
        switch (f) {
        case 0: h->version = (uint32_t)v; break;
        case 1: h->header_size = (uint32_t)v; break;
        case 2: h->rank = (int32_t)v; break;
        case 3: h->world_size = (int32_t)v; break;
        case 4: h->flags = (uint32_t)v; break;
        case 5: h->max_func_id = (uint32_t)v; break;
        case 6: h->pid = (int32_t)v; break;
        default: memset(h->host, 'A', sizeof h->host); break;
        }
        if (kind == 4)
            h->hdr_crc = log_header_crc(h);
        snprintf(what, wlen, "%s: header %s = %lld%s", x->name, names[f],
                 (long long)v, kind == 4 ? " (CRC fixed)" : "");
        break;
    }
    case 5: { /* a record's size field */
        size_t off = LOG_HEADER_SIZE;
        int nth = (int)pick(50);
        for (int i = 0; i < nth && off + 4 <= x->len; i++) {
            uint32_t s;
            memcpy(&s, b + off, 4);
            if (!s || off + s > x->len)
                break;
            off += s;
        }
        if (off + 4 <= x->len) {
            static const uint32_t sizes[] = {0, 1, 11, 12, 13, 14, 0xffffffffu,
                                             1u << 30};
            uint32_t s = sizes[pick(8)];
            memcpy(b + off, &s, 4);
            snprintf(what, wlen, "%s: record size at %zu = %u", x->name, off,
                     s);
        } else {
            snprintf(what, wlen, "%s: unchanged", x->name);
        }
        break;
    }
    default: { /* garbage appended */
        size_t n = 1 + pick(2048);
        for (size_t i = 0; i < n; i++)
            b[x->len + i] = (unsigned char)(pick(4) ? 0 : rnd());
        *len = x->len + n;
        snprintf(what, wlen, "%s: %zu bytes appended", x->name, n);
        break;
    }
    }
    return b;
}

/* ---- results ------------------------------------------------------------ */

static long rounds, reads, crashes, hangs, unnamed;
/* Rounds that changed the signed drdb.run, and replays that still ran
 * one (docs/security.md: any byte changed and the run is not yours). */
static long forged, trusted;
struct cls {
    char text[160];
    long n;
};
static struct cls classes[512];
static int nclasses;

/* Folds a message into its class: digits to N, quoted text to '...'. */
static void count_class(const char *line)
{
    char c[160];
    size_t k = 0;
    int quoted = 0;
    for (const char *p = line; *p && k + 4 < sizeof c; p++) {
        if (*p == '\'' && (quoted || p == line || p[-1] == ' ' ||
                            p[-1] == '(')) {
            if (!quoted)
                k += (size_t)snprintf(c + k, sizeof c - k, "'...'");
            quoted = !quoted;
            continue;
        }
        if (quoted)
            continue;
        if (*p >= '0' && *p <= '9') {
            if (!k || c[k - 1] != 'N')
                c[k++] = 'N';
            continue;
        }
        if (*p == 'x' && k && c[k - 1] == 'N')
            continue; /* 0x... */
        if (((*p >= 'a' && *p <= 'f') || (*p >= 'A' && *p <= 'F')) && k &&
            c[k - 1] == 'N')
            continue;
        c[k++] = *p;
    }
    c[k] = '\0';
    for (int i = 0; i < nclasses; i++)
        if (strcmp(classes[i].text, c) == 0) {
            classes[i].n++;
            return;
        }
    if (nclasses < 512) {
        snprintf(classes[nclasses].text, sizeof classes[0].text, "%s", c);
        classes[nclasses++].n = 1;
    }
}

/* Runs drdb ARGV with a time limit, its stderr into ERRFILE: the wait
 * status, or -1 for a hang. */
static int run_limited(char *const argv[], const char *errfile, int secs)
{
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(errfile, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int dn = open("/dev/null", O_WRONLY);
        dup2(dn, 1);
        dup2(fd, 2);
        execv(argv[0], argv);
        _exit(127);
    }
    for (int i = 0; i < secs * 100; i++) {
        int st;
        if (waitpid(pid, &st, WNOHANG) == pid)
            return st;
        usleep(10000);
    }
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    return -1;
}

static void judge(const char *what, const char *cmd, int st,
                  const char *errfile)
{
    reads++;
    if (st == -1) {
        hangs++;
        printf("HANG: %s: drdb %s\n", what, cmd);
        return;
    }
    if (WIFSIGNALED(st) || (WIFEXITED(st) && WEXITSTATUS(st) >= 126)) {
        crashes++;
        printf("CRASH: %s: drdb %s: %s %d\n", what, cmd,
               WIFSIGNALED(st) ? "signal" : "exit",
               WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
        return;
    }
    FILE *f = fopen(errfile, "r");
    char line[1024];
    int named = 0, any = 0;
    while (f && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (strncmp(line, "drdb: ", 6) != 0)
            continue;
        any = 1;
        if (strstr(line, ".log") || strstr(line, "drdb.run") ||
            strstr(line, "rank ") || strstr(line, "run"))
            named = 1;
        count_class(line + 6);
    }
    if (f)
        fclose(f);
    if (WEXITSTATUS(st) != 0 && any && !named) {
        unnamed++;
        printf("UNNAMED: %s: drdb %s\n", what, cmd);
    }
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: mutate-run DRDB RUNDIR WORKDIR ROUNDS [SEED]\n");
        return 2;
    }
    const char *drdb = argv[1], *work = argv[3];
    rounds = atol(argv[4]);
    if (argc > 5)
        seed = strtoull(argv[5], NULL, 0) | 1;
    load(argv[2]);
    if (!nfiles) {
        fprintf(stderr, "mutate-run: no files in '%s'\n", argv[2]);
        return 2;
    }
    char run[4200], errfile[4200];
    snprintf(run, sizeof run, "%s/m", work);
    snprintf(errfile, sizeof errfile, "%s/err", work);
    mkdir(run, 0700);
    time_t t0 = time(NULL);
    for (long i = 0; i < rounds; i++) {
        /* The copy, one file damaged. */
        int k = (int)pick((size_t)nfiles), changed = 0;
        char what[256];
        for (int j = 0; j < nfiles; j++) {
            char p[4300];
            snprintf(p, sizeof p, "%s/%s", run, files[j].name);
            size_t len = files[j].len;
            unsigned char *b = j == k ? mutate(j, &len, what, sizeof what)
                                      : files[j].data;
            FILE *f = fopen(p, "wb");
            if (!f || fwrite(b, 1, len, f) != len)
                return 2;
            fclose(f);
            if (j == k) {
                changed = len != files[j].len || memcmp(b, files[j].data, len);
                free(b);
            }
        }
        /* In process: the reader and the run parser (ASan sees inside). */
        struct log_run lr;
        char err[512];
        if (log_run_open(&lr, run, err, sizeof err) == 0)
            log_run_release(&lr);
        for (int j = 0; j < nfiles; j++) {
            if (strncmp(files[j].name, "rank-", 5) != 0)
                continue;
            char p[4300], why[256];
            struct log_rank r;
            snprintf(p, sizeof p, "%s/%s", run, files[j].name);
            if (log_rank_open(&r, p, err, sizeof err) < 0)
                continue;
            for (uint64_t e = 0; e < r.nevents; e++) {
                struct log_event ev;
                struct log_field fl;
                size_t cur = 0;
                if (log_rank_event(&r, e, &ev, err, sizeof err) < 0)
                    continue;
                while (log_event_field(&ev, &cur, &fl) == 1)
                    if (fl.len)
                        (void)*(volatile const uint8_t *)&fl.data[fl.len - 1];
                if (ev.desc)
                    for (int a = 0; a < ev.desc->nargs; a++)
                        (void)log_event_arg(&ev, a);
            }
            log_rank_ending(&r, why, sizeof why);
            log_rank_release(&r);
        }
        /* Through drdb: info, dump, the event index. */
        char rank[16];
        snprintf(rank, sizeof rank, "%d", (int)pick(2));
        char *info[] = {(char *)drdb, "log", "info", run, NULL};
        char *dump[] = {(char *)drdb, "log", "dump", run, "--rank", rank, NULL};
        char *events[] = {(char *)drdb, "log", "events", run, NULL};
        char *match[] = {(char *)drdb, "log", "match", run, "--all", NULL};
        judge(what, "log info", run_limited(info, errfile, 20), errfile);
        judge(what, "log dump", run_limited(dump, errfile, 20), errfile);
        judge(what, "log events", run_limited(events, errfile, 20), errfile);
        judge(what, "log match --all", run_limited(match, errfile, 20),
              errfile);
        /* A drdb.run changed after it was signed is never started. */
        if (changed && strcmp(files[k].name, "drdb.run") == 0) {
            char *replay[] = {(char *)drdb, "replay", "--rank", "0", run, NULL};
            int st = run_limited(replay, errfile, 20);
            judge(what, "replay", st, errfile);
            forged++;
            if (st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0) {
                trusted++;
                printf("TRUSTED: %s: drdb replay ran it\n", what);
            }
        }
        if ((i + 1) % 500 == 0)
            fprintf(stderr, "mutate-run: %ld rounds, %ld s\n", i + 1,
                    (long)(time(NULL) - t0));
    }
    printf("mutate-run: %ld mutations, %ld reads by drdb (+%ld in process), "
           "%ld crashes, %ld hangs, %ld errors naming no file, %ld s\n",
           rounds, reads, rounds, crashes, hangs, unnamed,
           (long)(time(NULL) - t0));
    printf("mutate-run: %ld changed drdb.run replayed: %ld started\n",
           forged, trusted);
    printf("message classes (count, text with numbers as N and names as "
           "'...'):\n");
    for (int i = 0; i < nclasses; i++)
        printf("%8ld  %s\n", classes[i].n, classes[i].text);
    return crashes || hangs || trusted ? 1 : 0;
}
