/*
 * args.h - the values on drdb's command lines, parsed one way for the whole
 * program: the options of the subcommands (sub-*.c; getopt_long splits
 * their argv) and the arguments of the console's commands (con-args.c
 * splits those by each command's template and reads their values here).
 *
 * Each function reads the whole string: "5x" is not a number. 0, or -1
 * when S is not what was asked for (the caller says what it wanted, naming
 * S).
 */
#ifndef DRDB_ARGS_H
#define DRDB_ARGS_H

#include <stdint.h>

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

struct option;
/* getopt_long in POSIX order (OPTS starts with '+') that also takes
 * options after the positional arguments, as `drdb console RUNDIR --ranks
 * 0-3`: returns each option as getopt_long does; takes the positional
 * arguments on the way into POS (*NPOS of them, at most MAXPOS); returns
 * -1 at "--" (left at optind), at a positional argument beyond MAXPOS (at
 * optind: a program's name), or at the end. */
int fe_getopt(int argc, char **argv, const char *opts,
              const struct option *longopts, int *longindex,
              const char **pos, int maxpos, int *npos);

#endif
