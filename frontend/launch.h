/*
 * launch.h - the one launcher: what a replayed rank is started with.
 *
 * A replay is the recorded program run with the replay stub (the stub
 * protocol: replayer/drdb-stub.h) first in its library path and preloaded,
 * told which run and rank to answer from, and with the checkpoint settings
 * of the session. drdb starts one three ways, all from here:
 *
 *   - `drdb replay`: a child process (launch_env_apply() before exec);
 *   - the console: a program under GDB (each setting of the environment as
 *     GDB's `set environment`, the arguments as its `set args`);
 *   - the console's shadow: a detached copy of a replay running under GDB
 *     (launch_proc_read() of the process, launch_shadow()).
 *
 * An environment here is a list of "NAME=VALUE" strings: the settings to
 * apply over the caller's environment, or (a launch_proc's) a whole one.
 * Errors: -1, out of memory or an unreadable process.
 */
#ifndef DRDB_LAUNCH_H
#define DRDB_LAUNCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

struct launch_env {
    char **v;        /* "NAME=VALUE", malloc'd, NULL-terminated */
    size_t n, cap;
};

void launch_env_init(struct launch_env *e);
void launch_env_release(struct launch_env *e);
/* NAME=VALUE, in place of NAME's setting if E has one, else at the end. */
int launch_env_set(struct launch_env *e, const char *name, const char *value);
/* Removes NAME's setting(s). */
void launch_env_unset(struct launch_env *e, const char *name);

/* The settings a replay of rank RANK of run DIR needs over the caller's
 * environment, with the stub in STUB_DIR: DRDB_REPLAY_DIR,
 * DRDB_REPLAY_RANK, the stub first in LD_LIBRARY_PATH, and preloaded (a
 * program whose DT_RPATH names MPICH's directory still gets the stub).
 * KEEP_PRELOAD: the caller's LD_PRELOAD after the stub (`drdb replay`);
 * else the stub alone (the console's GDB path, as it always was). */
int launch_env_replay(struct launch_env *e, const char *stub_dir,
                      const char *dir, int rank, int keep_preload);
/* The checkpoint library started in the stub (DRDB_CKPT: the caller's, or
 * "on"), automatic checkpoints every INTERVAL seconds (> 0) and every
 * EVERY events (> 0). */
int launch_env_ckpt(struct launch_env *e, double interval, long long every);
/* Applies E's settings to this process's environment (a child, before it
 * executes the program). */
void launch_env_apply(const struct launch_env *e);
/*
 * The recorded stack (log-format.h's stack_strings and stack_nenv: the
 * size of the strings exec put on rank RANK's stack and its number of
 * environment variables), from its log header in run DIR: 0 and 0 when
 * not known. With address-space randomization off, a replay whose exec
 * gets the recorded stack pointer has its stack frames at the recorded
 * addresses: launch_pad_size() says how many padding variables
 * (DRDB_PAD0, maybe DRDB_PAD1: *K) and how many bytes of value in the
 * first (the result) a replay whose exec has CUR bytes of strings (path,
 * arguments, environment) and NENV_NOW variables adds; -1 when STRINGS is
 * 0 or the environment is already too large. launch_pad_env() sets them
 * in a child about to exec PATH with ARGV (drdb replay); the console has
 * its GDB set them (con-rank.c).
 */
void launch_stack_recorded(const char *dir, int rank, uint32_t *strings,
                           uint32_t *nenv);
long long launch_pad_size(unsigned long long cur, size_t nenv_now,
                          uint32_t strings, uint32_t nenv, int *k);
void launch_pad_env(const char *path, char *const *argv, uint32_t strings,
                    uint32_t nenv);

/*
 * The replay's files (launch-files.c; docs/replaying.md, "Files"). The
 * program's writes go to a directory of the replay's own, never over the
 * recorded run's files: launch_out_dir() makes (and empties) run DIR's
 * LAUNCH_OUT_DIR/WHO-RANK ("rank": a replay; "shadow": the console's
 * shadow of the rank), or, when DIR cannot hold it (another user's, a
 * link there), WHO-RANK in this process's own directory under TMPDIR
 * (drdb-replay-PID-XXXXXX, removed when drdb ends: life.h), said on
 * stderr; its path into OUT. 0, or -1 after an error message.
 * launch_env_files() adds the settings: OUT (NULL: the program writes in
 * place), and, when STDIN_RECORDED and the run has one, the recorded
 * standard input (the stub gives it to rank 0).
 */
#define LAUNCH_OUT_DIR "replay-out"
int launch_out_dir(const char *dir, const char *who, int rank, char *out,
                   size_t len);
int launch_env_files(struct launch_env *e, const char *dir,
                     const char *out, int stdin_recorded);

/* The recorded arguments (0x1f-separated, argv[0] first; S is cut up) as
 * a NULL-terminated vector (malloc'd; the strings are S's). */
char **launch_split_argv(char *s);
/* GDB's "set args ..." for the recorded ARGS (0x1f-separated, argv[0]
 * first), malloc'd. Plain arguments go as they are and *PLAIN is set (no
 * shell needs to start the program: one process less per rank); otherwise
 * each is single-quoted for GDB's /bin/sh. */
char *launch_gdb_args(const char *args, int *plain);
/* Whether DIR exists here as a directory (a recorded working directory may
 * not). */
int launch_dir_ok(const char *dir);

/*
 * The check before a replay starts (launch-check.c): shows on OUT, after
 * PREFIX, the program EXE that will run for run DIR (RUN: its
 * description): path, owner, build id (OUT NULL: on stderr, only when it
 * is refused or suspect). Then, unless OWN (the user named
 * the program: -- PROGRAM; another build only earns a warning), refuses
 * when the run is not signed with this user's key (launch_run_signed), the
 * run directory, drdb.run or the program belongs to another user (root is
 * trusted) or others can write it, or the program's build id is not the
 * recorded one: everything the replay would execute (launch_show) and the
 * reasons on stderr. TRUST (--trust): the same on OUT (else stderr), and
 * the replay goes on. 0, or -1: do not start.
 */
/*
 * The MPI of a program and of a launcher (launch-mpi.c): drdb records and
 * replays MPICH programs (libmpich.so.12) only.
 * launch_mpi_of(): the MPI library program EXE needs, directly or through
 * its libraries as ld.so finds them, into M (m->mpi NULL: none); -1 when
 * EXE is not ELF.
 * launch_mpi_refuse(): 0, or -1 after one line on stderr when EXE is
 * another MPI's program (DOES: what drdb does with MPICH's, "records").
 * launch_mpi_launcher(): the MPI ("MPICH", "Open MPI") of the MPI launcher
 * LAUNCHER (mpiexec, mpirun, orterun, prterun: its real name, else its
 * --version), with the evidence into LINE; NULL when it is not one or
 * cannot tell.
 */
struct launch_mpi {
    const char *mpi; /* "MPICH", "Open MPI", or NULL */
    int other;       /* not MPICH's ABI */
    int program;     /* EXE is an executable (not a library) */
    char lib[256];   /* the soname that says it */
    char by[4096];   /* the library that needs it ("": EXE itself) */
};
int launch_mpi_of(const char *exe, struct launch_mpi *m);
int launch_mpi_refuse(const char *exe, const char *does);
/* Before `drdb record -- ARGV`: the program among ARGV (the first word
 * that is an executable needing an MPI library) refused as
 * launch_mpi_refuse() does, or when ARGV[0] is another MPI's launcher
 * than the program's: 0, or -1 after one line on stderr. */
int launch_mpi_check_launch(char **argv);
const char *launch_mpi_launcher(const char *launcher, char *line, size_t len);

struct log_run;
int launch_check(const struct log_run *run, const char *dir, const char *exe,
                 int own, int trust, FILE *out, const char *prefix);
/* Everything a replay of run DIR (RUN) with program EXE executes, one
 * line each on OUT after PREFIX, escaped for a terminal: the program (path,
 * owner, build id), its arguments, working directory, the environment drdb
 * sets and the libraries it preloads. */
void launch_show(const struct log_run *run, const char *dir, const char *exe,
                 FILE *out, const char *prefix);

/*
 * Runs this user recorded (launch-trust.c; docs/security.md): drdb.run
 * signed with the user's key ($XDG_CONFIG_HOME/drdb/run-key, else
 * ~/.config/drdb/run-key; made on the first signature).
 *
 * launch_run_signed(): 1 when run DIR's drdb.run ends with a signature
 * made with this user's key over the rest of it, else 0 with why into
 * WHY (unsigned, another key's or changed since, unreadable).
 * launch_run_sign(): signs run DIR's drdb.run (in place of its signature,
 * if any), which must be this user's: 0, or -1 with why in ERR.
 */
int launch_run_signed(const char *dir, char *why, size_t len);
int launch_run_sign(const char *dir, char *err, size_t errlen);

/* A running process as a shadow copies it: its executable, arguments,
 * working directory and whole environment. */
struct launch_proc {
    char exe[4096], cwd[4096];
    char **argv;             /* malloc'd, NULL-terminated */
    struct launch_env env;   /* the whole environment */
};
int launch_proc_read(struct launch_proc *p, pid_t pid);
void launch_proc_release(struct launch_proc *p);

/* Starts P as a shadow: its own process group, dying with this process
 * even when it is killed with SIGKILL (life.h), with ASLR off (the layout
 * of the process it copies), at a lower priority, on a terminal of its own
 * (its stdio buffers as the original's does) whose output goes to the file
 * OUT; its wait status is written to the file STATUS when it ends. The pid
 * of the group's leader (a drain process), or -1 with errno. */
pid_t launch_shadow(const struct launch_proc *p, const char *out,
                    const char *status);
/* Whether the shadow PID has ended: 1 with its status in *ST (from the
 * file STATUS, else the drain's), 0 while it runs. */
int launch_shadow_poll(pid_t pid, const char *status, int *st);
/* Ends the shadow PID (its whole process group). */
void launch_shadow_stop(pid_t pid);
/* Removes the files of a shadow's directory DIR (not its subdirectories). */
void launch_clear_dir(const char *dir);
/* The shadow's status from the file STATUS its drain wrote, else W (the
 * drain's own wait status): for one reaped elsewhere (the agent). */
int launch_shadow_status(const char *status, int w);

/* launch-shadow.c: what a shadow is, for the console's local ranks and a
 * host's agent alike.
 *
 * launch_shadow_dir(): rank RANK's shadow directory into DIR, ROOT/rank-R
 * made 0700 (a link refused) and emptied; ROOT ($TMPDIR/drdb-shadow-PID-
 * XXXXXX, 0700, removed at life_end()) is made first when empty. 0, or
 * -errno. */
int launch_shadow_dir(char *root, size_t rootlen, int rank, char *dir,
                      size_t len);
/* Starts a shadow of replay FG (a running process: launch_proc_read) of
 * rank RANK, its checkpoint files to DIR (DRDB_CKPT_DIR), its output and
 * status in DIR/output and DIR/status, its writes to run RUNDIR's
 * replay-out/shadow-RANK (NULL: in place), a checkpoint every INTERVAL
 * seconds (> 0) else every EVERY events (0: 1). The drain's pid, or -1
 * with ERR. */
pid_t launch_shadow_of(pid_t fg, const char *dir, const char *rundir,
                       int rank, double interval, unsigned long long every,
                       char *err, size_t errlen);
/* A checkpoint file of a shadow's directory: its name there and its
 * header (ckpt-file.h's struct ckpt_info). */
struct launch_shadow_file {
    char name[256];
    long id, parent;
    uint64_t event;
    double time;
    uint64_t pages, bytes;
};
/* The valid checkpoint files (ckpt-NNNNNN.drdbck, their headers checked)
 * of shadow directory DIR: their number and *OUT (malloc'd; NULL for
 * none). */
int launch_shadow_files(const char *dir, struct launch_shadow_file **out);

/*
 * A launcher description: what to start and how, built where the command
 * is understood and executed where the files are (here, or by a remote
 * `drdb agent`: wire.h carries it). ARGV[0] is run as given (a path, or
 * searched in PATH); with LAUNCH_SELF it is this drdb instead. ENV: the
 * settings over the starting side's environment. RUNDIR (may be NULL):
 * the run the process replays; the agent applies launch_check() to it
 * and to PROGRAM (NULL: the run's recorded program) before starting.
 */
enum {
    LAUNCH_PTY = 1,     /* stdin, stdout, stderr on a terminal (a program) */
    LAUNCH_TTY = 2,     /* pipes, plus a terminal to give a program (GDB's
                           -inferior-tty-set): its slave's name is returned */
    LAUNCH_SELF = 4,    /* argv[0] is this drdb */
    LAUNCH_NO_ASLR = 8, /* address-space randomization off */
    LAUNCH_TRUST = 16,  /* launch_check() reasons do not refuse (--trust) */
};
struct launch_desc {
    char **argv;          /* malloc'd, NULL-terminated */
    char *cwd;            /* malloc'd, or NULL: where the starter is */
    struct launch_env env;
    unsigned flags;
    char *rundir, *program; /* malloc'd, or NULL */
};
/*
 * What a rank's replay under GDB needs from the host it runs on (the
 * console's ranks, con-rank.c), made there: for a remote rank by its
 * agent (wire.h's SETUP), for a local one here (launch-gdb.c).
 */
enum {
    LAUNCH_GDB_IN_PLACE = 1, /* no replay-out directory: writes in place */
    LAUNCH_GDB_CWD = 2,      /* the recorded working directory exists */
    LAUNCH_GDB_MPROTECT = 4, /* the checkpoint library tracks writes with
                                SIGSEGV (GDB must let it pass) */
};
struct launch_gdb {
    unsigned flags;
    char *stub;   /* the stub's directory */
    char *xstate; /* libdrdb-gdb-xstate.so, to preload into GDB ("": none) */
    char *index;  /* GDB's index cache directory ("": none) */
    char *out;    /* the rank's replay-out directory ("": in place) */
    struct launch_env env; /* the program's settings (replay, files) */
    uint32_t stack_strings, stack_nenv; /* launch_stack_recorded() */
};
void launch_gdb_init(struct launch_gdb *g);
void launch_gdb_release(struct launch_gdb *g);
/* Rank RANK of run DIR made ready to replay under GDB here (the stub and
 * the library found, replay-out/rank-RANK made and emptied unless
 * IN_PLACE or it cannot be, the index cache made): 0, or -1 with ERR (the
 * rank has no log, no stub, out of memory). */
int launch_gdb_prepare(struct launch_gdb *g, const char *dir, int rank,
                       int in_place, char *err, size_t errlen);

void launch_desc_init(struct launch_desc *d);
void launch_desc_release(struct launch_desc *d);
/* Copies the NULL-terminated ARGV into D: 0 or -1. */
int launch_desc_argv(struct launch_desc *d, char *const *argv);

#endif
