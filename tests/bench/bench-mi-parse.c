/*
 * bench-mi-parse.c - GDB/MI parsing throughput (meson benchmark).
 *
 * Builds ~128 MB of MI text from the real transcripts in tests/mi/data
 * (repeated), feeds it to the streaming parser in 64 KiB chunks, takes every
 * record out and frees it; then one 16 MB line (a long string value, as from
 * -data-read-memory or a big `print`). Prints MB/s.
 *
 * usage: bench-mi-parse DATA-DIR [MB]
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mi.h"

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void append_file(char **buf, size_t *len, const char *dir, const char *name)
{
    char path[4096];
    FILE *f;
    size_t n;
    char tmp[65536];

    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "rb");
    if (!f)
        return;
    while ((n = fread(tmp, 1, sizeof tmp, f)) > 0) {
        *buf = realloc(*buf, *len + n);
        memcpy(*buf + *len, tmp, n);
        *len += n;
    }
    fclose(f);
}

/* Parse `text` in 64 KiB chunks; returns seconds, *nrec records. */
static double parse_stream(const char *text, size_t len, size_t *nrec)
{
    struct mi_parser p;
    struct mi_record *rec;
    size_t off = 0;
    double t0 = now();

    *nrec = 0;
    mi_parser_init(&p, NULL);
    while (off < len) {
        size_t n = len - off < 65536 ? len - off : 65536;
        mi_parser_feed(&p, text + off, n);
        off += n;
        while (mi_parser_next(&p, &rec) == 1) {
            ++*nrec;
            mi_record_free(rec);
        }
    }
    mi_parser_release(&p);
    return now() - t0;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "tests/mi/data";
    size_t mb = argc > 2 ? (size_t)atoi(argv[2]) : 128;
    char *one = NULL, *big;
    size_t onelen = 0, len = 0, nrec, i, bestn = 0;
    double t, best = 1e9;
    DIR *d = opendir(dir);
    struct dirent *e;

    if (!d) {
        fprintf(stderr, "bench-mi-parse: cannot open '%s'\n", dir);
        return 1;
    }
    while ((e = readdir(d))) {
        size_t l = strlen(e->d_name);
        if (l > 3 && strcmp(e->d_name + l - 3, ".mi") == 0)
            append_file(&one, &onelen, dir, e->d_name);
    }
    closedir(d);
    if (!onelen)
        return 1;
    big = malloc(mb << 20);
    while (len + onelen <= (mb << 20)) {
        memcpy(big + len, one, onelen);
        len += onelen;
    }
    for (i = 0; i < 3; i++) {
        t = parse_stream(big, len, &nrec);
        if (t < best) {
            best = t;
            bestn = nrec;
        }
    }
    printf("transcripts: %.1f MB, %zu records in %.3f s: %.0f MB/s, %.0f ns/record\n",
           len / 1e6, bestn, best, len / 1e6 / best, best * 1e9 / bestn);

    /* one 16 MB line with escapes every 64 bytes */
    len = 16u << 20;
    memcpy(big, "^done,value=\"", 13);
    for (i = 13; i < len - 3; i++)
        big[i] = (i % 64 == 0) ? '\\' : (i % 64 == 1) ? 'n' : 'a' + i % 26;
    memcpy(big + len - 3, "\"\n", 2);
    len -= 1;
    best = 1e9;
    for (i = 0; i < 3; i++) {
        t = parse_stream(big, len, &nrec);
        if (t < best)
            best = t;
    }
    printf("one 16 MB line: %.3f s: %.0f MB/s (%zu record)\n", best, len / 1e6 / best, nrec);
    free(big);
    free(one);
    return 0;
}
