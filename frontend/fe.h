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
    int hidden;          /* not listed, no prefix: drdb starts it itself */
    int (*run)(int argc, char **argv);
};

extern const struct fe_subcmd fe_sub_functions;
extern const struct fe_subcmd fe_sub_log;
extern const struct fe_subcmd fe_sub_record;
extern const struct fe_subcmd fe_sub_replay;
extern const struct fe_subcmd fe_sub_console;
extern const struct fe_subcmd fe_sub_batch;
extern const struct fe_subcmd fe_sub_agent;

/* drdb replay --host (sub-replay-host.c): `drdb replay OPTS -- DIR
 * [-- PROG...]` run on O's host through its agent (remote.h), which
 * checks run DIR (TRUST: --trust) first; its output here, its stdin
 * ours when RELAY_STDIN. The exit status of that replay, 2 when the host
 * refused it, 1 when the connection failed or was lost. */
struct remote_opts;
int fe_replay_host(const struct remote_opts *o, const char *dir,
                   char *const *opts, int nopts, char *const *prog,
                   int trust, int relay_stdin);
/* One line per rank of RUNDIR (events, bytes, state) to OUT; returns the
 * number of ranks whose log is damaged or incomplete. */
int fe_log_summary(const char *dir, FILE *out);
/* A run named HOST:DIR on a command line: DIR (a pointer into ARG) with
 * HOST copied into HOST, or NULL for a local directory (no ':', a '/'
 * before it, or a directory of that name here: "./a:b" always is). */
const char *fe_split_host(const char *arg, char *host, size_t hostlen);
/* Opens the run SPEC names into X (run-open.c): a local directory, or
 * HOST:DIR through HOST's drdb agent (started with RO's ssh options and
 * drdb path; its host is SPEC's), whose connection *CONN gets (NULL for a
 * local run; remote_close() it after ev_close()): the logs come as copies
 * without message data, fetched when shown. 0, or -1 with ERR. */
struct ev_run;
struct remote;
struct remote_opts;
int fe_ev_open(struct ev_run *x, const char *spec,
               const struct remote_opts *ro, struct remote **conn,
               char *err, size_t errlen);
/* The libc streams (sub-log-libc.c): one line saying how many results the
 * ranks of DIR with a log (PRESENT, NPRESENT of them) recorded; `drdb log
 * libc`. */
void fe_log_libc_summary(const char *dir, const int *present, int npresent,
                         FILE *out);
int fe_log_libc(int argc, char **argv);
/* drdb log sql (sub-log-sql.c): ARGV[0] is "sql"; RO: the ssh options
 * for a HOST:RUNDIR run. */
int fe_log_sql(int argc, char **argv, const struct remote_opts *ro);
/* drdb log graph and drdb log trace (sub-log-graph.c): ARGV[0] is the
 * command's name; RO as for fe_log_sql(). */
int fe_log_graph(int argc, char **argv, const struct remote_opts *ro);
int fe_log_trace(int argc, char **argv, const struct remote_opts *ro);
/* The picture G into FILE, its kind by its name (.svg, .html, .dot),
 * saying on stderr what it holds: 0, or 1 after an error message (a file
 * not written is removed). fe_graph_kind(): 0 for a name of no kind. The
 * console's `graph` uses them too. */
struct ev_graph;
int fe_graph_write(const struct ev_graph *g, const char *file);
int fe_graph_kind(const char *file);

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
