/*
 * The option tables of drdb's commands (frontend/args.h, args-opt.c): how
 * a command line is split by a table (long names, unique prefixes, short
 * bundles, values, positional words, "--"), the errors it gives, and the
 * help rendered from the same table.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "check.h"

/* The front end's message printer (drdb.c): kept here to read the
 * messages back. */
static char last_error[512];
int fe_error(const char *fmt, ...);
int fe_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
    return 1;
}

struct inner {
    const char *host;
    int n;
};

struct opts {
    int flag, other;
    const char *str;
    long long num;
    uint64_t ev;
    const char *opt_value;
    int opt_given;
    struct fe_words words;
    struct inner in;
};

static int call_opt(void *dst, const struct fe_opt *o, const char *arg)
{
    struct opts *x = dst;
    (void)o;
    x->opt_given = 1;
    x->opt_value = arg;
    return 0;
}

static int count_opt(void *dst, const struct fe_opt *o, const char *arg)
{
    struct inner *in = dst;
    (void)o;
    in->host = arg;
    in->n++;
    return 0;
}

static const struct fe_opt inner_table[] = {
    FE_CALL(0, "host", "HOST", 0, count_opt, "a host (repeatable)"),
    FE_END,
};

#define OFF(f) offsetof(struct opts, f)
static const struct fe_opt table[] = {
    FE_FLAG('f', "flag", OFF(flag), "a flag"),
    FE_FLAG('g', "flagger", OFF(other), "another flag, sharing a prefix"),
    FE_STR('s', "string", "S", OFF(str), "a string"),
    FE_INT('n', "number", "N", OFF(num), 1, 9, "a digit", "a number from "
     "1 to 9"),
    FE_U64(0, "event", "E", OFF(ev), 1, NULL, "an event, 1 or more"),
    FE_CALL_OPT(0, "keep", "SECONDS", 0, call_opt, "optional value"),
    FE_WORDS(0, "paths", "PATH", OFF(words), "the words after it"),
    FE_STR(0, "alias", "S", OFF(str), NULL),
    FE_GROUP(OFF(in), inner_table),
    FE_END,
};
#undef OFF

/* Parses the words of LINE (space-separated; argv[0] "cmd") into X and
 * POS; the words stay in BUF. */
static int parse(const char *line, struct opts *x, int npos,
                 struct fe_pos *pos, char **argv, char *buf)
{
    int argc = 0;
    memset(x, 0, sizeof *x);
    last_error[0] = '\0';
    strcpy(buf, line);
    for (char *w = strtok(buf, " "); w; w = strtok(NULL, " "))
        argv[argc++] = w;
    argv[argc] = NULL;
    return fe_opts_parse(table, "cmd", argc, argv, x, npos, pos);
}

TEST(long_options)
{
    struct opts x;
    struct fe_pos p;
    char *argv[32], buf[512];
    REQUIRE(parse("cmd --flag --string=abc --number 7 --event=12 run", &x, 1,
                  &p, argv, buf) == 0);
    CHECK(x.flag == 1 && x.other == 0);
    CHECK_STR_EQ(x.str, "abc");
    CHECK_INT_EQ(x.num, 7);
    CHECK_INT_EQ(x.ev, 12);
    CHECK_INT_EQ(p.n, 1);
    CHECK_STR_EQ(p.v[0], "run");
    CHECK_INT_EQ(p.rest, 7);
    /* an alias (no help) sets the same member */
    REQUIRE(parse("cmd --alias q", &x, 0, &p, argv, buf) == 0);
    CHECK_STR_EQ(x.str, "q");
}

TEST(prefixes)
{
    struct opts x;
    struct fe_pos p;
    char *argv[32], buf[512];
    /* exact beats prefix; a unique prefix is taken */
    REQUIRE(parse("cmd --flag --stri x --num 3", &x, 0, &p, argv, buf) == 0);
    CHECK(x.flag && !x.other);
    CHECK_STR_EQ(x.str, "x");
    CHECK_INT_EQ(x.num, 3);
    /* "--fla" could be --flag or --flagger */
    CHECK(parse("cmd --fla", &x, 0, &p, argv, buf) < 0);
    CHECK_MSG(strstr(last_error, "ambiguous") &&
              strstr(last_error, "--flag") && strstr(last_error, "--flagger"),
              "%s", last_error);
    /* two names of one member are one meaning: "--al" */
    REQUIRE(parse("cmd --al z", &x, 0, &p, argv, buf) == 0);
    CHECK_STR_EQ(x.str, "z");
}

TEST(short_options)
{
    struct opts x;
    struct fe_pos p;
    char *argv[32], buf[512];
    REQUIRE(parse("cmd -fg -n5 -s val", &x, 0, &p, argv, buf) == 0);
    CHECK(x.flag && x.other);
    CHECK_INT_EQ(x.num, 5);
    CHECK_STR_EQ(x.str, "val");
    /* a bundle whose last letter takes the next word */
    REQUIRE(parse("cmd -fn 4", &x, 0, &p, argv, buf) == 0);
    CHECK(x.flag);
    CHECK_INT_EQ(x.num, 4);
    CHECK(parse("cmd -q", &x, 0, &p, argv, buf) < 0);
    CHECK_MSG(strstr(last_error, "unknown option '-q'"), "%s", last_error);
    CHECK(parse("cmd -s", &x, 0, &p, argv, buf) < 0);
    CHECK_MSG(strstr(last_error, "needs a value"), "%s", last_error);
}

TEST(values_checked)
{
    struct opts x;
    struct fe_pos p;
    char *argv[32], buf[512];
    CHECK(parse("cmd --number 10", &x, 0, &p, argv, buf) < 0);
    CHECK_MSG(strstr(last_error, "--number takes a digit, not '10'"), "%s",
              last_error);
    CHECK(parse("cmd --number 5x", &x, 0, &p, argv, buf) < 0);
    CHECK(parse("cmd --event 0", &x, 0, &p, argv, buf) < 0);
    CHECK_MSG(strstr(last_error, "--event takes a number, not '0'"), "%s",
              last_error);
    CHECK(parse("cmd --flag=1", &x, 0, &p, argv, buf) < 0);
    CHECK_MSG(strstr(last_error, "takes no value"), "%s", last_error);
    CHECK(parse("cmd --string", &x, 0, &p, argv, buf) < 0);
    CHECK_MSG(strstr(last_error, "'--string' needs a value (S)"), "%s",
              last_error);
    CHECK(parse("cmd --nosuch", &x, 0, &p, argv, buf) < 0);
    CHECK_MSG(strstr(last_error, "cmd: unknown option '--nosuch'"), "%s",
              last_error);
}

TEST(optional_value)
{
    struct opts x;
    struct fe_pos p;
    char *argv[32], buf[512];
    /* --keep alone takes no next word: that stays positional */
    REQUIRE(parse("cmd --keep 30", &x, 1, &p, argv, buf) == 0);
    CHECK(x.opt_given && x.opt_value == NULL);
    CHECK_STR_EQ(p.v[0], "30");
    REQUIRE(parse("cmd --keep=30", &x, 1, &p, argv, buf) == 0);
    CHECK_STR_EQ(x.opt_value, "30");
}

TEST(positional_words)
{
    struct opts x;
    struct fe_pos p;
    char *argv[32], buf[512];
    /* options after positional words; parsing stops at "--" */
    REQUIRE(parse("cmd run -f -- prog -f arg", &x, 1, &p, argv, buf) == 0);
    CHECK(x.flag && p.dashdash);
    CHECK_INT_EQ(p.n, 1);
    CHECK_STR_EQ(argv[p.rest], "prog");
    /* a positional word beyond NPOS stops it (a launcher's command) */
    REQUIRE(parse("cmd -f mpiexec -n 4 ./app", &x, 0, &p, argv, buf) == 0);
    CHECK(!p.dashdash && p.n == 0);
    CHECK_STR_EQ(argv[p.rest], "mpiexec");
    CHECK(x.num == 0); /* -n 4 is the launcher's */
    /* every positional word */
    REQUIRE(parse("cmd a b c d e f g --flag h", &x, FE_POS_ALL, &p, argv,
                  buf) == 0);
    CHECK_INT_EQ(p.n, 8);
    CHECK_STR_EQ(p.v[7], "h");
    CHECK(x.flag);
    fe_pos_release(&p);
    /* "-" alone is a word (standard input) */
    REQUIRE(parse("cmd -", &x, 1, &p, argv, buf) == 0);
    CHECK(p.n == 1 && strcmp(p.v[0], "-") == 0);
}

TEST(words_and_groups)
{
    struct opts x;
    struct fe_pos p;
    char *argv[32], buf[512];
    REQUIRE(parse("cmd --paths a b --flag --host h1 --host h2 run", &x, 1, &p,
                  argv, buf) == 0);
    CHECK(x.words.given && x.words.n == 2);
    CHECK_STR_EQ(x.words.v[0], "a");
    CHECK_STR_EQ(x.words.v[1], "b");
    CHECK(x.flag);
    CHECK_INT_EQ(x.in.n, 2);
    CHECK_STR_EQ(x.in.host, "h2");
    CHECK_STR_EQ(p.v[0], "run");
    REQUIRE(parse("cmd --paths", &x, 0, &p, argv, buf) == 0);
    CHECK(x.words.given && x.words.n == 0);
}

TEST(help)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    REQUIRE(f);
    fe_opts_help(table, f);
    fclose(f);
    /* every line within 79 columns; the hidden alias not listed; the
     * group's option listed; the value names shown */
    int lines = 0;
    for (char *l = text; *l; lines++) {
        size_t n = strcspn(l, "\n");
        CHECK_MSG(n <= 79, "line of %zu: %.*s", n, (int)n, l);
        l += n + (l[n] == '\n');
    }
    CHECK(lines >= 9);
    CHECK(strstr(text, "  -f, --flag ") != NULL);
    CHECK(strstr(text, "  -n, --number N ") != NULL);
    CHECK(strstr(text, "      --keep[=SECONDS]\n") != NULL);
    CHECK(strstr(text, "      --paths [PATH...]\n") != NULL);
    CHECK(strstr(text, "      --host HOST ") != NULL);
    CHECK(strstr(text, "--alias") == NULL);
    free(text);
    char syn[512];
    fe_opts_synopsis(inner_table, syn, sizeof syn);
    CHECK_STR_EQ(syn, "[--host HOST]");
}

int main(void)
{
    RUN(long_options);
    RUN(prefixes);
    RUN(short_options);
    RUN(values_checked);
    RUN(optional_value);
    RUN(positional_words);
    RUN(words_and_groups);
    RUN(help);
    return check_done();
}
