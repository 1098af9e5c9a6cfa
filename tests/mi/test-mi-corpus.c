/*
 * test-mi-corpus.c - the parser against real GDB 13 transcripts.
 *
 * For each tests/mi/data/NAME.mi (raw GDB stdout, captured by
 * capture-transcript.py from NAME.script) the canonical dump of its records
 * must equal NAME.expected (reviewed by hand; first drafted by the
 * independent mi-refdump.py). Then the same stream, cut into two chunks at
 * every byte boundary and into random chunks, must give the same records.
 *
 * usage: test-mi-corpus DATA-DIR
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mi.h"

static const char *datadir;

static char *slurp(const char *dir, const char *name, const char *ext, size_t *len)
{
    char path[4096];
    FILE *f;
    char *buf;
    long n;

    snprintf(path, sizeof path, "%s/%s%s", dir, name, ext);
    f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf) {
        buf[n] = '\0';
        *len = (size_t)n;
    }
    return buf;
}

/* Dump all records of s[0, len) fed as chunks ending at cuts[]. */
static char *dump_chunked(const char *s, size_t len, const size_t *cuts, size_t ncuts,
                          int *nrec)
{
    struct mi_parser p;
    struct mi_record *rec;
    char *out = NULL;
    size_t olen = 0, off = 0, i;
    FILE *f = open_memstream(&out, &olen);

    *nrec = 0;
    mi_parser_init(&p, NULL);
    for (i = 0; i <= ncuts; i++) {
        size_t end = i < ncuts ? cuts[i] : len;
        mi_parser_feed(&p, s + off, end - off);
        off = end;
        while (mi_parser_next(&p, &rec) == 1) {
            mi_record_dump(rec, f);
            mi_record_free(rec);
            ++*nrec;
        }
    }
    while (mi_parser_finish(&p, &rec) == 1) {
        mi_record_dump(rec, f);
        mi_record_free(rec);
        ++*nrec;
    }
    mi_parser_release(&p);
    fclose(f);
    return out;
}

/* Print the first differing line of two dumps. */
static void show_diff(const char *got, const char *want)
{
    int line = 1;
    const char *g = got, *w = want;

    while (*g && *g == *w) {
        if (*g == '\n')
            line++;
        g++;
        w++;
    }
    while (g > got && g[-1] != '\n') {
        g--;
        w--;
    }
    printf("#   first difference at dump line %d:\n#   got:  %.*s\n#   want: %.*s\n",
           line, (int)strcspn(g, "\n"), g, (int)strcspn(w, "\n"), w);
}

static int check_case(const char *name)
{
    size_t len, elen, i;
    char *mi = slurp(datadir, name, ".mi", &len);
    char *want = slurp(datadir, name, ".expected", &elen);
    char *got;
    int nrec, nrec2, ok = 1, bad_splits = 0;
    unsigned seed = 7;
    size_t *cuts;

    CHECK_MSG(mi && want, "%s: missing .mi or .expected", name);
    if (!mi || !want) {
        free(mi);
        free(want);
        return 0;
    }
    got = dump_chunked(mi, len, NULL, 0, &nrec);
    if (strcmp(got, want) != 0) {
        CHECK_MSG(0, "%s: dump differs from %s.expected", name, name);
        show_diff(got, want);
        ok = 0;
    }
    for (i = 0; i <= len && bad_splits < 3; i++) {
        char *d = dump_chunked(mi, len, &i, 1, &nrec2);
        if (strcmp(d, got) != 0) {
            CHECK_MSG(0, "%s: split at byte %zu gives other records", name, i);
            bad_splits++;
            ok = 0;
        }
        free(d);
    }
    cuts = malloc((len + 1) * sizeof *cuts);
    for (i = 0; i < 100 && cuts; i++) {
        size_t n = 0, pos = 0;
        char *d;
        for (;;) {
            seed = seed * 1103515245u + 12345u;
            pos += 1 + (seed >> 16) % (i < 50 ? 16 : 512);
            if (pos >= len)
                break;
            cuts[n++] = pos;
        }
        d = dump_chunked(mi, len, cuts, n, &nrec2);
        if (strcmp(d, got) != 0) {
            CHECK_MSG(0, "%s: random chunking %zu gives other records", name, i);
            ok = 0;
        }
        free(d);
    }
    free(cuts);
    printf("# %s: %d records\n", name, nrec);
    free(got);
    free(mi);
    free(want);
    return ok;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

TEST(corpus)
{
    DIR *d = opendir(datadir);
    struct dirent *e;
    char *names[256];
    size_t n = 0, i;
    int passed = 0;

    REQUIRE(d);
    while ((e = readdir(d)) && n < 256) {
        size_t l = strlen(e->d_name);
        if (l > 3 && strcmp(e->d_name + l - 3, ".mi") == 0)
            names[n++] = strndup(e->d_name, l - 3);
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp_str);
    CHECK_MSG(n >= 15, "only %zu transcripts in %s", n, datadir);
    for (i = 0; i < n; i++) {
        passed += check_case(names[i]);
        free(names[i]);
    }
    printf("# %d of %zu transcripts match\n", passed, n);
}

TEST(corpus_covers_every_record_kind)
{
    /* the corpus as a whole must exercise each kind a real GDB 13 produced
       here (no '@' target or '+' status output without a remote target) */
    static const char *const need[] = {
        "\nresult ", "\nexec ", "\nnotify ", "\nconsole ", "\nlog ", "\nprompt",
        "\ninvalid ", "class=running", "class=error", "class=exit",
        "class=connected", "class=stopped", "class=library-loaded",
        "locations = [", "reason = \"signal-received\"",
        "reason = \"exited\"", "reason = \"breakpoint-hit\"",
        "reason = \"function-finished\"", "reason = \"end-stepping-range\"",
        "reason = \"exited-normally\"", "reason = \"exited-signalled\"",
        "\\x1b", "\\xc3\\xa9", "thread-id = \"1\"\n    thread-id",
    };
    DIR *d = opendir(datadir);
    struct dirent *e;
    char *all = NULL;
    size_t alen = 0, i;
    FILE *f = open_memstream(&all, &alen);

    REQUIRE(d);
    fputc('\n', f);
    while ((e = readdir(d))) {
        size_t l = strlen(e->d_name), n;
        char *s;
        if (l > 9 && strcmp(e->d_name + l - 9, ".expected") == 0) {
            char base[512];
            snprintf(base, sizeof base, "%.*s", (int)(l - 9), e->d_name);
            s = slurp(datadir, base, ".expected", &n);
            if (s)
                fputs(s, f);
            free(s);
        }
    }
    closedir(d);
    fclose(f);
    for (i = 0; i < sizeof need / sizeof need[0]; i++)
        CHECK_MSG(strstr(all, need[i]) != NULL, "no '%s' in the corpus", need[i]);
    free(all);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s DATA-DIR\n", argv[0]);
        return 2;
    }
    datadir = argv[1];
    RUN(corpus);
    RUN(corpus_covers_every_record_kind);
    return check_done();
}
