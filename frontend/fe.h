/*
 * fe.h - the drdb program: subcommand table and shared helpers.
 *
 * Each subcommand (`drdb record`, `drdb log`, ...) lives in its own file
 * (sub-NAME.c) and defines a `const struct fe_subcmd` with its table of
 * options (args.h). main() finds it by name (unique prefixes accepted),
 * answers --help from the table, and runs it with argv[0] set to the
 * subcommand name; the command parses its argv by its table
 * (fe_opts_parse).
 */
#ifndef DRDB_FE_H
#define DRDB_FE_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "args.h"
#include "remote.h"

struct fe_subcmd {
    const char *name;
    const char *args;    /* the words other than options, for the usage
                          * line ("[HOST:]RUNDIR [-- PROGRAM ARGS]") */
    const char *summary; /* one line, for `drdb --help` */
    const char *help;    /* what the command does, before its options in
                          * `drdb NAME --help` (lines as written) */
    const struct fe_opt *opts; /* its options (args.h), rendered after */
    const char *more;    /* after the options: notes, examples */
    const struct fe_subcmd *const *subs; /* its own commands (drdb log's),
                                          * NULL-terminated */
    const struct fe_subcmd *parent;      /* for those: drdb log */
    int hidden;          /* not listed, no prefix: drdb starts it itself */
    int (*run)(int argc, char **argv);
};

extern const struct fe_subcmd fe_sub_functions;
extern const struct fe_subcmd fe_sub_log;
extern const struct fe_subcmd fe_sub_check;
extern const struct fe_subcmd fe_sub_record;
extern const struct fe_subcmd fe_sub_replay;
extern const struct fe_subcmd fe_sub_console;
extern const struct fe_subcmd fe_sub_batch;
extern const struct fe_subcmd fe_sub_agent;
extern const struct fe_subcmd fe_sub_attach;
/* `drdb attach HOST [ID]` without --list or --end (sub-console.c): the
 * console on the kept session's ranks (ARGV[0] is "attach"). */
int fe_console_attach(int argc, char **argv);

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
 * number of ranks whose log is damaged or incomplete. TRUSTED: the logs
 * were just written (drdb record): their records' checksums are not
 * checked, so their message data is not read (log_rank_open_trusted). */
int fe_log_summary(const char *dir, FILE *out, int trusted);
/* A run named HOST:DIR on a command line: DIR (a pointer into ARG) with
 * HOST copied into HOST, or NULL for a local directory (no ':', a '/'
 * before it, or a directory of that name here: "./a:b" always is). */
const char *fe_split_host(const char *arg, char *host, size_t hostlen);
/*
 * A run on one or more hosts (run-hosts.c, run-open.c; docs/remote.md).
 *
 * A host list: `--hosts h1,h2:4` or `--hosts @FILE`, FILE in the format of
 * MPICH's host files (a HOST or HOST:N per line, '#' comments). N (default
 * 1) is the number of consecutive ranks the host takes, as mpiexec places
 * them: h1:2,h2:2 puts ranks 0,1 on h1 and 2,3 on h2, then wraps around.
 */
struct fe_host {
    char name[256];
    int slots;
};
struct fe_hosts {
    struct fe_host *v;
    int n;
};
/* Parses ARG into L: 0, or -1 with ERR (a host name that could be an ssh
 * option, a bad count, an unreadable or empty file). */
int fe_hosts_parse(struct fe_hosts *l, const char *arg, char *err,
                   size_t errlen);
void fe_hosts_release(struct fe_hosts *l);
/* The entry of L that rank RANK is placed on. */
int fe_hosts_place(const struct fe_hosts *l, int rank);

/* One part of a run: its directory here or on a host. */
struct log_run;
struct remote;
struct ev_run;
struct fe_src {
    char host[256];      /* "": this machine */
    char dir[4096];      /* the directory there (absolute here) */
    struct remote *conn; /* the host's agent (NULL here or once failed) */
    struct log_run *run; /* its description (NULL: the part failed) */
    char err[512];       /* why it failed */
};
struct fe_run {
    struct fe_src *src;
    int nsrc;
    int world_size;
    int *rank_src;       /* per rank, the part its log is taken from; -1:
                            no part has it */
    int first;           /* the first part that opened */
    char name[4400];     /* the run in messages */
};
/* Opens the run SPECS name (NSPECS >= 1 parts of one recorded run, each a
 * local directory or HOST:DIR: a run whose logs were written on several
 * hosts' own disks), or, with HOSTS non-empty (then one SPEC, a DIR), the
 * directory DIR on each host of HOSTS. Remote parts through the hosts'
 * agents, made with RO (its host is each part's). A part that cannot be
 * opened (host unreachable, no such directory) is one line on stderr and
 * its ranks are left out; the open fails only when no part opens, or when
 * parts are of different runs (their drdb.run disagree). Each rank's log
 * is taken from the part HOSTS places it on when that part has it, else
 * from the first part that has it. 0, or -1 with ERR (FR holds nothing). */
int fe_run_open(struct fe_run *fr, char *const *specs, int nspecs,
                const struct fe_hosts *hosts, const struct remote_opts *ro,
                char *err, size_t errlen);
/* The run's description (drdb.run of its first part that opened). */
const struct log_run *fe_run_desc(const struct fe_run *fr);
/* An event session X over FR's logs: local logs opened as they are,
 * remote ones as copies without message data (fetched when shown); with
 * FEED (the caller builds the whole index next), each rank read into the
 * index while the next copies are on their way (ev_build_feed). X uses
 * FR's connections: ev_close(X) before fe_run_close(FR). 0, or -1. */
int fe_run_events(struct fe_run *fr, struct ev_run *x, int feed, char *err,
                  size_t errlen);
void fe_run_close(struct fe_run *fr);

/* How a command names a run beyond its RUNDIR argument: the options of
 * fe_run_opt_table (--host HOST, --also PART, --hosts LIST, --ssh-option
 * OPT, --remote-drdb PATH, --launcher ssh|srun), one group shared by
 * every command that takes them. */
struct fe_run_opts {
    struct remote_opts ro; /* its host stays NULL: each part's own */
    const char *host;      /* --host: RUNDIR is there */
    const char *hosts_arg; /* --hosts as given */
    const char *ssh_opts[32];
    const char *parts[64]; /* --also: more parts of the run */
    int nparts;
    struct fe_hosts hosts;  /* --hosts */
    char spec[4400];        /* HOST:RUNDIR, made by fe_run_opts_done */
};
extern const struct fe_opt fe_run_opt_table[];
/* O ready for fe_run_opt: zeroed, its ro naming its ssh options. */
void fe_run_opts_init(struct fe_run_opts *o);
void fe_run_opts_release(struct fe_run_opts *o);
/* Takes option NAME (without "--") with value ARG into O: 1, 0 when NAME
 * is not one of them, or -1 after an error message. */
int fe_run_opt(struct fe_run_opts *o, const char *name, const char *arg);
/* After the options: *RUNDIR as HOST:RUNDIR with --host HOST (a RUNDIR
 * with a host of its own is refused); with --launcher srun and the run
 * named by RUNDIR alone (no HOST:, --hosts or --also), the nodes of the
 * allocation drdb runs in (remote_alloc_hosts) into O's hosts, as if
 * given with --hosts, so that each rank is read and replayed on its node.
 * 0, or -1 with ERR (not inside an allocation, scontrol failed). */
int fe_run_opts_done(struct fe_run_opts *o, const char **rundir, char *err,
                     size_t errlen);
/* The run RUNDIR and O's parts name, opened into FR with its event
 * session X (fe_run_open, fe_run_events; WHOLE: the caller builds the
 * whole index next, begun as the copies arrive): 0, or -1 with ERR. Close
 * with ev_close(X), fe_run_close(FR). */
int fe_ev_open(struct ev_run *x, struct fe_run *fr, const char *rundir,
               const struct fe_run_opts *o, int whole, char *err,
               size_t errlen);

/* drdb log's commands (sub-log*.c, run-compress.c). */
extern const struct fe_subcmd fe_sub_log_info, fe_sub_log_dump,
    fe_sub_log_events, fe_sub_log_event, fe_sub_log_match, fe_sub_log_queues,
    fe_sub_log_sql, fe_sub_log_graph, fe_sub_log_trace, fe_sub_log_libc,
    fe_sub_log_compress, fe_sub_log_sign;
/* Which events of a rank to list: the options shared by drdb log events
 * and the console's events (fe_events_opt_table, sub-log.c). */
struct fe_events_opts {
    uint64_t from, count;
    const char *call;
    long long peer, tag;
};
extern const struct fe_opt fe_events_opt_table[];

/* The libc streams (sub-log-libc.c): one line saying how many results the
 * ranks of DIR with a log (PRESENT, NPRESENT of them) recorded; `drdb log
 * libc`. */
void fe_log_libc_summary(const char *dir, const int *present, int npresent,
                         FILE *out);

/*
 * drdb record's guards on log volume (record-watch.c).
 */
struct fe_rec_limits {
    uint64_t per_rank, total; /* --max-log-size SIZE, total=SIZE; 0: none */
    double timeout;           /* --timeout SECONDS; 0: none */
};
/* Takes --max-log-size ARG into L: 0, or -1 after an error message. */
int fe_rec_limit_opt(struct fe_rec_limits *l, const char *arg);
/* Passes L to the ranks to be recorded in run DIR (their environment, the
 * run's budget file): 0, or -1 after an error message. */
int fe_rec_limits_apply(const struct fe_rec_limits *l, const char *dir);
/* Removes what fe_rec_limits_apply made in DIR. */
void fe_rec_limits_done(const char *dir);
/* The logs a run wrote: bytes on disk, ranks, seconds of the run. */
struct fe_rec_volume {
    uint64_t bytes;
    int nlogs;
    double seconds;
    int stopped; /* --timeout: 1 the launcher got SIGTERM, 2 then SIGKILL */
};
/* Waits for CHILD (the launcher) into *STATUS, watching the logs of DIR
 * grow meanwhile: a warning on stderr once, when at their rate the disk
 * fills within 10 minutes and within 10 times the run's time so far, and
 * no limit of L stops them first. After L's timeout, CHILD gets SIGTERM
 * (mpiexec and srun pass it on to the ranks), and SIGKILL if it is still
 * there FE_REC_KILL_AFTER seconds later. VOL gets the volume at the end
 * and whether the run was stopped. 0, or -1 when CHILD cannot be waited
 * for. */
#define FE_REC_KILL_AFTER 10.0
int fe_rec_wait(pid_t child, const char *dir, const struct fe_rec_limits *l,
                int *status, struct fe_rec_volume *vol);
/* How drdb record compresses a run's message data (run-compress.c):
 * now, with progress; in a process of its own that outlives drdb, the run
 * usable meanwhile; AUTO: in the background when the logs are large. */
enum { FE_Z_AUTO, FE_Z_NOW, FE_Z_BACKGROUND };
/* Compresses the message data of every rank's log of DIR as MODE says. */
void fe_rec_compress(const char *dir, int mode);
/* "N logs (X MB) left uncompressed: ..." (a static buffer). */
const char *fe_z_skipped(uint64_t logs, uint64_t bytes);
/* The state of DIR's background compression, one line on OUT ("" when
 * none was started). */
void fe_zstatus_print(const char *dir, FILE *out);
/* After the run (record-end.c): each rank that should
 * have a log (RANKS: the --ranks list, NULL all) and has none, or whose
 * log is truncated, killed or damaged, named on stderr: the number of
 * ranks whose recording failed (a log cut at --max-log-size is not), or
 * -1 when the run cannot be opened; *ENDED: how many ranks the program
 * itself ended early (killed mid-run, MPI_Abort). */
int fe_rec_verdict(const char *dir, const char *ranks, int *ended);
/* "drdb: logs: 1.2 GB for 4 ranks in 4.1 s of run: 75.0 MB/s per rank" */
void fe_rec_volume_print(const struct fe_rec_volume *v, FILE *out);

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

/* A console (or an agent) holds descriptors for each rank (its log, its
 * GDB's pipes and terminal: about 5 a started rank): raises this
 * process's soft limit of open files to the hard one, once. The limit it
 * had: 0 when unchanged. The processes it starts get that limit back
 * (fe_nofile_restore, or mi_gdb_options.nofile), as the recorded program
 * had it. */
unsigned long fe_nofile_raise(void);
/* In a child before exec (async-signal-safe): the soft limit of open
 * files fe_nofile_raise found, again. */
void fe_nofile_restore(void);

/* Prints "drdb: " + message + newline to stderr; returns 1 (an exit code). */
int fe_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* `drdb NAME --help`: the usage line, the help, the options rendered from
 * CMD's table, the rest; for a command with commands of its own, theirs. */
void fe_subcmd_usage(const struct fe_subcmd *cmd, FILE *out);
/* The usage line alone, and where the help is, on stderr (after a bad
 * command line); returns 2, the exit status. */
int fe_subcmd_misuse(const struct fe_subcmd *cmd);
/* fe_opts_parse by CMD's table, CMD named in messages ("drdb log
 * events: ..."). */
int fe_subcmd_parse(const struct fe_subcmd *cmd, int argc, char **argv,
                    void *dst, int npos, struct fe_pos *pos);
/* The command of LIST (NULL-terminated) named NAME, or that a unique
 * prefix of NAME names (not a hidden one); NULL after an error message
 * (PARENT: whose commands they are, NULL for drdb's). */
const struct fe_subcmd *fe_subcmd_find(const struct fe_subcmd *const *list,
                                       const char *name,
                                       const struct fe_subcmd *parent);

/* True when argv holds -h or --help before any "--". */
int fe_wants_help(int argc, char **argv);

#endif
