/*
 * con.h - the console: replayed ranks, each under its own GDB, driven by one
 * command loop (interactive with readline, or a batch script).
 *
 * A session (struct con) has one struct con_rank per rank of the run; a
 * rank is replayed only once the user asks for it (`replay @SET`). What a
 * session costs follows the ranks it replays and the logs present, not
 * the world size drdb.run claims (up to 1048576): the ranks no command
 * targeted share one struct con_rank, read-only (con_rank_own). Commands
 * target a rank set: they are sent to every targeted rank's GDB, and the
 * command completes when every rank has answered (and, for execution
 * commands, stopped or exited). Answers are merged: identical ones print
 * once, tagged with their rank set.
 *
 * Layers, each using only the ones above it in this list (no file calls
 * into a layer below it):
 *
 *   con.c          the session: the run, its ranks, named sets, the event
 *                  index, the session's tables (breakpoints, sets)
 *   con-stop.c     stops and frames in GDB's words (the report of a
 *                  step, a finish, a watchpoint)
 *   con-loop.c     the poll loop: every GDB, the hosts' connections and
 *                  the ranks' program output, waiting for ranks, Ctrl-C,
 *                  lost ranks and hosts
 *   con-host.c     the hosts of remote ranks: a rank's GDB started by
 *                  its host's agent, driven through mi_gdb_attach's link;
 *                  a lost connection made again; a GDB adopted from a
 *                  kept session
 *   con-rank.c     starting a rank's replay under GDB (the launcher's
 *                  environment and command) and ending it
 *   con-keep.c     a session kept on its hosts: its note, and adopting
 *                  its GDBs (`drdb attach`)
 *   con-stub.c     the stub client: what the console asks the replay stub
 *                  through GDB (drdb_event, stop at an event, the program's
 *                  frame above the stub's, its memory, jumps), and the MI
 *                  command with one quoted argument the commands build
 *   con-ckpt.c     checkpoints through the stub and shadows
 *   con-merge.c    merged output: grouped answers, `expand`, JSON, where
 *                  each rank stands
 *   con-goto.c     running ranks to events (goto's engine)
 *   con-args.c     the argument parser of every command
 *   cmd-*.c        the commands, one file per family, each exporting its
 *                  table entries
 *   con-cmd.c      the dispatcher: the one table, preconditions, command
 *                  lines and scripts, `help` and `source`
 *   con-flow.c     control flow (the dispatcher's layer): foreach, if,
 *   con-flow-user.c  while; define, document: blocks whose bodies are
 *                  command lines the dispatcher runs
 */
#ifndef DRDB_CON_H
#define DRDB_CON_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "log-reader.h"
#include "mi.h"
#include "rankset.h"

/* ---- ranks and the session (con.c) --------------------------------------- */

enum con_state {
    CON_OFF,      /* not replayed */
    CON_STARTING, /* GDB starting, program not yet at main */
    CON_STOPPED,
    CON_RUNNING,
    CON_EXITED,
    CON_DIVERGED, /* stopped in drdb_divergence_hook */
    CON_LOST,     /* its GDB died or hung */
    CON_LOG_END,  /* stopped where its log ends (the recorded rank
                   * stopped there: killed, or the run aborted) */
    CON_DEFERRED, /* in the session, its GDB not started yet: it starts
                   * when a command needs it (con_start_deferred); the
                   * logs answer for it meanwhile, and it stands before
                   * its event 0 */
};
const char *con_state_name(enum con_state s);
struct con_rank;
/* Is the rank's process stopped where GDB can look at it (stopped,
 * diverged, at the end of its log)? */
int con_rank_halted(const struct con_rank *k);

/* What the console remembers of a checkpoint it took (con-ckpt.c): whether
 * the rank was stopped before an event (in the stub's stop hook) then. */
struct con_ckext {
    long id;
    int at_event;
};

/* A rank's checkpoints and shadow (con-ckpt.c). */
struct con_ckpt_rank {
    struct con_ckext *ext; /* the checkpoints `checkpoint` took */
    size_t next, cap;
    int hooks;             /* the breakpoint on drdb_restored_hook is set */
    int at_exit;           /* GDB stops the rank before it exits */
    pid_t shadow;          /* its drain process (group leader); 0: none */
    int shadow_status;     /* -1 running, else the wait status */
    char shadow_dir[4200];
    /* A remote rank's shadow: the connection to its host it was started
     * on (con_host.gen), that connection's kept session ("": not kept),
     * and its files when last listed (-1: never) */
    unsigned shadow_gen;
    char shadow_session[64];
    int seen_files;
    long long seen_last;
};

/* A rank's last stop, as GDB's *stopped record told it (con-stop.c). */
struct con_stop {
    char reason[48];     /* MI's: end-stepping-range, function-finished... */
    char func[128];      /* its function */
    char frame[512];     /* GDB's frame line: "sq (n=6) at sq.c:24" */
    char source[512];    /* its source line: "24\t  return n * n;", or "" */
    unsigned long long addr; /* its pc */
    int gdbno;           /* the GDB watchpoint hit, if any */
    /* What GDB printed for the execution command that stopped there
     * ("Continuing.", "Breakpoint 1, ...", the values of a watchpoint),
     * kept from its console stream while the command ran (capture). */
    char *text;
    size_t len, cap;
    int capture;
    int numbered;        /* its breakpoint numbers are the session's */
};

struct con_rank {
    int rank;
    int host;             /* its index in c->hosts; -1: replayed here */
    enum con_state state;
    struct mi_gdb *gdb;
    int exit_code;
    int exit_signal;      /* CON_EXITED: killed by this signal (0: none) */
    int killed;           /* CON_OFF: ended by `kill` or `drop` */
    int end_checked;      /* an abnormal end a batch `assert` accepted */
    int tbpt_hit;         /* the temporary GDB breakpoint it stopped at,
                           * or the watchpoint that left its scope: GDB
                           * deleted it */
    long long last_event; /* its event when last seen stopped (-1: none) */
    char where[256];      /* "main () at jacobi.c:42" when stopped */
    char reason[256];     /* why it stopped, exited or was lost */
    int changed;          /* stopped or exited since a command looked */
    int at_event;         /* stopped in drdb_stop_hook (goto) */
    int at_bpt;           /* stopped by a user breakpoint or watchpoint */
    int refused;          /* its GDB refused the last execution command */
    int in_stub;          /* stopped in the stub (at an event, inside a
                           * call): the program's frame selected */
    int user_level;       /* then: the program's frame (selected) */
    int hung;             /* lost to a timeout: its GDB is to be ended */
    char *outbuf;         /* program output: the unfinished line */
    size_t outlen, outcap;
    struct con_ckpt_rank *ck; /* checkpoints and shadow (con-ckpt.c) */
    struct con_stop stop;  /* its last stop (con-stop.c) */
};

/* A named set (`defset`). */
struct con_set {
    char name[64];
    struct rankset set;
};

/* An action point (cmd-break.c): one drdb number, one GDB breakpoint per
 * rank of its set. It belongs to the session: every new GDB of a rank of
 * its set gets it again (con_bpt_apply), and, when ALL, so does every rank
 * started later. */
struct con_bpt {
    int id;
    char loc[512];  /* the command's argument: LOCATION, EXPRESSION */
    char cond[512]; /* its condition ("if" or `condition`) */
    int temp;       /* tbreak, thbreak */
    int watch;      /* its kind, enum con_bpt_kind */
    int enabled;
    int ignore;     /* `ignore N COUNT`: COUNT, as given */
    char *commands; /* `commands N`: the lines up to end (malloc'd) */
    int all;    /* set on every replayed rank: later ranks get it too */
    struct rankset set;
    int *gdbno; /* per rank, in its current GDB; 0: none */
};
/* A breakpoint's kind: the GDB command that makes it (con_bpt_verb). */
enum con_bpt_kind {
    CON_BPT_BREAK, CON_BPT_WATCH, CON_BPT_RWATCH, CON_BPT_AWATCH,
    CON_BPT_HBREAK,
};
/* "break", "tbreak", "watch", "rwatch", "awatch", "hbreak", "thbreak". */
const char *con_bpt_verb(const struct con_bpt *b);

/* A `display` (cmd-break.c): an expression shown at every stop of the
 * ranks of its set; the console evaluates it (no GDB state), so it
 * survives re-runs as is. */
struct con_display {
    int id;
    char fmt[16]; /* "/x", or "" */
    char expr[512];
    int all;
    int disabled;  /* `disable display N` */
    struct rankset set;
};
/* Whether display format FMT ("/3i") is one of x's (i, s: GDB shows the
 * memory at the value, "N: x/i $pc" then the lines). */
int con_display_x(const char *fmt);

/* A line of program output waiting for the end of the loop's round
 * (con-loop.c). */
/* A line of program output longer than this is printed in pieces of this
 * size (docs/console.md). */
#define CON_OUT_LINE_MAX (1 << 20)

struct con_out_line {
    int rank, occ; /* occ: how many equal lines this rank had before */
    char *text;    /* LEN bytes, NUL included if the program wrote one */
    size_t len;
};

/* One answer per rank, merged for printing (con-merge.c). */
struct con_answer {
    int rank;
    char *text; /* malloc'd; NULL: no answer */
};

/* A host the session's ranks replay on, through one agent connection
 * (remote.h): their GDBs start there, their logs are read there. */
struct remote;
struct con_host {
    char name[256];
    char dir[4096];      /* the run directory there */
    struct remote *conn; /* also the connection c->ev reads its logs by */
    struct remote *logs; /* after an attach (con-keep.c): the one c->ev
                          * reads its logs by; conn: the kept session's */
    int lost;            /* the connection was lost (WHY); `replay`
                          * reconnects */
    char why[256];
    unsigned gen;        /* how many times it reconnected: what the agent
                          * of an earlier connection ran is not this one's */
};

struct con {
    char dir[4096];      /* the run directory here ("" when all ranks are
                          * remote): a remote rank's is its host's */
    int hold;            /* dir's hold + 1 (log_run_hold): its logs are
                          * not replaced by a compression meanwhile */
    struct log_run run;
    int nranks;
    /* Per rank of the world (8 bytes a rank): its own struct con_rank
     * once a command started or deferred it (con_rank_own), else
     * c->idle, which nothing writes. */
    struct con_rank **ranks;
    struct con_rank *idle; /* every rank of its own rank, CON_OFF: rank
                            * -1 */
    struct rankset focus;
    struct con_set *sets;  /* defsets */
    int nsets;
    size_t cap_sets;
    struct con_bpt *bpts;  /* breakpoints, by drdb number */
    int nbpts, next_bpt;
    size_t cap_bpts;
    struct con_display *disps; /* displays, by number */
    int ndisps, next_disp;
    size_t cap_disps;
    int interrupted;     /* Ctrl-C or `interrupt` during this command */
    char exe[4096], args[65536], cwd[4096];
    char stub[4096];
    char debug_dir[4096]; /* GDB's debug-file-directory ("": none) */
    char **gdb_env;       /* GDB's environment (con-rank.c), NULL: ours;
                           * its first entry is allocated, the rest are
                           * environ's */
    int keep_going;      /* batch: go on after a failed command */
    int source_depth;    /* scripts being sourced (con_source) */
    int source_unwind;   /* sourced too deep: every level stops, said once */
    int in_place;        /* --write-in-place: no replay-out directory */
    int timeout_ms;      /* per command, 0: none */
    int json;            /* batch: one JSON object per result on stdout */
    int quit;
    int merge;           /* merge identical answers (set merge on|off) */
    int prefix;          /* prefix program output with its rank */
    int color;           /* set output-color: the program's colours pass
                          * (when stdout is a terminal) */
    int json_bad_said;   /* --json: invalid UTF-8 said on stderr */
    int timing;          /* print how long each command took */
    int max_groups;      /* more distinct answers: counts only (expand) */
    long long width;     /* set width N: every GDB's, those started later
                          * too; -1: not set */
    uint64_t *nevents;   /* per rank, from the logs */
    struct con_loginfo {
        int rank;
        int present, complete;
        char host[64];
        double span_s;   /* first to last event */
        char why[256];   /* why the log stops early, or "" */
    } *logs;             /* the ranks with a log file, ascending */
    int nlogs;
    /* The last merged answers, for `expand`. */
    struct con_answer *last;
    int nlast;
    /* Program output of the current round of the poll loop. */
    struct con_out_line *out;
    int nout;
    size_t cap_out;
    int out_hold; /* kept, not printed, until GDB said Continuing. */
    /* Interactive: called around anything printed while the user may be
     * typing (readline's line is saved and redrawn). */
    void (*out_begin)(void);
    void (*out_end)(void);
    struct ev_run *ev;   /* the run's logs (con_open), and their event
                          * index once con_events() built it */
    char *json_buf;      /* the current command's results */
    size_t json_len;
    FILE *json_f;
    FILE *json_out;      /* --json: the real stdout (con_json_open) */
    int json_depth;      /* commands run by a command (source) */
    double ckpt_interval;  /* set checkpoint-interval (s); < 0: not set */
    long long ckpt_every;  /* set checkpoint-every (events); 0: not set */
    char shadow_root[4096];
    struct con_host *hosts; /* the hosts of remote ranks */
    int nhosts;
    const struct remote_opts *ropts; /* how to reach them */
    int trust;           /* --trust: a host's trust check only warns */
    const char *program; /* -- PROGRAM: run instead of the recorded one */
    char program_kept[4096]; /* program as a kept session's note gave it */
    /* The first MI token of the GDBs driven from here (0: 1): above what
     * a kept session's console used, once attached (con-keep.c). */
    uint64_t first_token;
    /* Where the body of a block (foreach, if, while, define, document)
     * comes from: a script's next lines (con_source), or the '>' prompt
     * (sub-console.c). The next line, malloc'd (INTRO, when not NULL,
     * said first at a prompt); NULL at the end of the input or on Ctrl-C.
     * NULL: no body can be read. */
    char *(*read_body)(struct con *c, const char *intro);
    void *read_ud;        /* the reader's */
    int echo;             /* a script: a body's commands are echoed */
    struct con_flow *flow; /* control flow (con-flow.c), NULL until used */
    int keep_s;           /* --keep: the hosts' sessions are kept this
                           * long (con-keep.c); 0: not kept */
    char *keep_spec;      /* the run as given: the note's run, opt lines */
    char *keep_sent;      /* the note last sent */
    struct con_gdbcmd *gdbcmds; /* GDB's commands (con-gdb.c), from the
                                 * first GDB asked */
    int ngdbcmds, gdbcmds_loaded;
    size_t cap_gdbcmds;
    char **gdbsets;      /* GDB settings the user set ("set print pretty
                          * on"): every GDB started later gets them */
    int ngdbsets;
    size_t cap_gdbsets;
    int main_sym; /* 0: not looked yet; 1: the program has main; -1: not
                   * (stripped): its ranks start before event 0 */
    struct con_check *check; /* the last `check`'s findings (cmd-check.c),
                              * NULL before one */
};

/* Rank R's own struct con_rank, made (CON_OFF) the first time: what
 * starts or defers a rank calls it before it writes there. NULL, out of
 * memory, said on stderr. */
struct con_rank *con_rank_own(struct con *c, int r);

/* Opens the run DIR (a local directory, or HOST:DIR through an agent) and
 * the parts and hosts O names (fe.h: fe_run_opts, --also, --hosts; its
 * remote options reach the hosts): each remote part's host replays its
 * ranks. 0, or -1 with ERR. */
struct fe_run_opts;
int con_open(struct con *c, const char *dir, const struct fe_run_opts *o,
             char *err, size_t errlen);
/* The one-screen summary of the run (ranks, events, duration, hosts,
 * completeness), ranks with the same host or state grouped. */
void con_summary(struct con *c, FILE *out);
/* Ends every rank's GDB and shadow, frees the session. */
void con_close(struct con *c);
struct ev_run;
/* The run's event index (built on first use), or NULL after an error. */
struct ev_run *con_events(struct con *c);
/* The named set NAME (all, stopped, ..., or a defset) into OUT: 0 or -1. */
int con_named_set(struct con *c, const char *name, struct rankset *out);
/* TEXT[0..LEN) (a rank set without its '@', names resolved by
 * con_named_set) into OUT, initialized by the caller: 0, or -1 after the
 * error is reported (rs_report). */
int con_parse_set(struct con *c, const char *text, size_t len,
                  struct rankset *out);
/* The same, a rank list or set name only, reporting nothing. */
int con_parse_set_quiet(struct con *c, const char *text, size_t len,
                        struct rankset *out);

/* ---- queries as arguments (con-query.c) ---------------------------------- */
struct ev_sql_result;
/* The length of the braced text at P ("{...}", parentheses nested, quoted
 * strings skipped), 0 when P is not one (unbalanced, unterminated). */
size_t con_brace_len(const char *p);
/* The length of the word at P: up to a space or a tab, a "{...}" in it
 * whole (its spaces included). */
size_t con_word_len(const char *p);
/* Runs the query SQL of the run into RES (released by the caller, also
 * after an error), bounded by Ctrl-C and the session's --timeout. 0, or -1
 * after the error is shown. */
int con_query_run(struct con *c, const char *sql, struct ev_sql_result *res);
/* TEXT[0..LEN), "{SELECT ...}" returning one integer column, ranks: those
 * into OUT (initialized by the caller). An empty result, another shape or
 * a rank outside the run is an error: -1, reported. */
int con_query_set(struct con *c, const char *text, size_t len,
                  struct rankset *out);
/* TEXT[0..LEN), "{SELECT rank, seq ...}": the ranks into RANKS (initialized
 * by the caller), each one's event number into EV[rank] (nranks long). At
 * most one row per rank; -1 after an error (reported) as con_query_set. */
int con_query_events(struct con *c, const char *text, size_t len,
                     struct rankset *ranks, uint64_t *ev);
/* TEXT[0..LEN), "{SELECT rank, seq ...}" returning events of rank RANK
 * only (any number): their event numbers, sorted, each once, into *SEQS
 * (malloc'd), *N of them. A row of another rank is an error, and so is an
 * empty result: -1 (reported). */
int con_query_seqs(struct con *c, const char *text, size_t len, int rank,
                   uint64_t **seqs, size_t *n);
/* Names SET NAME (a new defset, or a new value): 0, or -1 out of memory. */
int con_define_set(struct con *c, const char *name, const struct rankset *set);
/* A rank's process is gone: so are its checkpoints in memory. */
void con_ckpt_forget(struct con_rank *k);

/* ---- stops and frames in GDB's words (con-stop.c) ------------------------ */

/* FRAME (of a *stopped record, -stack-list-frames or -stack-info-frame) as
 * GDB's frame line: "square (reqs=6) at habits.c:24", "MPI_Send () from
 * /x/libmpich.so.12". ARGS: its arguments ({name, value} tuples), NULL:
 * the frame's own. malloc'd (NULL: out of memory). */
char *con_frame_text(const struct mi_value *frame,
                     const struct mi_value *args);
/* Line LINE of source file PATH as GDB shows it, "24\t    int r = 0;",
 * into OUT; "" when it cannot be read. */
void con_source_line(const char *path, long line, char *out, size_t len);
/* K's place from a record with a frame (a *stopped, -stack-info-frame's
 * reply) into k->where. */
void con_where_set(struct con_rank *k, const struct mi_record *rec);
/* Rank K stopped (REC, GDB's *stopped record): keeps what its report
 * needs in k->stop. */
void con_stop_keep(struct con_rank *k, const struct mi_record *rec);
/* Before an execution command is sent to rank K: GDB's console stream is
 * kept from now until it stops (con_on_stream, its GDB's stream
 * callback: UD is K). */
void con_stop_begin(struct con_rank *k);
void con_on_stream(struct mi_gdb *g, const struct mi_record *rec, void *ud);
/* Once rank K stopped: the lines GDB prints after the stop (a
 * breakpoint's `commands`) kept too, the capture ended, GDB's breakpoint
 * numbers turned into the session's (before a temporary breakpoint that
 * fired leaves the table). */
void con_stop_end(struct con *c, struct con_rank *k);
/* Rank K stopped at a temporary breakpoint, or a watchpoint of its left
 * its scope (k->tbpt_hit): its GDB deleted it, and so is it for that rank
 * in the session (a re-run does not get it again). */
void con_stop_forget(struct con *c, struct con_rank *k);
/* TEXT, said by rank R's GDB, with its GDB's breakpoint numbers turned
 * into the session's ("Breakpoint 7, main ()" -> "Breakpoint 2, main
 * ()"; numbers not the session's stay). malloc'd, NULL: out of memory. */
char *con_renumber(const struct con *c, int r, const char *text);
/* K's last stop in GDB's words, as GDB printed it for the command that
 * stopped it ("Continuing.", "Breakpoint 1, f (n=3) at f.c:12", the
 * line, the values of a watchpoint, "Value returned is ..."), numbers
 * the session's (malloc'd); NULL when GDB said nothing (a stop drdb
 * caused: an event, an interrupt) or the rank is not stopped. */
char *con_stop_report(const struct con *c, const struct con_rank *k);

/* ---- the poll loop (con-loop.c) ------------------------------------------ */

/* Set by the SIGINT handler (sub-console.c), read and cleared by the loop:
 * con_wait() interrupts the running ranks. A global because a signal
 * handler can reach nothing else; sig_atomic_t because it is written
 * asynchronously. */
extern volatile sig_atomic_t con_sigint;

/* Drives every GDB until each rank of SET has no command pending and none
 * of them runs (or the session's timeout passes; those ranks then count as
 * failed). Prints program output as it arrives. 0, or -1 on timeout. */
int con_wait(struct con *c, const struct rankset *set, int want_stop);
/* Interactive idle: drives every GDB and prints program output until FD is
 * readable (1) or TIMEOUT_MS passes (0). Ranks that stopped meanwhile are
 * marked changed (con_print_stopped says where). */
int con_idle(struct con *c, int fd, int timeout_ms);
/* GDB's asynchronous records for rank UD (struct con_rank *): running,
 * stopped, exited. Given to mi_gdb_start() by con-rank.c. */
void con_on_async(struct mi_gdb *g, const struct mi_record *rec, void *ud);
/* The hosts' connections in the loop: host H's is gone, so each of its
 * ranks is lost ("connection to HOST lost"), its GDB ended; the others go
 * on. con_host_check: each host whose connection was found lost (by a
 * GDB's blocking call, or now, looking without waiting) loses its ranks.
 * con_host_pollfds: the entries of every working host's connection (at
 * most MAX, each OWNER tagged CON_HOST_OWNER(h)); con_host_process:
 * processing them. */
void con_host_lost(struct con *c, int h);
void con_host_check(struct con *c);
int con_host_pollfds(struct con *c, struct pollfd *fds, int *owner, int max);
void con_host_process(struct con *c, const struct pollfd *fds,
                      const int *owner, int n);
#define CON_HOST_OWNER(h) (INT32_MIN + 1 + (h))
/* Around output printed while the user may be typing. */
void con_out_begin(struct con *c);
void con_out_end(struct con *c);
/* What a replay's exit status means (" (end of its log)"), or "". */
const char *con_exit_meaning(int code);
/* The reply to an execution command (UD: its struct con_rank): when GDB
 * refused it, the rank did not run. */
void con_on_exec_reply(struct mi_gdb *g, const struct mi_reply *r, void *ud);

/* ---- the hosts of remote ranks (con-host.c) ------------------------------ */

/* Host H's connection, made again when it was lost: 0, or -1 (said). */
int con_host_ensure(struct con *c, int h);
/* Rank K's GDB started on its host, ready for setup_rank, in four steps
 * that con_replay takes for all the ranks it starts, each step over all
 * of them before the next: a host is sent every rank's SETUP, then every
 * GDB's START, before an answer is awaited (two round trips a host, not
 * two a rank; docs/architecture.md, "Remote replay nodes"). Each step: 0,
 * or -1 (said; nothing left to undo). */
struct launch_gdb;
struct remote_proc;
/* SETUP sent (the host connected again if it was lost): *TICKET. */
int con_host_setup(struct con *c, struct con_rank *k, unsigned *ticket);
/* Its answer: what the host made ready, into LG (to release). */
int con_host_prepared(struct con *c, struct con_rank *k, unsigned ticket,
                      struct launch_gdb *lg);
/* GDB's START sent (LG: the host's answer): *P. */
int con_host_launch(struct con *c, struct con_rank *k,
                    const struct launch_gdb *lg, struct remote_proc **p);
/* Its answer taken, and P driven as K's GDB (con_host_drive). */
int con_host_started(struct con *c, struct con_rank *k,
                     struct remote_proc *p);

/* Drives P, a GDB on rank K's host (started there, or adopted from a kept
 * session), as K's GDB (its descriptors are the driver's then): 0, or -1
 * (said; P freed). */
int con_host_drive(struct con *c, struct con_rank *k, struct remote_proc *p);

/* ---- a session kept on its hosts (con-keep.c) ---------------------------- */

/* The session note (malloc'd): the run spec, each host's session, the
 * focus, the sets, breakpoints and displays with their GDB numbers. */
char *con_keep_note(const struct con *c);
/* --keep KEEP_S for a run given as SPEC (the note's "run" and "opt"
 * lines): each host's session id said on OUT, the note sent; 0, or -1
 * (said: no host, a session not kept). */
int con_keep_start(struct con *c, int keep_s, const char *spec, FILE *out);
/* The note sent again to every host when it changed (after a command). */
void con_keep_update(struct con *c);
/* The session's normal end: the hosts' sessions end with it. */
void con_keep_end(struct con *c);
/* The run NOTE names: its directory into DIR and its parts into O
 * (fe_run_opt): 0, or -1 with ERR (not a note of this version). */
struct fe_run_opts;
int con_keep_note_run(const char *note, struct fe_run_opts *o, char *dir,
                      size_t dirlen, char *err, size_t errlen);
/* C opened from NOTE's run: its tables restored from NOTE, each host's
 * kept session attached (HOST's: ID, NULL: the note's; the others': the
 * note's), the GDBs labelled "rank N" driven as those ranks' (their state
 * asked of them, their breakpoints checked with -break-list); *ADOPTED:
 * how many. 0, or -1 (said). */
int con_keep_adopt(struct con *c, const char *note, const char *host,
                   const char *id, int *adopted);

/* ---- starting and ending ranks (con-rank.c) ------------------------------ */

/* Starts the replay of every rank of SET that is not running yet, under
 * GDB, and runs each to main. Progress on stderr for many ranks. 0, or -1
 * when a rank did not reach main. */
int con_replay(struct con *c, const struct rankset *set);
/* Puts every rank of SET that is not replayed in the session unstarted
 * (CON_DEFERRED): its GDB starts when a command needs it. */
void con_defer(struct con *c, const struct rankset *set);
/* drdb console starts its ranks lazily when they are more than this
 * (--start). */
#define CON_LAZY_ABOVE 64
/* Starts the ranks of SET not started yet (con_replay on them), saying
 * so: 0, or -1 when one did not reach main or Ctrl-C stopped the start
 * (the ranks not started stay unstarted). */
int con_start_deferred(struct con *c, const struct rankset *set);
/* Ends the replay of SET (kills the program and its GDB). */
void con_drop(struct con *c, const struct rankset *set);
/* Rank R has a process (started to main when it had none): 0 or -1. */
int con_rank_ensure(struct con *c, int r);
/* Sets action point B on rank R's GDB by GDB's own command (its GDB
 * number into b->gdbno[r]), then what the session's has on top of it
 * (disabled, ignore count, commands). 0, with GDB's words in *TEXT
 * ("Breakpoint 1 at 0x...: file f.c, line 66.", the session's number;
 * malloc'd; TEXT may be NULL); or -1 with GDB's error there. */
int con_bpt_insert(struct con *c, struct con_bpt *b, int r, char **text);
/* CLI on rank R's GDB: 0 with what GDB printed in *TEXT (malloc'd; TEXT
 * may be NULL), or -1 with what it printed, then its error. */
int con_cli_sync(struct con *c, int r, const char *cli, char **text);
/* B's commands (`commands N`) into rank R's GDB: 0, or -1. */
int con_bpt_commands(struct con *c, struct con_bpt *b, int r);
/* Every action point of the session that rank R's new GDB must have:
 * those of its set and those set on all ranks (R then joins their set).
 * A watchpoint the new GDB cannot set (its expression's block is not
 * entered yet) leaves rank R, as GDB deletes one whose block the program
 * left; what GDB refused, in its words, into *NOTE (malloc'd), else
 * NULL. */
void con_bpt_apply(struct con *c, int r, char **note);
/* Takes rank R off action point B (its GDB's deleted); B goes when it is
 * left on no rank: 1 then. */
int con_bpt_drop(struct con *c, struct con_bpt *b, int r);
/* Did rank R end abnormally (killed by a signal, a non-zero exit, a
 * stub's refusal, divergence or end of log, a lost GDB)? */
int con_rank_abnormal(const struct con_rank *k);

/* ---- the stub client (con-stub.c) ---------------------------------------- */

/* "-OP ARG" with ARG quoted (no ARG: "-OP"), malloc'd. */
char *con_mi_arg(const char *op, const char *arg);
/* GDB's CLI command CLI as an MI command (-interpreter-exec console),
 * malloc'd. */
char *con_mi_console(const char *cli);
/* An integer expression on rank R (0 and *ok = 0 when it fails). */
long long con_eval_int(struct con *c, int r, const char *expr, int *ok);
/* The event rank R stands at (con_position's N: the one it is before or
 * inside, the next when between events, the number of its events at the
 * end), or -1 when it has no position. */
long long con_current_event(struct con *c, int r);
/*
 * Where a rank stands in its log: the one definition that status, events
 * ("<= here"), stop lines, queues, graph and JSON use (docs/console.md,
 * "Where a rank stands").
 */
enum con_pos_kind {
    CON_POS_NONE,    /* running, lost or not replayed: nowhere to say */
    CON_POS_BEFORE,  /* before event N: at its MPI call, nothing of it
                      * done (goto's stop, a rank not started: event 0,
                      * a divergence at N) */
    CON_POS_INSIDE,  /* inside event N: stopped during its call (a
                      * watchpoint its outputs trigger, a signal, Ctrl-C,
                      * a callback of the program it runs) */
    CON_POS_BETWEEN, /* between events: those before N done, N not begun
                      * (a breakpoint, a step in the program's code) */
    CON_POS_END,     /* after its last event (N: how many): exited */
};
struct con_pos {
    enum con_pos_kind kind;
    uint64_t n;
};
/* Rank R's position into P (CON_POS_NONE when it has none): 0, or -1 when
 * its GDB did not answer. */
int con_position(struct con *c, int r, struct con_pos *p);
/* P in words into BUF: "before event 5 (MPI_Allreduce)", "inside event 5
 * (MPI_Allreduce)", "after event 4 (MPI_Send)", "before event 0", "at the
 * end (12 events)"; "" for none. */
const char *con_pos_text(struct con *c, int r, const struct con_pos *p,
                         char *buf, size_t len);
/* drdb_stop_event on rank R: stop before event N; con_stub_no_stop: none. */
void con_stub_stop_at(struct con *c, int r, uint64_t n);
void con_stub_no_stop(struct con *c, int r);
/* After a stop inside the stub: select the program's frame, say where. */
void con_select_user_frame(struct con *c, struct con_rank *k);
/* Rank K stopped where an execution command took it: when that is inside
 * the stub (or in a libc function the stub called: a watchpoint its
 * copy of a message triggers, a signal, Ctrl-C), the program's frame is
 * selected and GDB's report says so in the program's words: "Hardware
 * watchpoint 2: x / Old value = 0 / New value = 3 / written by the MPI
 * call of inside event 5 (MPI_Recv), called from main () at f.c:12". */
void con_stub_landing(struct con *c, struct con_rank *k);
/* Before execution command VERB (next, step, until, advance, finish,
 * stepi, nexti) on SET: each rank stopped in the stub first finishes the
 * MPI call it is in, into the program's frame, as GDB steps out of a
 * function without line information. Ranks the command is then done on
 * go into DONE (at a line's start for next, step and until; always for
 * stepi, nexti and finish, which finished the MPI call; a stop on the
 * way), their report kept. 0, or -1 on a timeout. */
int con_stub_leave(struct con *c, const struct rankset *set,
                   const char *verb, struct rankset *done);
/* Is frame FR (of -stack-list-frames) the stub's? STUBSRC: the stub's
 * source directory, from con_stub_source_dir() on the same stack. */
int con_stub_frame(const struct con *c, const char *stubsrc,
                   const struct mi_value *fr);
void con_stub_source_dir(const struct mi_value *stack, char *out,
                         size_t len);
/* Is frame FR the program's own: not the stub's, and with source lines or
 * in a library that is not the system's (a frame of libc's, called by
 * the stub to copy a message, is not)? */
int con_program_frame(const struct con *c, const char *stubsrc,
                      const struct mi_value *fr);
/* A diverged rank's report (drdb_divergence_msg), into its reason; a log
 * that ends there makes it CON_LOG_END. */
void con_stub_divergence(struct con_rank *k);
/* Once for a rank stopped in the stub's divergence hook: its report, its
 * state (diverged or end of log), the program's frame selected. */
void con_stub_failure(struct con *c, struct con_rank *k);
/* The NUL-terminated string at address expression ADDR of rank R (at most
 * MAX bytes; malloc'd, NULL when unreadable); writing one. */
char *con_stub_read_str(struct con *c, int r, const char *addr, size_t max);
int con_stub_write_str(struct con *c, int r, const char *addr,
                       const char *s);
/* Resumes rank R at SYMBOL ("name" or "*address") and waits for its
 * stop. */
void con_stub_jump(struct con *c, int r, const char *symbol);
/* Rank R's pc (frame 0), written to drdb_ckpt_pc where the trampolines
 * resume it: the pc, 0 when it fails. */
unsigned long long con_stub_resume_pc(struct con *c, int r);
/* A temporary breakpoint at PC: its number, or 0; deleting one if it is
 * still there. */
long con_stub_tbreak(struct con *c, int r, unsigned long long pc);
void con_stub_untbreak(struct con *c, int r, long n);

/* ---- checkpoints and shadows (con-ckpt.c) -------------------------------- */

/* One of a rank's checkpoints: in its process's memory, or a shadow's
 * file. */
struct con_ckpt {
    char id[32];        /* "3" in memory, "s3" a shadow's file */
    long num;
    long parent;
    long long event;    /* -1: unknown */
    double time;
    unsigned long long pages, bytes;
    int external;       /* taken by `checkpoint` (through the debugger) */
    int at_event;
    unsigned long long pc; /* where a debugger's checkpoint resumes */
    char path[8400];
};
/* Rank K's checkpoint state (k->ck), made when it has none: NULL out of
 * memory. */
struct con_ckpt_rank *con_ckpt_state(struct con_rank *k);
/* Rank R's checkpoints by event, the live process's and its shadow's
 * (*OUT malloc'd): their number. */
int con_ckpt_list(struct con *c, int r, struct con_ckpt **out);
/* Rank R's process (its GDB's inferior, on its host for a remote rank):
 * its pid, 0 when not known. A re-run makes another one: its checkpoints
 * are not the ones the process before had. */
pid_t con_inferior_pid(struct con *c, int r);
/* Checkpoints rank R where it stands: the id, or -1 (reported). */
long con_ckpt_take(struct con *c, int r);
/* Forgets rank R's checkpoints ID and later (a larger id: those taken
 * since ID), the rank left where it stands: 0, or -1 (said, unless the
 * rank has no live process). */
int con_ckpt_forget_since(struct con *c, int r, long id);
/* Rolls rank R to checkpoint ID ("3" or "s3"; KNOWN: its listing, when the
 * caller has it). 0, or -1 (reported; the rank stays where it was when the
 * library refused). */
int con_ckpt_roll(struct con *c, int r, const char *id,
                  const struct con_ckpt *known);
/* Where rank R stands, as a checkpoint taken there or rolled back to is
 * said: "before event 5", "after event 4" (between two calls), "inside
 * event 5", into BUF. */
const char *con_ckpt_at(struct con *c, int r, char *buf, size_t len);
/* For goto: rolls rank R to its checkpoint nearest before TARGET when that
 * is later than CUR (-1: the rank cannot go forward from where it is),
 * saying so unless QUIET. 1 when it rolled, 0 when no checkpoint helps, -1
 * on failure. */
int con_ckpt_nearest(struct con *c, int r, uint64_t target, long long cur,
                     int quiet);
/* A rank with checkpoints stops before it exits (exit_group). */
void con_ckpt_keep_at_exit(struct con *c, int r);
/* `set checkpoint-interval SECONDS|off` / `set checkpoint-every N|off`. */
int con_ckpt_set(struct con *c, const char *what, const char *val);
/* Starts rank R's shadow; ends the shadows of SET; waits for them. */
int con_shadow_start(struct con *c, int r);
void con_shadow_stop(struct con *c, const struct rankset *set);
/* Ends rank R's shadow (on its host, through its agent, for a remote
 * rank); CLEAR: its files go too. */
void con_shadow_end(struct con *c, int r, int clear);
int con_shadow_wait(struct con *c, const struct rankset *set);
/* The shadow line of `status` ("" when the rank has none). */
void con_shadow_status(struct con *c, int r, char *buf, size_t len);

/* ---- merged output (con-merge.c) ----------------------------------------- */

/* LEN bytes at S as a JSON string, every byte kept (term_json); bytes
 * that are not UTF-8 are said once a session on stderr. */
void con_json_str(struct con *c, FILE *f, const char *s, size_t len);
/* LEN bytes at S from the run (program output, GDB's text, names from
 * logs) on stdout: as they are under --json (its capture keeps them),
 * else through the terminal filter (util/term-escape.h), colours only
 * with `set output-color on` on a terminal. */
void con_put_text(struct con *c, const char *s, size_t len);
/* --json (batch): from now on stdout carries JSON lines only. What the
 * session prints on stdout is captured: during a command it becomes that
 * command's results ({"text": LINE}), between commands {"output": LINE}
 * lines. 0, or -1 (reported). */
int con_json_open(struct con *c);
/* Writes out what is still captured, gives stdout back. */
void con_json_close(struct con *c);
/* Around a command (con_execute): starts collecting its results; ends it
 * and prints its object: {"command", "ranks", "ok", "results"}. The
 * commands a command runs (`source FILE`) add to its results. */
void con_json_begin(struct con *c);
void con_json_end(struct con *c, const char *line, const struct rankset *set,
                  int rc);
/* The separator before the next object of the command's results ("" for
 * the first): con_json_sep(c) then the object, on c->json_f. */
void con_json_sep(struct con *c);
/* One row of a table: in --json mode the object of the N KEYS and VALS
 * (a key starting with '#' is a number: "#rank" gives "rank": 3) into the
 * command's results; else LINE printed on stdout. */
void con_table_row(struct con *c, int n, const char *const *keys,
                   const char *const *vals, const char *line);
/* Prints ANSWERS grouped by identical text, largest group first:
 * "[0-6,8] x = 5" (into the command's JSON results in --json mode), and
 * keeps them for `expand`. */
void con_print_merged(struct con *c, struct con_answer *answers, int n);
/* Turns rank R's reply into its answer (malloc'd); ARG is the caller's. */
typedef char *con_formatter(const struct mi_reply *r, const char *arg);
/* Sends the MI command MI to every rank of SET, waits for all the replies,
 * prints them merged (FMT NULL: only errors). 0, or -1 when a rank
 * failed. */
int con_run_merged(struct con *c, const struct rankset *set, const char *mi,
                   con_formatter *fmt, const char *arg);
/* The GDB CLI command CLI on every rank of SET, its output merged in
 * GDB's words: what GDB printed, and its errors as GDB says them (no
 * "error: "), breakpoint numbers the session's. 0, or -1 when it failed
 * on a rank. */
int con_passthrough(struct con *c, const struct rankset *set,
                    const char *cli);
/* Each rank of SET's state, merged: its last stop in GDB's words when it
 * has a report (con_stop_report), else where it stands and why; then the
 * displays of its stopped ranks. */
void con_print_where(struct con *c, const struct rankset *set);
/* The ranks that stopped in the background ("continue &") since this was
 * last asked, merged as con_print_where; nothing when none did. */
void con_print_stopped(struct con *c);
/* The displays of the stopped ranks of SET ("1: x = 5"), merged; only
 * number ONLY when it is > 0. 0, or -1 when one failed on a rank. */
int con_display_show(struct con *c, const struct rankset *set, int only);

/* ---- running ranks to events (con-goto.c) -------------------------------- */

/* Runs each rank of SET to just before its event TARGET[rank] (nranks
 * long): forward through the stub's stop-at-event hook, backward from the
 * nearest checkpoint, else by re-running the rank from the start of its
 * log (replay is deterministic). A user breakpoint on the way stops a
 * rank there, as GDB's `advance`; Ctrl-C stops them all. Then prints where
 * each one stands, unless QUIET (which also keeps the rollbacks and
 * re-runs unsaid). 0, or -1 when a target is not in a rank's log or a
 * rank failed (reported). */
int con_goto(struct con *c, const struct rankset *set,
             const uint64_t *target, int quiet);
/* As con_goto, where a target may also be a rank's event count: the end of
 * its log, where the rank stops in the call the recorded rank never
 * returned from (the stub's stop hook there, before it says the log
 * ends): a hung rank's site in a finding (`goto finding K`). */
int con_goto_or_end(struct con *c, const struct rankset *set,
                    const uint64_t *target, int quiet);

/* ---- command arguments (con-args.c) -------------------------------------- */

/* A command's arguments, parsed by the dispatcher from the command's
 * template before its handler runs. */
struct con_args {
    const struct con_cmd *cmd;
    struct rankset set;  /* its ranks: the line's @SET, else the focus */
    int given;           /* the line named its @SET */
    const char *text;    /* the rest (no options, @SET or '&'), trimmed */
    int bg;              /* a trailing '&': run in the background */
    char *opts[8];       /* the template's options in order: a value, ""
                            for a flag given, NULL when not given */
    char *buf;           /* storage for text and opts */
    char **argv;         /* con_args_opts's words, and their storage */
    int argc;
    char *words;
};
/* Parses TEXT for CMD (template cmd->args) into A, SET the ranks the line
 * targets: 0, or -1 after an error on stderr (A is then released). */
int con_args_parse(struct con *c, const struct con_cmd *cmd,
                   const struct rankset *set, const char *text,
                   struct con_args *a);
void con_args_release(struct con_args *a);
/* The value of option NAME ("--from") of the template, or NULL. */
const char *con_args_opt(const struct con_args *a, const char *name);
/* A's text split into words as a shell would ("{...}" one word) and
 * parsed by TABLE (fe_opts_parse: its options into DST, up to NPOS other
 * words into POS, valid while A is): 0, or -1 after an error message. */
struct fe_opt;
struct fe_pos;
int con_args_opts(struct con_args *a, const struct fe_opt *table, void *dst,
                  int npos, struct fe_pos *pos);
/* The first word of A's text into WORD (cut at LEN); the rest after it,
 * trimmed, in *REST. */
void con_args_word(const struct con_args *a, char *word, size_t len,
                   const char **rest);
/* An event: "R:N", or "N" when A's set is one rank. 0, or -1 after an
 * error naming TEXT. */
int con_args_event(struct con *c, const struct con_args *a, const char *text,
                   int *rank, uint64_t *n);
/* A rank set given as an argument ("replay @4-7", "drop 3") into OUT
 * (initialized here), A's set when TEXT is empty. -1 after an error
 * (reported). */
int con_args_set(struct con *c, const struct con_args *a, const char *text,
                 struct rankset *out);
/* Starts SET's ranks not started yet (unless FLAGS has CON_LAZY_OK), then
 * takes out of SET the ranks a command with FLAGS (CON_NEEDS_RANKS,
 * CON_NEEDS_STOPPED) cannot run on, saying which: 0, or -1 when none is
 * left ("'NAME': no rank to run it on") or Ctrl-C stopped the start. */
int con_runnable(struct con *c, struct rankset *set, int flags,
                 const char *name);
/* Events: what con_args_event reads (one) or a "{SELECT rank, seq ...}"
 * query (con_query_events): their ranks into RANKS (initialized here,
 * released by the caller after a 0), each one's event into EV (nranks
 * long). 0, or -1 after an error (reported). */
int con_args_events(struct con *c, const struct con_args *a, const char *text,
                    struct rankset *ranks, uint64_t *ev);

/* ---- GDB by default (con-gdb.c) ----------------------------------------- */

/* The GDB command WORD (LEN bytes) names, by GDB's rule (a name or alias,
 * else a unique prefix of one), as its canonical name; NULL when GDB has
 * none (*AMBIGUOUS: several). GDB's commands are asked of a rank of SET
 * (else any started rank) the first time. */
const char *con_gdb_resolve(struct con *c, const struct rankset *set,
                            const char *word, size_t len, int *ambiguous);
/* GDB's command whose name or alias is NAME exactly (its canonical
 * name), or NULL. */
const char *con_gdb_exact(struct con *c, const char *name);
/* GDB's I-th command (its canonical name), NULL past the last or when no
 * started rank's GDB can be asked (none is started for it). */
const char *con_gdb_name(struct con *c, int i);
/* The GDB commands WORD is a prefix of that the console does not define,
 * each " NAME" to OUT (an ambiguity's list). */
void con_gdb_candidates(const struct con *c, const char *word, size_t len,
                        FILE *out);
/* A GDB command (canonical name CANON) the console catches: the console
 * command that gives it its drdb meaning, or NULL with *WHY the reason it
 * is refused (*WHY NULL too: not caught). */
const char *con_gdb_caught(const char *canon, const char **why);
/* Why `set WORD` is refused (a setting drdb owns, or one that would break
 * the session), or NULL. */
const char *con_gdb_caught_set(const char *word, size_t len);
/* Keeps GDB setting CLI ("set print pretty on") for every GDB the session
 * starts from now on (a later one of the same setting replaces it). */
void con_gdb_keep_set(struct con *c, const char *cli);
void con_gdb_release(struct con *c);

/* ---- commands (cmd-*.c, con-cmd.c) --------------------------------------- */

struct con_cmd {
    const char *name;
    const char *alias;   /* NULL, or its aliases separated by spaces */
    const char *usage;
    const char *summary;
    unsigned flags;      /* CON_NEEDS_* preconditions */
    /* Its arguments, parsed by con_args_parse once the dispatcher took
     * the line's @SET out (con_execute): space-separated, "&" an optional
     * trailing '&', "--name" a flag and "--name=" an option with a value
     * (as the next word or after '='), "." no other words (any is an
     * error). NULL or "": the text as typed. */
    const char *args;
    int (*run)(struct con *c, struct con_args *a);
    /* Its options as a table (args.h), listed by its help; its handler
     * parses them (con_args_opts). NULL: none, or in ARGS. */
    const struct fe_opt *opts;
};
enum {
    CON_NEEDS_RANKS = 1u << 0,   /* targets replayed ranks */
    CON_NEEDS_STOPPED = 1u << 1, /* each targeted rank must be stopped */
    CON_SET_ARG = 1u << 2,       /* takes a rank set as its argument
                                  * (focus @1): @SET words after its name
                                  * are its text */
    CON_LAZY_OK = 1u << 3,       /* with CON_NEEDS_RANKS: ranks not
                                  * started yet (CON_DEFERRED) stay in its
                                  * set unstarted; it starts those it
                                  * needs itself */
};

/* K's usage line, its "[OPTIONS]" spelled out from its table (into BUF,
 * cut at LEN). */
const char *con_cmd_usage(const struct con_cmd *k, char *buf, size_t len);

/* Each family's table entries, ended by an entry with a NULL name. */
extern const struct con_cmd con_cmds_exec[];    /* cmd-exec.c */
extern const struct con_cmd con_cmds_events[];  /* cmd-events.c */
extern const struct con_cmd con_cmds_break[];   /* cmd-break.c */
extern const struct con_cmd con_cmds_data[];    /* cmd-data.c */
extern const struct con_cmd con_cmds_session[]; /* cmd-session.c */
extern const struct con_cmd con_cmds_ckpt[];    /* cmd-ckpt.c */
extern const struct con_cmd con_cmds_bisect[];  /* cmd-bisect.c */
extern const struct con_cmd con_cmds_flow[];    /* con-flow.c */
extern const struct con_cmd con_cmds_user[];    /* con-flow-user.c */
extern const struct con_cmd con_cmds_graph[];   /* cmd-graph.c */
extern const struct con_cmd con_cmds_check[];   /* cmd-check.c */

/* The checks (cmd-check.c): `goto finding K` with TEXT "K", moving the
 * ranks of SET among the finding's (0, or -1 after an error); `info
 * findings`, those involving a rank of ONLY when not NULL (0); freeing
 * c->check. */
int con_check_goto(struct con *c, const char *text,
                   const struct rankset *set);
int con_check_info(struct con *c, const struct rankset *only);
void con_check_free(struct con *c);

/* The one table, in its order (alphabetical, a name's '-' forms first):
 * the first command for PREV NULL, the one after PREV, NULL after the
 * last. */
const struct con_cmd *con_cmd_next(const struct con_cmd *prev);
/* The console's command named NAME, its alias or a unique prefix of
 * it; NULL otherwise. */
const struct con_cmd *con_cmd_lookup(const char *name, size_t len);
/* What a command's name means. */
enum con_means {
    CON_MEANS_CONSOLE,   /* the console's command (a GDB command it gives
                          * a drdb meaning to too) */
    CON_MEANS_GDB,       /* GDB's, run on the ranks' GDBs */
    CON_MEANS_REFUSED,   /* GDB's, refused in a session */
    CON_MEANS_AMBIGUOUS, /* a prefix of several */
    CON_MEANS_UNKNOWN,
};
/* The command NAME (LEN bytes) names, by GDB's rule over the console's
 * commands and GDB's together: a user command; a name or alias of the
 * console's, else of GDB's (p is GDB's print, not a prefix of
 * prev-event); else a unique prefix of both sets, a GDB command the
 * console gives a meaning to counting as that command. GDB's commands are
 * asked of a started GDB (none started: only the console's are known).
 * The console's command (for CON_MEANS_GDB, the one that passes GDB's
 * through), or NULL; *MEANS says which; *CANON: GDB's command's
 * canonical name, *WHY: why it is refused. Says nothing. */
const struct con_cmd *con_cmd_meaning(struct con *c, const char *name,
                                      size_t len, int *means,
                                      const char **canon, const char **why);
/* Is NAME (LEN bytes) one of K's aliases? */
int con_cmd_is_alias(const struct con_cmd *k, const char *name, size_t len);
/* The table as docs/commands.md (Markdown) on OUT. */
void con_cmds_markdown(FILE *out);
/* Runs one command line. Its rank set, for every command: a word starting
 * with '@' before the command's name, as its first argument or as the
 * line's last word (before a trailing '&'); the focus when there is none;
 * a bad set or two sets are an error. 0, or -1 when it failed. */
int con_execute(struct con *c, const char *line);
/* Runs the commands of FILE ("-": stdin), echoing each; stops at the first
 * that fails (-1), unless keep_going. */
int con_source(struct con *c, const char *file);

/* Control flow (con-flow*.c, docs/console.md "Control flow"). The command
 * a line names before the table's: a user command (`define`), or `end`
 * and `else` out of a block (an error); NULL for none. */
const struct con_cmd *con_flow_cmd(struct con *c, const char *name,
                                   size_t len);
/* The name of user command I (in the order they were defined), NULL past
 * the last. */
const char *con_flow_user_name(struct con *c, size_t i);
/* `help`'s list of the user commands (nothing when there are none). */
void con_flow_help(struct con *c);
/* Frees the user commands. */
void con_flow_release(struct con *c);

/* Breakpoints (cmd-break.c): `info breakpoints` (WATCH: `info
 * watchpoints`) in GDB's table, the session's numbers; `info display`;
 * `delete display`, `enable display`, `disable display` (LIST: the
 * display numbers, "" all). */
void con_bpt_info(struct con *c, const struct rankset *only, int watch);
void con_display_info(struct con *c, const struct rankset *only);
struct con_args;
int con_display_delete(struct con *c, struct con_args *a, const char *list);
int con_display_enable(struct con *c, struct con_args *a, const char *list,
                       int on);

#endif
