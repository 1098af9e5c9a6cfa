/*
 * con.h - the console: replayed ranks, each under its own GDB, driven by one
 * command loop (interactive with readline, or a batch script).
 *
 * A session (struct con) owns one struct con_rank per rank of the run; a
 * rank is replayed only once the user asks for it (`replay @SET`). Commands
 * (con-cmd.c, one table) target a rank set: they are sent to every targeted
 * rank's GDB, and the command completes when every rank has answered (and,
 * for execution commands, stopped or exited). Answers are merged: identical
 * ones print once, tagged with their rank set.
 */
#ifndef DRDB_CON_H
#define DRDB_CON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "log-reader.h"
#include "mi.h"

/* ---- rank sets (con-rankset.c) ------------------------------------------ */

struct rankset {
    int n;           /* ranks 0..n-1 */
    uint64_t *bits;
};

int rs_init(struct rankset *s, int n);
void rs_release(struct rankset *s);
void rs_clear(struct rankset *s);
void rs_copy(struct rankset *dst, const struct rankset *src);
static inline int rs_has(const struct rankset *s, int r)
{
    return r >= 0 && r < s->n && (s->bits[r / 64] >> (r % 64)) & 1;
}
static inline void rs_add(struct rankset *s, int r)
{
    s->bits[r / 64] |= (uint64_t)1 << (r % 64);
}
static inline void rs_del(struct rankset *s, int r)
{
    s->bits[r / 64] &= ~((uint64_t)1 << (r % 64));
}
int rs_count(const struct rankset *s);
int rs_first(const struct rankset *s);
/* "0-3,8" into BUF; "none" when empty. */
char *rs_format(const struct rankset *s, char *buf, size_t len);

struct con;
/* Parses TEXT[0..LEN) (without the '@'). 0, or -1 with *ERR and the offset
 * of the bad character in *ERR_AT. */
int rs_parse(struct con *c, const char *text, size_t len, struct rankset *out,
             int *err_at, const char **err);
/* The error, with a caret under the bad character. */
void rs_report(const char *text, size_t len, int at, const char *why);

/* ---- ranks and the session ---------------------------------------------- */

enum con_state {
    CON_OFF,      /* not replayed */
    CON_STARTING, /* GDB starting, program not yet at main */
    CON_STOPPED,
    CON_RUNNING,
    CON_EXITED,
    CON_DIVERGED, /* stopped in drdb_divergence_hook */
    CON_LOST,     /* its GDB died or hung */
};
const char *con_state_name(enum con_state s);

struct con_rank {
    int rank;
    enum con_state state;
    struct mi_gdb *gdb;
    int exit_code;
    char where[256];      /* "main () at jacobi.c:42" when stopped */
    char reason[256];     /* why it stopped, exited or was lost */
    int changed;          /* stopped or exited since a command looked */
    int at_event;         /* stopped in drdb_stop_hook (goto) */
    int user_level;       /* then: the program's frame (selected) */
    int hung;             /* lost to a timeout: its GDB is to be ended */
    char outbuf[1024];    /* program output: the unfinished line */
    size_t outlen;
    struct con_ckpt_rank *ck; /* checkpoints and shadow (con-ckpt.c) */
};

struct con_set {
    char name[64];
    struct rankset set;
};

struct con {
    char dir[4096];
    struct log_run run;
    int nranks;
    struct con_rank *ranks;
    struct rankset focus;
    struct con_set sets[32];
    int nsets;
    char exe[4096], args[65536], cwd[4096];
    char stub[4096];
    int keep_going;      /* batch: go on after a failed command */
    int timeout_ms;      /* per command, 0: none */
    int json;            /* batch: one JSON object per result on stdout */
    int quit;
    int merge;           /* merge identical answers (set merge on|off) */
    int prefix;          /* prefix program output with its rank */
    int timing;          /* print how long each command took */
    int max_groups;      /* more distinct answers: counts only (expand) */
    uint64_t *nevents;   /* per rank, from the logs */
    struct con_loginfo {
        int present, complete;
        char host[64];
        double span_s;   /* first to last event */
        char why[256];   /* why the log stops early, or "" */
    } *logs;
    /* The last merged answers, for `expand`. */
    struct con_answer *last;
    int nlast;
    /* Interactive: called around anything printed while the user may be
     * typing (readline's line is saved and redrawn). */
    void (*out_begin)(void);
    void (*out_end)(void);
    struct ev_run *ev;   /* the logs' event index (con_events()) */
    char *json_buf;      /* the current command's results */
    size_t json_len;
    FILE *json_f;
    double ckpt_interval;  /* set checkpoint-interval (s); < 0: not set */
    long long ckpt_every;  /* set checkpoint-every (events); 0: not set */
    char shadow_root[4096];
};

/* Set by the SIGINT handler: con_wait() interrupts the running ranks. */
extern volatile int con_sigint;

int con_open(struct con *c, const char *dir, char *err, size_t errlen);
/* The one-screen summary of the run (ranks, events, duration, hosts,
 * completeness), ranks with the same host or state grouped. */
void con_summary(struct con *c, FILE *out);
void con_close(struct con *c);
struct ev_run;
/* The run's event index (opened on first use), or NULL after an error. */
struct ev_run *con_events(struct con *c);
/* The named set NAME (all, stopped, ..., or a defset) into OUT: 0 or -1. */
int con_named_set(struct con *c, const char *name, struct rankset *out);
/* Starts the replay of every rank of SET that is not running yet, under
 * GDB, and runs each to main. Progress on stderr for many ranks. */
int con_replay(struct con *c, const struct rankset *set);
/* Ends the replay of SET (kills the program and its GDB). */
void con_drop(struct con *c, const struct rankset *set);
/* Runs one command line. 0, or -1 when it failed. */
int con_execute(struct con *c, const char *line);
/* Runs the commands of FILE ("-": stdin), echoing each; stops at the first
 * that fails (-1). */
int con_source(struct con *c, const char *file);
/* Interactive idle: drives every GDB and prints program output until FD is
 * readable (1) or TIMEOUT_MS passes (0). */
int con_idle(struct con *c, int fd, int timeout_ms);

/* Drives every GDB until each rank of SET has no command pending and none
 * of them runs (or TIMEOUT_MS passes, 0: none; the ranks then count as
 * failed). Prints program output as it arrives. 0, or -1 on timeout. */
int con_wait(struct con *c, const struct rankset *set, int want_stop);

/* ---- commands (con-cmd.c) ----------------------------------------------- */

struct con_cmd {
    const char *name;
    const char *alias;
    const char *usage;
    const char *summary;
    unsigned flags;      /* CON_NEEDS_* preconditions */
    int (*run)(struct con *c, const struct rankset *set, const char *args);
};
enum {
    CON_NEEDS_RANKS = 1u << 0,   /* targets replayed ranks */
    CON_NEEDS_STOPPED = 1u << 1, /* each targeted rank must be stopped */
};
extern const struct con_cmd con_cmds[];
extern const int con_ncmds;
/* The command named NAME or a unique prefix of it; NULL (and an error on
 * stderr naming the candidates) otherwise. */
const struct con_cmd *con_cmd_find(const char *name, size_t len);

/* One answer per rank, merged for printing. */
struct con_answer {
    int rank;
    char *text; /* malloc'd; NULL: no answer */
};
/* S as a JSON string. */
void con_json_str(FILE *f, const char *s);
/* Prints ANSWERS grouped by identical text, largest group first:
 * "[0-6,8] x = 5". PREFIX goes before each text. */
void con_print_merged(struct con *c, struct con_answer *answers, int n);

/* Helpers shared by the command files. */
long long con_eval_int(struct con *c, int r, const char *expr, int *ok);
/* After a stop inside the stub: select the program's frame, say where. */
void con_select_user_frame(struct con *c, struct con_rank *k);
/* Each rank of SET's state, merged. */
void con_print_where(struct con *c, const struct rankset *set);
/* A command's set given as its argument ("replay @4-7", "drop 3") into
 * OUT (initialized here), else SET. -1 after an error (reported). */
int con_arg_set(struct con *c, const struct rankset *set, const char *a,
                struct rankset *out);

/* ---- checkpoints (con-ckpt.c) ------------------------------------------- */

int con_cmd_checkpoint(struct con *c, const struct rankset *set,
                       const char *a);
int con_cmd_checkpoints(struct con *c, const struct rankset *set,
                        const char *a);
int con_cmd_rollback(struct con *c, const struct rankset *set, const char *a);
int con_cmd_shadow(struct con *c, const struct rankset *set, const char *a);
int con_ckpt_set(struct con *c, const char *what, const char *val);
int con_ckpt_nearest(struct con *c, int r, uint64_t target, long long cur);
void con_ckpt_forget(struct con_rank *k);
void con_ckpt_keep_at_exit(struct con *c, int r);
void con_ckpt_status(struct con *c, int r, char *buf, size_t len);
void con_ckpt_close(struct con *c);

#endif
