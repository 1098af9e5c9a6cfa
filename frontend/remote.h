/*
 * remote.h - the client of a `drdb agent` (docs/remote.md): a host where
 * processes start from launcher descriptions (launch.h) and whose run
 * files are read by range; what `drdb replay --host`, `drdb log
 * HOST:RUNDIR` and the console's remote ranks (con-host.c) use.
 *
 * remote_connect() starts the agent, over ssh for a host (one connection
 * per host; ssh -T -o BatchMode=yes [-o OPT...] -- HOST 'DRDB' agent: a
 * fixed argv, no local shell, the remote command's one word quoted by
 * remote_quote()), or with launcher "srun" as one step of the Slurm
 * allocation drdb runs in, on node HOST (srun --nodes=1 --ntasks=1
 * --nodelist=HOST --overlap ... -- DRDB agent: srun executes it there, no
 * shell, nothing quoted), or as a local child for NULL or "localhost"
 * (the same code path, whatever the launcher), and checks HELLO both
 * ways. Each remote process's streams
 * then appear here as local file descriptors (one socket per stream), so
 * code written for a local process's pipes (mi/'s GDB driver, through
 * mi_gdb_attach) works on a remote one; the client relays them while the
 * owner calls
 * remote_process() from its poll loop (remote_pollfds()) or a blocking
 * call (remote_start, remote_read) pumps. Closing the
 * connection (remote_close, or losing it) ends everything the agent
 * started.
 *
 * For the console: GDB started with LAUNCH_TTY gets pipes (in, out, err)
 * and a terminal on the host for its program: -inferior-tty-set with
 * tty_name, the program's output on the tty descriptor.
 *
 * remote_connect() ignores SIGPIPE when it has its default action: a
 * connection or a caller's end that goes away is an error, not a signal.
 *
 * Errors: -1 with one line in ERR (or remote_error()) that names the host
 * and says what to do.
 */
#ifndef DRDB_REMOTE_H
#define DRDB_REMOTE_H

#include <poll.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct launch_desc;
struct wire_buf;

struct remote_opts {
    const char *host;          /* NULL or "localhost": a local agent */
    const char *drdb;          /* the drdb to run there (NULL: "drdb" on
                                  the host's PATH; for a local agent,
                                  this drdb) */
    const char *const *ssh_opts; /* each passed as -o OPT (ssh only) */
    int nssh_opts;
    int keep_s;                /* > 0: the agent keeps its processes this
                                  many seconds after the connection ends
                                  (remote_keep; "Keeping a session") */
    const char *launcher;      /* NULL or "ssh"; "srun": a step of the
                                  current Slurm allocation on node HOST */
};

struct remote;

/* A process started through the agent. The descriptors are this side's
 * ends, blocking, close-on-exec, owned by the caller after remote_start()
 * (-1: none): write IN (shutdown(SHUT_WR) or close: end of input), read
 * OUT and ERR (end of stream when the process's ends), TTY both ways. */
struct remote_proc {
    struct remote *r;
    unsigned ch;
    pid_t pid;            /* on the host */
    int in, out, err, tty;
    char tty_name[64];    /* the terminal's slave on the host (LAUNCH_TTY) */
    int exited, status;   /* once exited: the wait status */
    int fd[4];            /* the client's ends (internal) */
    struct wire_buf *q;   /* their queues (internal) */
    unsigned eof;         /* streams whose end arrived (internal) */
    char *label;          /* remote_label's, or LIST's (remote_attach) */
};

/* Whether HOST may be given to ssh: not empty, no leading '-', no
 * whitespace or control character. */
int remote_host_ok(const char *host);
/* WORD quoted for a POSIX shell (single quotes; ' as '\''), appended to B:
 * the shell turns it back into WORD whatever it holds. */
void remote_quote(struct wire_buf *b, const char *word);
/* The argv that starts the agent for O (malloc'd, NULL-terminated; the
 * strings are O's or allocated with it: free with remote_argv_free), or
 * NULL with the reason in ERR. */
char **remote_argv(const struct remote_opts *o, char *err, size_t errlen);
void remote_argv_free(char **argv);
/* The nodes of the Slurm allocation drdb runs in (SLURM_JOB_NODELIST as
 * `scontrol show hostnames` expands it; a fixed argv): their number and
 * *OUT (NULL-terminated, free with remote_argv_free), or -1 with ERR (not
 * inside an allocation, scontrol failed). */
int remote_alloc_hosts(char ***out, char *err, size_t errlen);

int remote_connect(struct remote **out, const struct remote_opts *o,
                   char *err, size_t errlen);
/* remote_connect() in two steps, so that the handshakes with several
 * hosts overlap: remote_connect_start() starts the agent (ssh, srun) and
 * sends HELLO: 0 with *OUT, or -1 with ERR; then the caller pumps
 * (remote_wait) until remote_connected(*OUT) is not 0: 1 connected (a
 * kept session's limit set), -1 failed with ERR (remote_close it). */
int remote_connect_start(struct remote **out, const struct remote_opts *o,
                         char *err, size_t errlen);
int remote_connected(struct remote *r, char *err, size_t errlen);
/* One round of the poll loop over connections RS (N of them; NULL and
 * lost ones skipped): waits up to TIMEOUT ms (-1: forever) for any of
 * them, then remote_process() for each. 0, or -1 (poll failed, out of
 * memory: errno) without doing anything; a connection lost meanwhile is
 * that connection's (remote_lost). */
int remote_wait(struct remote *const *rs, int n, int timeout);
/* The host as given ("localhost" for a local agent). */
const char *remote_host(const struct remote *r);
/* Why the connection failed or was lost ("" while it works). */
const char *remote_error(const struct remote *r);
/* A new connection to R's host (O: as remote_connect's) in place of R's
 * lost one, after its processes were freed: what R's logs read (the
 * elided bytes of remote_log_open) comes from the new agent. 0, or -1
 * with ERR (R unchanged). */
int remote_reconnect(struct remote *r, const struct remote_opts *o,
                     char *err, size_t errlen);
/* Ends the connection: the agent ends all it started (a kept session: it
 * keeps them, "keeping a session" below); waits for ssh. */
void remote_close(struct remote *r);

/* Starts D on the host: 0 and *OUT (free with remote_proc_free after it
 * exited or to abandon it: the agent kills it), or -1 (the agent's
 * refusal: the trust check, a program that cannot run). */
int remote_start(struct remote *r, const struct launch_desc *d,
                 struct remote_proc **out, char *err, size_t errlen);
/* remote_start() in two halves, to pipeline (docs/architecture.md,
 * "Remote replay nodes"): remote_start_send() queues the START and gives
 * *OUT at once (its streams usable: what is written waits for the
 * process), remote_start_take() waits for the answer (P's pid and
 * tty_name) and on a refusal frees P. Starts sent before any is taken
 * cost the connection one round trip, not one each; the agent answers
 * them in the order sent. 0, or -1 with ERR. */
int remote_start_send(struct remote *r, const struct launch_desc *d,
                      struct remote_proc **out, char *err, size_t errlen);
int remote_start_take(struct remote_proc *p, char *err, size_t errlen);
/* Sends signal SIG to the process's group on the host. */
int remote_signal(struct remote_proc *p, int sig);
/* 1 once P exited and its OUT and ERR ends were passed on (the caller
 * reads them to their end), else 0. */
int remote_proc_done(const struct remote_proc *p);
void remote_proc_free(struct remote_proc *p);

/* Reads LEN bytes (<= WIRE_MAX_READ) at OFF of file NAME (no '/') of run
 * directory DIR on the host into BUF: the bytes read (fewer at the end),
 * or -1. */
long remote_read(struct remote *r, const char *dir, const char *name,
                 uint64_t off, void *buf, size_t len, char *err,
                 size_t errlen);

/* Rank RANK's log in run DIR on the host, as a copy without its message
 * data (wire.h's INDEX; log-strip.h), opened into LR (log_rank_open_mem,
 * stop_reason the host's): the event index is built from it with no
 * message byte sent, and a reader that reads an elided field gets its
 * bytes from the host then (READs of the log by offset; R must outlive
 * LR). 0, or -1 with ERR. */
struct log_rank;
int remote_log_open(struct remote *r, const char *dir, int rank,
                    struct log_rank *lr, char *err, size_t errlen);
/* remote_log_open() of many ranks at once, on one host or several, so
 * that the hosts strip and send their copies while this side takes those
 * that arrived (docs/architecture.md, "Remote replay nodes"):
 * remote_index_ask() sends the INDEX request and returns: the request (to
 * take or free, before remote_close(R), which frees those left), or NULL
 * with ERR. The caller pumps (remote_wait, or remote_pollfds and
 * remote_process) until remote_index_ready() (answered, or the
 * connection lost); remote_index_take() then opens the copy into LR as
 * remote_log_open() does and frees Q: 0, or -1 with ERR (the host's
 * refusal, the lost connection). An agent answers in the order asked. */
struct remote_index;
struct remote_index *remote_index_ask(struct remote *r, const char *dir,
                                      int rank, char *err, size_t errlen);
int remote_index_ready(const struct remote_index *q);
int remote_index_take(struct remote_index *q, struct log_rank *lr,
                      char *err, size_t errlen);
void remote_index_free(struct remote_index *q);
/* Run directory DIR on the host described into RUN as log_run_open()
 * does there (world size, the ranks with logs, drdb.run's text; run->dir
 * is "HOST:DIR"): 0, or -1 with ERR. */
struct log_run;
int remote_run_open(struct remote *r, const char *dir, struct log_run *run,
                    char *err, size_t errlen);
/* Rank RANK of run DIR made ready on the host to replay under GDB there
 * (launch_gdb_prepare run by the agent; IN_PLACE: no replay-out
 * directory), in two halves as remote_start_send/take: the SETUP queued,
 * its ticket in *TICKET (0, or -1 with ERR when the connection is lost);
 * then its answer into G (to release): 0, or -1 with ERR (the host's
 * reason). Every ticket is taken once. */
struct launch_gdb;
int remote_setup_send(struct remote *r, const char *dir, int rank,
                      int in_place, unsigned *ticket, char *err,
                      size_t errlen);
int remote_setup_take(struct remote *r, unsigned ticket,
                      struct launch_gdb *g, char *err, size_t errlen);
/* ---- shadows (wire.h's SHADOW; docs/remote.md) ------------------------
 *
 * A shadow of replay PID on the host (GDB's inferior there: a descendant
 * of a process the agent started, else the agent refuses), made there as
 * a local one (launch_shadow_of(): RUNDIR the host's run directory, NULL
 * in place; RANK; INTERVAL, EVERY), in a directory of the agent's
 * (launch_shadow_dir(), removed when the agent ends): 0 with its *ID and
 * DIR (the host's path of its checkpoint files), or -1 with ERR. */
int remote_shadow_start(struct remote *r, pid_t pid, const char *rundir,
                        int rank, double interval, unsigned long long every,
                        pid_t *id, char *dir, size_t dirlen, char *err,
                        size_t errlen);
/* 1 once shadow ID ended (its wait status in *ST), 0 while it runs, -1
 * with ERR. */
int remote_shadow_poll(struct remote *r, pid_t id, int *st, char *err,
                       size_t errlen);
/* Ends shadow ID; CLEAR: removes its files too (ID is then unknown). 0,
 * or -1 with ERR. */
int remote_shadow_stop(struct remote *r, pid_t id, int clear, char *err,
                       size_t errlen);
/* Shadow ID's checkpoint files (launch.h's launch_shadow_files() there):
 * their number and *OUT (malloc'd), or -1 with ERR. */
struct launch_shadow_file;
int remote_shadow_list(struct remote *r, pid_t id,
                       struct launch_shadow_file **out, char *err,
                       size_t errlen);

/* Whether the connection was lost (remote_error() says why). */
int remote_lost(const struct remote *r);
/* The bytes of logs read for elided fields so far (remote_log_open). */
uint64_t remote_fetched(const struct remote *r);
/* The bytes of log copies received so far (remote_log_open), in *OF
 * (may be NULL) the bytes of the logs they stand for, and in *DATA (may
 * be NULL) the bytes of message data the copies held, as the host
 * counted them (0: every data field elided). */
uint64_t remote_copied(const struct remote *r, uint64_t *of,
                       uint64_t *data);
/* The bytes received on the connection so far: frames, headers and all,
 * as the agent (ssh, srun) delivered them. */
uint64_t remote_wire_bytes(const struct remote *r);

/* ---- keeping a session (docs/remote.md, "Keeping a session") ---------
 *
 * With o->keep_s > 0, remote_connect() starts `drdb agent --keep S` and
 * the session has an id (remote_session(), to print for `drdb attach
 * HOST ID`): when the connection ends (lost, or remote_close()), the
 * processes on the host go on, their output held there (up to 4 MiB,
 * WIRE_HIGH_WATER, then they wait in their writes: nothing is dropped),
 * for S seconds with nobody attached; then they end as without keeping.
 * What was in flight when the connection broke is lost with it. */

/* Sets the time limit (0: everything ends with the connection again) and
 * the session note (NULL: ""; opaque, at most WIRE_MAX_NOTE = 64 KiB:
 * what the client needs to rebuild its state, e.g. the run directory and
 * the breakpoints; set it again when that changes): 0, or -1 with ERR (an
 * agent started without keep_s refuses). */
int remote_keep(struct remote *r, int keep_s, const char *note, char *err,
                size_t errlen);
/* The kept session's id ("" when not kept). */
const char *remote_session(const struct remote *r);
/* Gives P a label (opaque, at most 256 bytes: "rank 3"), listed to who
 * attaches. Sent without an answer: a request answered after it (e.g.
 * remote_keep() with the note) says the agent has it. */
int remote_label(struct remote_proc *p, const char *label);
/* The ids of this user's kept sessions on R's host (a connection made
 * without keep_s is fine): 0 with *IDS (N of them; free each and the
 * array), or -1 with ERR. */
int remote_sessions(struct remote *r, char ***ids, size_t *n, char *err,
                    size_t errlen);

/* THE ADOPTION CONTRACT for the console. remote_attach() connects to kept
 * session ID on O's host (NULL: the only one there; `ssh HOST drdb agent
 * --attach ID`, or a local child for localhost), checks HELLO as
 * remote_connect() does, and gives the session's processes as they are
 * now: *PROCS (N of them, the array malloc'd: free it, not the processes,
 * which are R's as remote_start()'s are), each with its channel, its pid
 * on the host, its label, its terminal name, fresh local descriptors for
 * its streams (in, out, err unless it was started with LAUNCH_PTY, tty
 * with LAUNCH_TTY), and exited/status when it ended meanwhile; *NOTE the
 * session's note (malloc'd). Then what each process wrote since the
 * connection before ended arrives on its descriptors, before anything it
 * writes next, and the EXITs of those that ended, as for a process
 * remote_start() started. The console rebuilds a rank from its label and
 * the note (run directory, breakpoints): its GDB waits at its prompt
 * where it was (a GDB that was running its program goes on running, and
 * its program's output is held as any other). The session stays kept
 * (remote_keep() with 0 to end it with this connection). 0, or -1 with
 * ERR naming the host (no such session, attached elsewhere, versions). */
int remote_attach(struct remote **out, const struct remote_opts *o,
                  const char *id, struct remote_proc ***procs, size_t *n,
                  char **note, char *err, size_t errlen);

/* As remote_attach(), but the processes' output stays held for the next
 * remote_attach() (nothing arrives on their descriptors; their EXITs are
 * not told): to list a session (`drdb attach --list`) and to end it
 * (remote_keep() with 0, then remote_close()). */
int remote_peek(struct remote **out, const struct remote_opts *o,
                const char *id, struct remote_proc ***procs, size_t *n,
                char **note, char *err, size_t errlen);

/* The poll loop: up to MAX entries to poll for R (REMOTE_MAX_POLLFDS per
 * process and 3 more), then remote_process() with them after poll:
 * 0, or -1 once the connection is lost (remote_error()). Timeout:
 * remote_timeout() ms (-1: none). */
#define REMOTE_MAX_POLLFDS(nprocs) (3 + 4 * (nprocs))
int remote_pollfds(struct remote *r, struct pollfd *fds, int max);
int remote_process(struct remote *r, const struct pollfd *fds, int n);

#endif
