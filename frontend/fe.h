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

#include <stdint.h>
#include <stdio.h>

struct fe_subcmd {
    const char *name;
    const char *args;    /* argument template for the usage line */
    const char *summary; /* one line, for `drdb --help` */
    const char *help;    /* the rest of `drdb NAME --help` */
    int (*run)(int argc, char **argv);
};

extern const struct fe_subcmd fe_sub_functions;
extern const struct fe_subcmd fe_sub_log;
extern const struct fe_subcmd fe_sub_record;
extern const struct fe_subcmd fe_sub_replay;
extern const struct fe_subcmd fe_sub_console;
extern const struct fe_subcmd fe_sub_batch;

/* One line per rank of RUNDIR (events, bytes, state) to OUT; returns the
 * number of ranks whose log is damaged or incomplete. */
int fe_log_summary(const char *dir, FILE *out);
/* The libc streams (sub-log-libc.c): one line saying how many results the
 * ranks of DIR with a log (PRESENT, NPRESENT of them) recorded; `drdb log
 * libc`. */
void fe_log_libc_summary(const char *dir, const int *present, int npresent,
                         FILE *out);
int fe_log_libc(int argc, char **argv);
/* drdb log sql (sub-log-sql.c): ARGV[0] is "sql". */
int fe_log_sql(int argc, char **argv);

/* The GNU build id of the ELF file PATH as hex into HEX: 0, or negative
 * when PATH has none or cannot be read. */
int fe_build_id(const char *path, char *hex, size_t len);

/* A file drdb ships: $ENV if set (ENV may be NULL), else the first of REL (paths relative
 * to the drdb binary's directory: the build tree, an install) that exists,
 * resolved into OUT. 0 or -1. */
int fe_find_beside(const char *env, const char *const *rel, int nrel,
                   char *out, size_t len);

/* The directory of the replay stub (libmpich.so.12 of drdb) into OUT:
 * $DRDB_REPLAY_LIB_DIR, else beside the drdb binary (build tree or
 * install). 0 or -1. */
int fe_find_stub(char *out, size_t len);
/* The library preloaded into the console's GDBs (mi/gdb-xstate.c) into
 * OUT: beside the drdb binary (build tree or install). 0 or -1. */
int fe_find_gdb_xstate(char *out, size_t len);
/* Removes the replay stub from the path list in environment variable NAME
 * (a recording must use the real MPI). */
void fe_env_drop_stub(const char *name);

/* Prints "drdb: " + message + newline to stderr; returns 1 (an exit code). */
int fe_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Prints the usage of a subcommand to the stream. */
void fe_subcmd_usage(const struct fe_subcmd *cmd, FILE *out);

/* True when argv holds -h or --help before any "--". */
int fe_wants_help(int argc, char **argv);

#endif
