/*
 * args.h - the values on drdb's command lines, parsed one way for the whole
 * program: the options of the subcommands (sub-*.c: each a table of
 * options, below) and the arguments of the console's commands (con-args.c
 * splits those by each command's template or table and reads their values
 * here).
 *
 * Each function reads the whole string: "5x" is not a number. 0, or -1
 * when S is not what was asked for (the caller says what it wanted, naming
 * S).
 */
#ifndef DRDB_ARGS_H
#define DRDB_ARGS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* A decimal integer in [MIN, MAX]. */
int fe_parse_int(const char *s, long long min, long long max, long long *out);
/* A decimal number of 0 or more (an event number, a count). */
int fe_parse_u64(const char *s, uint64_t *out);
/* A number of 0 or more, with a fraction or an exponent if need be. */
int fe_parse_double(const char *s, double *out);
/* An event: "RANK:EVENT", like 2:17. */
int fe_parse_event(const char *s, int *rank, uint64_t *n);
/* "on" or "off". */
int fe_parse_onoff(const char *s, int *on);
/* A size in bytes: a number with an optional K, M, G or T (powers of
 * 1024; "MiB" and "MB" alike). */
int fe_parse_size(const char *s, uint64_t *out);

/*
 * Option tables (git's parse-options): a command describes each of its
 * options once, in an array of struct fe_opt ended by {FE_OPT_END}: its
 * names, its kind, where its value goes and its help. fe_opts_parse()
 * splits a command line by the table and fe_opts_help() renders the
 * table for --help, so an option is spelled in one place.
 *
 * Values go into the caller's struct of options: OFF is the offset of the
 * member (offsetof), within the struct at the GROUP entry's OFF for the
 * entries of an included group (fe_run_opt_table: the options naming a run
 * on other hosts, shared by every command that takes them).
 */
enum fe_opt_kind {
    FE_OPT_END,   /* ends a table */
    FE_OPT_FLAG,  /* no value: the int at OFF becomes 1 */
    FE_OPT_STR,   /* the value as given, a const char * at OFF */
    FE_OPT_INT,   /* a decimal in [MIN, MAX], a long long at OFF */
    FE_OPT_U64,   /* a decimal of MIN or more, a uint64_t at OFF */
    FE_OPT_WORDS, /* the words after the option up to the next option or
                   * "--", a struct fe_words at OFF */
    FE_OPT_CALL,  /* FN takes the value (NULL when optional and absent) */
    FE_OPT_GROUP, /* GROUP's entries here, on the struct at OFF */
};
/* fe_opt.flags */
enum {
    FE_OPT_OPTIONAL = 1u << 0, /* the value only as --NAME=VALUE */
};

struct fe_words {
    char **v;
    int n;
    int given; /* the option was there, with words or not */
};

struct fe_opt {
    enum fe_opt_kind kind;
    int short_name;   /* 'r' for -r, or 0 */
    const char *name; /* the long name, without "--" */
    const char *arg;  /* the value's name in the help ("SET"); NULL: the
                       * option takes no value (FE_OPT_CALL too) */
    const char *help; /* a paragraph, wrapped by fe_opts_help; NULL: not
                       * listed (an alias of the entry before, or an
                       * option not for typing) */
    size_t off;
    long long min, max; /* FE_OPT_INT; FE_OPT_U64's MIN */
    const char *what;   /* in errors: "--NAME takes WHAT, not 'x'" */
    /* FE_OPT_CALL: DST is the struct at OFF; 0, or -1 after an error
     * message */
    int (*fn)(void *dst, const struct fe_opt *o, const char *arg);
    const struct fe_opt *group; /* FE_OPT_GROUP */
    unsigned flags;
};

/* Table entries, one per kind (S the short name or 0, L the long one, OFF
 * the member's offset, H the help or NULL). */
#define FE_FLAG(S, L, OFF, H)                                                 \
    {.kind = FE_OPT_FLAG, .short_name = S, .name = L, .off = OFF, .help = H}
#define FE_STR(S, L, ARG, OFF, H)                                             \
    {.kind = FE_OPT_STR, .short_name = S, .name = L, .arg = ARG,              \
     .off = OFF, .help = H}
#define FE_INT(S, L, ARG, OFF, MIN, MAX, WHAT, H)                             \
    {.kind = FE_OPT_INT, .short_name = S, .name = L, .arg = ARG,              \
     .off = OFF, .min = MIN, .max = MAX, .what = WHAT, .help = H}
#define FE_U64(S, L, ARG, OFF, MIN, WHAT, H)                                  \
    {.kind = FE_OPT_U64, .short_name = S, .name = L, .arg = ARG,              \
     .off = OFF, .min = MIN, .what = WHAT, .help = H}
#define FE_WORDS(S, L, ARG, OFF, H)                                           \
    {.kind = FE_OPT_WORDS, .short_name = S, .name = L, .arg = ARG,            \
     .off = OFF, .help = H}
#define FE_CALL(S, L, ARG, OFF, FN, H)                                        \
    {.kind = FE_OPT_CALL, .short_name = S, .name = L, .arg = ARG,             \
     .off = OFF, .fn = FN, .help = H}
#define FE_CALL_OPT(S, L, ARG, OFF, FN, H)                                    \
    {.kind = FE_OPT_CALL, .short_name = S, .name = L, .arg = ARG,             \
     .off = OFF, .fn = FN, .help = H, .flags = FE_OPT_OPTIONAL}
#define FE_GROUP(OFF, TABLE) {.kind = FE_OPT_GROUP, .off = OFF, .group = TABLE}
#define FE_END {.kind = FE_OPT_END}

/* What fe_opts_parse leaves of a command line: the positional words it
 * took (at most the NPOS it was given), and where it stopped. */
#define FE_POS_MAX 4
#define FE_POS_ALL (-1) /* NPOS: every positional word (fe_pos_release) */
struct fe_pos {
    const char **v; /* FIXED, or with FE_POS_ALL an array of its own */
    const char *fixed[FE_POS_MAX];
    int n;
    int rest;     /* the index in ARGV of the first word not parsed: the
                   * one after "--", a positional word beyond NPOS, or
                   * ARGC */
    int dashdash; /* it stopped at "--" */
};

/* Parses ARGV[1..ARGC-1] (ARGV[0]: the command, NAME in messages) by
 * TABLE into DST, options and positional words in any order: the first
 * NPOS positional words (at most FE_POS_MAX, or FE_POS_ALL) into POS,
 * parsing stopping at "--" or at a positional word beyond them (NPOS 0:
 * options come first, the first other word begins the rest, as a
 * launcher's command line). Long options may be abbreviated to a unique
 * prefix; short ones bundled. 0; -1 after an error message about a
 * value, -2 about the words themselves (an unknown option, a missing
 * value: the caller may say where the help is). Either way the caller
 * exits with status 2. */
int fe_opts_parse(const struct fe_opt *table, const char *name, int argc,
                  char **argv, void *dst, int npos, struct fe_pos *pos);
void fe_pos_release(struct fe_pos *pos);
/* Applies option O of TABLE with value ARG (NULL: none) to DST, as
 * fe_opts_parse does, NAME the command in messages: 0, or -1 after an
 * error message. For parsers of other syntaxes (the console's command
 * lines) that take options from a table. */
int fe_opt_apply(const struct fe_opt *o, const char *name, void *dst,
                 const char *arg);
/* TABLE's options (groups included) with their help, one per paragraph,
 * wrapped to 79 columns, to OUT. */
void fe_opts_help(const struct fe_opt *table, FILE *out);
/* TEXT to OUT wrapped to 79 columns, each line after the first (and the
 * first, when COL, where it starts, is less) indented to INDENT. */
void fe_wrap(FILE *out, const char *text, int col, int indent);
/* "[--from N] [--count K] ..." for TABLE's options, into BUF (cut at
 * LEN). */
void fe_opts_synopsis(const struct fe_opt *table, char *buf, size_t len);
/* Calls FN with each option of TABLE, groups flattened (OFF the offset
 * from the table's struct): stops when FN returns non-zero, and returns
 * that; 0 at the end. */
int fe_opts_each(const struct fe_opt *table,
                 int (*fn)(const struct fe_opt *o, size_t off, void *ud),
                 void *ud);

#endif
