/*
 * mi.h - GDB/MI for drdb: output parser, command builder, GDB process driver.
 *
 * libc only. Three layers, usable separately:
 *
 *   1. Parser. Bytes from GDB (in chunks of any size) go into a
 *      `struct mi_parser`; complete lines come out as `struct mi_record`s: a
 *      record kind, an optional token, a class ("done", "stopped", ...) and a
 *      tree of values (strings, tuples, lists; see `struct mi_value`). Strings
 *      are fully unescaped. A line that is not GDB/MI becomes a record of kind
 *      MI_RECORD_INVALID carrying the error code and byte offset; the parser
 *      never crashes and never buffers more than `max_line` bytes of one line.
 *
 *   2. Command builder (`struct mi_cmd`): an MI command line with every
 *      argument quoted as an MI C string, so no value can break the command.
 *
 *   3. Driver (`struct mi_gdb`): one GDB process (local, or any argv such as
 *      `ssh host gdb ...`; or one started elsewhere, given as descriptors
 *      and callbacks: mi_gdb_attach), non-blocking, for a poll loop over many GDBs, plus
 *      blocking helpers for simple callers. Replies are matched by token;
 *      async and stream records go to callbacks; a GDB that exits, crashes or
 *      misses a deadline fails its pending commands with an error code.
 *
 * Errors: functions return 0 (or a count) or a negative MI_E* code; the
 * message for a code is mi_strerror(code). Ownership is stated per function.
 * No global state: everything lives in the structs below. The driver never
 * installs signal handlers; it writes to GDB through a socket with
 * MSG_NOSIGNAL so a dead GDB cannot raise SIGPIPE in the caller.
 */
#ifndef DRDB_MI_H
#define DRDB_MI_H

#include <poll.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* ---------------------------------------------------------------- errors */

#define MI_ERRNO_MAP(X)                                                      \
    X(NOMEM, -1, "out of memory")                                            \
    X(SYNTAX, -2, "malformed gdb/mi output")                                 \
    X(TOOLONG, -3, "gdb/mi line longer than the maximum line length")        \
    X(TOODEEP, -4, "gdb/mi value nested too deeply")                         \
    X(NOTFOUND, -5, "no such field in the gdb/mi record")                    \
    X(TYPE, -6, "gdb/mi field has another type")                             \
    X(INVAL, -7, "invalid argument")                                         \
    X(GDB, -8, "gdb reported an error")                                      \
    X(EXITED, -9, "gdb exited")                                              \
    X(TIMEDOUT, -10, "gdb did not answer before the deadline")               \
    X(SPAWN, -11, "could not start gdb")                                     \
    X(IO, -12, "i/o error talking to gdb")                                   \
    X(PTY, -13, "could not create a pseudo-terminal for the inferior")       \
    X(SETUP, -14, "gdb refused the mi setup commands")

enum mi_errno {
    MI_OK = 0,
#define MI__ERR_ENUM(name, val, msg) MI_E##name = (val),
    MI_ERRNO_MAP(MI__ERR_ENUM)
#undef MI__ERR_ENUM
};

/* The message for an error code ("unknown error" for others); never NULL. */
const char *mi_strerror(int code);
/* The code's name without prefix ("SYNTAX"); never NULL. */
const char *mi_err_name(int code);

/* ---------------------------------------------------------------- values */

enum mi_value_kind {
    MI_VALUE_STRING, /* "c-string", unescaped */
    MI_VALUE_TUPLE,  /* {a="1",b="2"}; keys may repeat, order is kept */
    MI_VALUE_LIST,   /* [..] of values or of results (name=value) */
};

/*
 * One node of a parsed value tree. An element of a tuple or list that was
 * written as `name=value` (an MI "result") has `name` set; a bare value has
 * name NULL (list elements, and GDB's MI2 `bkpt={..},{..}` oddity where the
 * extra location tuples follow the named one at the same level).
 * Nodes are read-only and owned by their record.
 */
struct mi_value {
    enum mi_value_kind kind;
    const char *name;        /* key, or NULL */
    struct mi_value *next;   /* next sibling in the parent, or NULL */
    const char *str;         /* STRING: NUL-terminated (may hold \0 bytes) */
    size_t len;              /* STRING: bytes in str, without the final NUL */
    struct mi_value *first;  /* TUPLE/LIST: first child, or NULL */
    size_t count;            /* TUPLE/LIST: number of children */
};

/*
 * Look up a value by path, from `v` (a tuple or list). Path syntax:
 *   path    := segment ( "." segment )*
 *   segment := [ key ] ( "[" index "]" )*
 * `key` picks the first child named key (keys are [A-Za-z0-9_-]); `[i]`
 * picks the i-th child (from 0) of a list or tuple whatever its name, so
 * "stack[0].func" is the first frame's function in -stack-list-frames'
 * `stack=[frame={..},..]`, and "thread-ids[1]" the second of the repeated
 * keys in `thread-ids={thread-id="1",thread-id="2"}`.
 * Returns the node or NULL (absent, bad path, index out of range).
 */
const struct mi_value *mi_value_get(const struct mi_value *v, const char *path);
/* The next sibling after `v` named `name` (for repeated keys), or NULL. */
const struct mi_value *mi_value_next_named(const struct mi_value *v,
                                           const char *name);

/* ---------------------------------------------------------------- records */

enum mi_record_kind {
    MI_RECORD_RESULT,  /* [token]^class[,results]  reply to a command */
    MI_RECORD_EXEC,    /* [token]*class[,results]  e.g. *stopped, *running */
    MI_RECORD_STATUS,  /* [token]+class[,results]  e.g. +download */
    MI_RECORD_NOTIFY,  /* [token]=class[,results]  e.g. =library-loaded */
    MI_RECORD_CONSOLE, /* ~"text"  CLI output */
    MI_RECORD_TARGET,  /* @"text"  target output */
    MI_RECORD_LOG,     /* &"text"  GDB's log / error messages */
    MI_RECORD_PROMPT,  /* (gdb)    end of a batch of output */
    MI_RECORD_INVALID, /* not GDB/MI: see error, error_offset */
    MI_RECORD_STDERR,  /* driver only: one line GDB wrote on its stderr */
};

enum mi_result_class {
    MI_CLASS_NONE,      /* not a result record */
    MI_CLASS_DONE,
    MI_CLASS_RUNNING,
    MI_CLASS_CONNECTED,
    MI_CLASS_ERROR,
    MI_CLASS_EXIT,
    MI_CLASS_OTHER,     /* a class this library does not know (kept in klass) */
};

struct mi__arena;

/*
 * One line of GDB output. Everything it points to lives in its own memory
 * block: free it with mi_record_free(), all at once.
 */
struct mi_record {
    enum mi_record_kind kind;
    int has_token;
    uint64_t token;                   /* valid when has_token */
    const char *klass;                /* RESULT/EXEC/STATUS/NOTIFY, else NULL */
    enum mi_result_class result_class;/* RESULT only */
    struct mi_value *results;         /* RESULT/async: a tuple, never NULL */
    const char *text;                 /* stream: unescaped text; STDERR/INVALID:
                                         the raw line */
    size_t text_len;
    const char *line;                 /* the raw line, without "\r\n" */
    size_t line_len;
    int error;                        /* INVALID: MI_ESYNTAX, MI_ETOOLONG, ... */
    size_t error_offset;              /* INVALID: byte offset in the line */
    const char *error_msg;            /* INVALID: what was expected there */
    struct mi__arena *arena;          /* private */
};

void mi_record_free(struct mi_record *rec);
/* A deep copy (re-parsed from rec->line), or NULL when out of memory. */
struct mi_record *mi_record_dup(const struct mi_record *rec);

/* Path lookup from the record's results (see mi_value_get). */
const struct mi_value *mi_get(const struct mi_record *rec, const char *path);
/* The string at path, or NULL when absent or not a string. */
const char *mi_get_str(const struct mi_record *rec, const char *path);
/* The integer at path (decimal or 0x hex string): 0, MI_ENOTFOUND, MI_ETYPE. */
int mi_get_int(const struct mi_record *rec, const char *path, long long *out);

/*
 * Write a canonical, indented dump of the record to `out` (the format of the
 * test corpus, see docs/mi.md). Strings are printed JSON-style: \" \\ \n \t
 * \r and \xHH for every other byte below 0x20 or above 0x7e.
 */
int mi_record_dump(const struct mi_record *rec, FILE *out);
const char *mi_record_kind_name(enum mi_record_kind kind);

/* ---------------------------------------------------------------- parser */

#define MI_DEFAULT_MAX_LINE ((size_t)64 << 20) /* 64 MiB */
#define MI_DEFAULT_MAX_DEPTH 1000

struct mi_parser_options {
    size_t max_line;    /* longest accepted line in bytes; 0: default */
    unsigned max_depth; /* deepest value nesting; 0: default */
};

/*
 * Parse one line (without its newline; a final "\r" is ignored). Returns 0
 * and *out for a GDB/MI record; MI_ESYNTAX/MI_ETOOLONG/MI_ETOODEEP with *out
 * an MI_RECORD_INVALID record describing the error; MI_ENOMEM with *out NULL.
 * The caller frees *out. opt may be NULL.
 */
int mi_parse_line(const char *line, size_t len,
                  const struct mi_parser_options *opt, struct mi_record **out);

/*
 * Streaming parser: feed bytes as they arrive, take records out with
 * mi_parser_next(). Lines may end in "\n" or "\r\n". Memory held is at most
 * the complete lines not yet taken plus max_line bytes: a longer line is
 * dropped and reported as one MI_RECORD_INVALID record with MI_ETOOLONG.
 */
struct mi_parser {
    struct mi_parser_options opt;
    char *buf;
    size_t cap, start, end; /* unconsumed bytes are buf[start, end) */
    size_t scanned;         /* buf[start, scanned) holds no newline */
    size_t tail;            /* where the unterminated last line starts */
    int discarding;         /* dropping the rest of a too long line */
};

/* Set up an empty parser; no allocation. opt may be NULL (defaults). */
void mi_parser_init(struct mi_parser *p, const struct mi_parser_options *opt);
/* Append bytes; 0 or MI_ENOMEM. */
int mi_parser_feed(struct mi_parser *p, const void *data, size_t len);
/*
 * Take the next record: 1 and *out (caller frees), 0 when no complete line
 * is buffered, MI_ENOMEM. A malformed line gives 1 and an INVALID record.
 */
int mi_parser_next(struct mi_parser *p, struct mi_record **out);
/* At end of input: like mi_parser_next, but a final unterminated line counts. */
int mi_parser_finish(struct mi_parser *p, struct mi_record **out);
/* Free the buffer; the parser may be init'ed again. */
void mi_parser_release(struct mi_parser *p);

/* ---------------------------------------------------------------- commands */

/*
 * An MI command line under construction, e.g.
 *     mi_cmd_init(&c); mi_cmd_op(&c, "-break-insert");
 *     mi_cmd_arg(&c, "-t"); mi_cmd_arg(&c, "file with space.c:12");
 * gives `-break-insert -t "file with space.c:12"`. An argument is emitted
 * bare only when made of [A-Za-z0-9_./:+*@$<>=!-] and non-empty, else as an
 * MI C string (\" \\ \n \t \r escaped, other control bytes as \NNN octal,
 * bytes >= 0x80 verbatim). The line never holds a raw newline. Errors are
 * sticky: check `err` (or the return of mi_cmd_str) once at the end.
 * Tokens are added by the driver when sending (mi_gdb_send).
 */
struct mi_cmd {
    char *buf;
    size_t len, cap;
    int err;
};

void mi_cmd_init(struct mi_cmd *c);
/* Start over with operation `op` ("-exec-run"); must not need quoting. */
int mi_cmd_op(struct mi_cmd *c, const char *op);
/* Append one argument, quoted as needed. */
int mi_cmd_arg(struct mi_cmd *c, const char *arg);
/* Append one argument of `len` bytes (may hold NUL bytes, sent as \000). */
int mi_cmd_argn(struct mi_cmd *c, const char *arg, size_t len);
/* Append one argument, always quoted. */
int mi_cmd_arg_quoted(struct mi_cmd *c, const char *arg);
/* Append an option and its value: mi_cmd_opt(c, "--thread", "2"). */
int mi_cmd_opt(struct mi_cmd *c, const char *opt, const char *value);
/* Start over with `-interpreter-exec console "<cli>"`. */
int mi_cmd_console(struct mi_cmd *c, const char *cli);
/* The command line (NUL-terminated, no newline), or NULL after an error. */
const char *mi_cmd_str(const struct mi_cmd *c);
void mi_cmd_release(struct mi_cmd *c);
/* Append `s` quoted as an MI C string to a malloc'ed copy: free() it. */
char *mi_quote(const char *s, size_t len);

/* ---------------------------------------------------------------- driver */

struct mi_gdb;

/* The outcome of one command. */
struct mi_reply {
    uint64_t token;
    /* 0 (^done, ^running, ^connected, ^exit), MI_EGDB (^error), or a driver
       error: MI_EEXITED, MI_ETIMEDOUT, MI_EIO. */
    int status;
    struct mi_record *record; /* the result record, or NULL */
    const char *command;      /* the command as sent, without token */
    const char *message;      /* ^error's msg, or the driver's message */
    char *console;            /* ~ output that came before the result */
    size_t console_len;
};

/* Completion of one command. `r` and everything in it are only valid during
   the call; keep the record with mi_record_dup(). Callbacks may send
   commands; they must not free the GDB they are called for. */
typedef void mi_reply_fn(struct mi_gdb *g, const struct mi_reply *r, void *ud);
/* An async record (EXEC/STATUS/NOTIFY, or a RESULT nobody waits for), or a
   stream record (CONSOLE/TARGET/LOG/STDERR/INVALID). Borrowed for the call. */
typedef void mi_record_fn(struct mi_gdb *g, const struct mi_record *rec,
                          void *ud);

struct mi_gdb_options {
    /* argv to exec (argv[0] searched in PATH, never through a shell); NULL:
       {"gdb", "-nx", "-q", "--interpreter=mi3", NULL}. */
    char *const *argv;
    /* GDB's environment ("NAME=value" entries, NULL-terminated); NULL:
       ours. */
    char *const *envp;
    /* Give the inferior its own pseudo-terminal (default on: set no_pty to
       disable, e.g. for a remote GDB whose inferior cannot see our pty). */
    int no_pty;
    /* GDB's soft limit of open files (RLIMIT_NOFILE), which the program
     * it starts inherits; 0: ours. */
    unsigned long nofile;
    /* The token of the first command (0: 1). A GDB that another driver
     * drove before (mi_gdb_attach of a kept GDB) may still answer that
     * driver's commands: tokens above any it used keep a late answer
     * from being taken for one of ours. */
    uint64_t first_token;
    mi_record_fn *on_async;
    mi_record_fn *on_stream;
    void *ud;               /* passed to both callbacks */
    struct mi_parser_options parser;
};

/*
 * Spawn GDB and queue the setup commands (pagination, confirm, height,
 * width, mi-async, handle SIGINT nopass, -list-features, -inferior-tty-set).
 * Waits only for the exec to succeed, not for GDB: use mi_gdb_ready() in a
 * poll loop or mi_gdb_wait_ready(). GDB gets its own
 * session (and process group) and dies with the caller, even by SIGKILL
 * (PR_SET_PDEATHSIG: the caller's thread must outlive GDB); its stdin is a socket, stdout and stderr are
 * pipes, all non-blocking on our side and close-on-exec.
 * Returns 0 and *out, or MI_ESPAWN (argv[0] not found / not executable),
 * MI_EPTY, MI_ENOMEM; `msg` (may be NULL, size msgsz) gets the details.
 */
int mi_gdb_start(struct mi_gdb **out, const struct mi_gdb_options *opt,
                 char *msg, size_t msgsz);
/*
 * A GDB that someone else started (on another host, through drdb's agent):
 * its streams are given descriptors and its process is reached through
 * callbacks; the driver knows nothing else of how it runs.
 */
struct mi_gdb_link {
    int in;               /* GDB's stdin: a socket (written with send) */
    int out, err;         /* its stdout and stderr (err may be -1) */
    int pty_fd;           /* the program's output, as mi_gdb_pty_fd()
                             gives it (a socket or terminal), or -1 */
    const char *tty_name; /* the program's terminal where GDB runs (its
                             -inferior-tty-set), or NULL */
    long pid;             /* GDB's pid where it runs (for messages) */
    /* 1 while GDB runs; 0 once it ended, *status its wait status (-1:
       not known) */
    int (*alive)(void *ud, int *status);
    /* SIG to GDB's process group (SIGINT: interrupt; SIGKILL: end) */
    void (*signal)(void *ud, int sig);
    /* Optional: moves the streams' bytes, blocking up to timeout_ms (-1:
       until something moved): the blocking calls (mi_gdb_step and so
       mi_gdb_exec_sync, mi_gdb_wait_ready, mi_gdb_close) call it when the
       descriptors have nothing. 0, or -1 when the streams are gone for
       good. */
    int (*pump)(void *ud, int timeout_ms);
    /* Optional: called once by mi_gdb_free() after GDB was ended, for the
       owner's resources behind ud. */
    void (*release)(void *ud);
    void *ud;
};

/*
 * Drive the GDB LINK describes (opt->argv, envp and no_pty are ignored),
 * with the setup commands of mi_gdb_start() (-inferior-tty-set with
 * link->tty_name when given). The driver owns link's descriptors from
 * now on (closed by mi_gdb_free(), also after an error). 0 and *out, or
 * MI_EINVAL, MI_ENOMEM.
 */
int mi_gdb_attach(struct mi_gdb **out, const struct mi_gdb_options *opt,
                  const struct mi_gdb_link *link, char *msg, size_t msgsz);
/* 1 when setup finished, 0 while starting, or the negative error. */
int mi_gdb_ready(const struct mi_gdb *g);
/* Drive this GDB alone until setup finished: 0 or negative error. */
int mi_gdb_wait_ready(struct mi_gdb *g, int timeout_ms);

/*
 * Send `cmd` (an MI command without token, e.g. "-exec-continue"; no
 * newline) with a fresh token. `done` (may be NULL) is called exactly once:
 * with the result record, or with an error if GDB exits first or the
 * deadline (timeout_ms > 0, relative to now) passes. Returns the token (>0)
 * or a negative error (MI_EINVAL for an empty command or one with a newline;
 * MI_EEXITED when GDB is gone: `done` is then not called).
 */
int64_t mi_gdb_send(struct mi_gdb *g, const char *cmd, int timeout_ms,
                    mi_reply_fn *done, void *ud);

/*
 * Blocking: send and drive this GDB until its reply. Async and stream
 * records go to the callbacks meanwhile. On return `out` holds the reply,
 * owned by the caller (free with mi_reply_release; `console` is never NULL
 * after a reply). Returns out->status. timeout_ms <= 0: no deadline, but
 * it still returns when GDB dies.
 */
int mi_gdb_exec_sync(struct mi_gdb *g, const char *cmd, struct mi_reply *out,
                     int timeout_ms);
/* Free what mi_gdb_exec_sync put in `r` (never for a callback's reply). */
void mi_reply_release(struct mi_reply *r);

/*
 * Poll-loop API. mi_gdb_pollfds() fills up to MI_GDB_MAX_POLLFDS entries
 * (GDB's stdout and stderr, and its stdin while output is queued) and
 * returns how many; mi_gdb_process() takes the same entries after poll() and
 * does all reading, writing, parsing, callbacks and deadline checks. It
 * returns 0, or MI_EEXITED once GDB is gone (pending commands have then been
 * failed). mi_gdb_timeout() gives the ms until the next command deadline
 * (-1: none), for poll's timeout. The pty's master (mi_gdb_pty_fd) is
 * separate: the caller reads the program's output from it.
 */
#define MI_GDB_MAX_POLLFDS 3
int mi_gdb_pollfds(const struct mi_gdb *g, struct pollfd *fds, int n);
int mi_gdb_process(struct mi_gdb *g, const struct pollfd *fds, int n);
int mi_gdb_timeout(const struct mi_gdb *g);
/* poll() this GDB alone for up to timeout_ms (-1: forever) and process. */
int mi_gdb_step(struct mi_gdb *g, int timeout_ms);
/* Reap GDB if it has exited (call on SIGCHLD; a linked GDB: asks its
   alive callback): 1 alive, 0 gone. */
int mi_gdb_check_alive(struct mi_gdb *g);

/*
 * Interrupt the running inferior so that it stops (the *stopped record says
 * reason="signal-received", signal-name="SIGINT" or "0"): sends
 * -exec-interrupt; if GDB answers ^error or stays silent, SIGINT goes to
 * GDB's process group (not the inferior's). The program is paused, it does
 * not receive a SIGINT (the driver set `handle SIGINT nopass`).
 */
int mi_gdb_interrupt(struct mi_gdb *g);
/* 1 while the inferior runs (between *running and *stopped), else 0. */
int mi_gdb_running(const struct mi_gdb *g);

/* Master side of the inferior's pty (non-blocking), or -1. */
int mi_gdb_pty_fd(const struct mi_gdb *g);
/* Slave device path of that pty ("/dev/pts/7"), or NULL. */
const char *mi_gdb_pty_name(const struct mi_gdb *g);
pid_t mi_gdb_pid(const struct mi_gdb *g);
/* 1 when -list-features listed `feature`. */
int mi_gdb_has_feature(const struct mi_gdb *g, const char *feature);
/* Number of commands sent and not yet answered. */
size_t mi_gdb_pending(const struct mi_gdb *g);
/* After GDB is gone: its wait status (as from waitpid), or -1 if unknown. */
int mi_gdb_wait_status(const struct mi_gdb *g);
/* A description of the last driver error ("" if none). */
const char *mi_gdb_error(const struct mi_gdb *g);

/* Ask GDB to exit (-gdb-exit) and wait up to timeout_ms; then kill it. */
int mi_gdb_close(struct mi_gdb *g, int timeout_ms);
/* Kill GDB (SIGKILL to its process group) if alive, reap it, fail pending
   commands (their callbacks run), free all. The program being debugged
   dies with GDB: GDB 13 traces it with PTRACE_O_EXITKILL. */
void mi_gdb_free(struct mi_gdb *g);

/* Milliseconds of CLOCK_MONOTONIC (for deadlines). */
int64_t mi_now_ms(void);

#endif
