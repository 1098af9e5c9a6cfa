/*
 * fe.h - the drdb program: subcommand table and shared helpers.
 *
 * Each subcommand (`drdb record`, `drdb log`, ...) lives in its own file
 * (sub-NAME.c) and defines a `const struct fe_subcmd`. main() finds it by
 * name (unique prefixes accepted), answers --help from the table, and runs
 * it with argv[0] set to the subcommand name.
 */
#ifndef DRDB_FE_H
#define DRDB_FE_H

#include <stdio.h>

struct fe_subcmd {
    const char *name;
    const char *args;    /* argument template for the usage line */
    const char *summary; /* one line, for `drdb --help` */
    const char *help;    /* the rest of `drdb NAME --help` */
    int (*run)(int argc, char **argv);
};

extern const struct fe_subcmd fe_sub_functions;

/* Prints "drdb: " + message + newline to stderr; returns 1 (an exit code). */
int fe_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Prints the usage of a subcommand to the stream. */
void fe_subcmd_usage(const struct fe_subcmd *cmd, FILE *out);

/* True when argv holds -h or --help before any "--". */
int fe_wants_help(int argc, char **argv);

#endif
