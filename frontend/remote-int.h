/* remote-int.h - what remote.c, remote-log.c and remote-ssh.c share
 * (remote.h). */
#ifndef DRDB_REMOTE_INT_H
#define DRDB_REMOTE_INT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "wire.h"

struct remote_opts;
struct remote_proc;

/* A connection to an agent (remote.c). */
struct remote {
    char host[256], drdb[1024];
    int local, srun;            /* a local child; started by srun */
    pid_t pid;                 /* ssh, or the local agent */
    int err_fd;                /* its stderr */
    struct wire_conn c;
    struct wire_ready ready;   /* remote_process()'s poll results */
    char tail[4096];           /* the end of its stderr */
    int hello, lost;
    char err[1024];
    struct remote_proc **procs;
    size_t nprocs, cap;
    unsigned next_ch;
    /* requests sent whose replies were not taken yet (remote__send) */
    struct remote_pend *pend;
    size_t npend, pcap;
    /* the last reply taken (remote__take) */
    struct wire_buf reply;
    struct wire_buf reply_end;  /* an IMAGE_END's payload */
    struct remote_src **srcs;   /* the fetch sources of remote logs */
    size_t nsrcs;
    uint64_t fetched;           /* log bytes they read */
    char session[16];           /* the kept session's id, or "" */
    uint64_t copied, copied_of; /* bytes of log copies received, and of
                                   the logs they stand for */
    uint64_t copied_data;       /* message data bytes the copies held */
    int keep_s;                 /* remote_connected() sets this limit
                                   after HELLO (-1: that failed) */
};

/* An INDEX request in flight (remote-log.c): a request of R's on channel
 * CH (remote__send), its answer gathered there as it arrives. */
struct remote_index {
    struct remote *r;
    unsigned ch;
    char *dir;
    int rank;
};
/* A request in flight on channel CH: its reply's type once it came (0
 * before), its payload (IMAGE frames gathered) and an IMAGE_END's. */
struct remote_pend {
    unsigned ch;
    int type;
    struct wire_buf data, end;
};

/* Where a remote log's elided bytes are read from (log_fetch_fn's UD). */
struct remote_src {
    struct remote *r;
    char *dir;
    char name[32];
};

/* Pipelining (docs/architecture.md, "Remote replay nodes"): request
 * TYPE with payload B queued on channel CH (0: a new one) without waiting
 * for its reply, which the agent sends in its turn and remote__take()
 * takes; any number may be in flight. CH, or 0 when the connection is
 * lost. */
unsigned remote__send(struct remote *r, unsigned type, unsigned ch,
                      const struct wire_buf *b);
/* Pumps until the reply to the request on channel CH came: 0 when it is a
 * WANT (in r->reply, an IMAGE_END's payload in r->reply_end, valid until
 * the next take), else -1 with the agent's refusal or the lost connection
 * in ERR. The channel is then free. */
int remote__take(struct remote *r, unsigned ch, int want, char *err,
                 size_t errlen);
/* Helpers remote.c lends remote-conn.c. */
void remote__set_nonblock(int fd);
void remote__close_fd(int *fd); /* closes *FD if open, sets it to -1 */
/* Blocks up to TIMEOUT ms (-1: forever) for something to do, and does it:
 * 0, or -1 when the connection is lost. */
int remote__pump(struct remote *r, int timeout);

/* Whether the request on channel CH was answered (or the connection
 * lost): remote__take() then does not wait. */
int remote__answered(struct remote *r, unsigned ch);
/* Forgets the request on channel CH: its answer is not wanted. */
void remote__drop(struct remote *r, unsigned ch);
/* Request TYPE with payload B on a channel of its own, free again after
 * the reply: remote__send() and remote__take(). */
int remote__ask(struct remote *r, unsigned type, const struct wire_buf *b,
                int want, char *err, size_t errlen);

/* A channel no process or request of R uses. */
unsigned remote__new_channel(struct remote *r);
/* An ERROR answer's TEXT into ERR: "HOST refused: TEXT" (TEXT may be
 * lines of drdb's own, "drdb: " dropped from the first). */
void remote__refused(const struct remote *r, const struct wire_buf *text,
                     char *err, size_t errlen);

/* remote__ask() for a DATA answer, read through *RD (valid until the next
 * request): 0, or -1 with ERR. */
int remote__ask_data(struct remote *r, unsigned type,
                     const struct wire_buf *b, struct wire_rd *rd, char *err,
                     size_t errlen);
/* remote__take() of a DATA answer, read through *RD as above. */
int remote__take_data(struct remote *r, unsigned ch, struct wire_rd *rd,
                      char *err, size_t errlen);

/* Whether HOST means a local agent (NULL, "localhost"). */
int remote__is_local(const char *host);
/* The one line for an agent on HOST (DRDB: its path there; LOCAL: a
 * local child) that ended with wait STATUS (-1 unknown) before its HELLO,
 * having said STDERR_TEXT: what failed (ssh's exit 255: reach or log in;
 * 127: no drdb there) and what to do. */
void remote__diagnose(const char *host, const char *drdb, int local,
                      int status, const char *stderr_text, char *err,
                      size_t errlen);
/* The last non-empty line of TEXT into LINE (remote-ssh.c). */
void remote__last_line(const char *text, char *line, size_t len);

struct remote_opts;
/* Whether O's launcher is srun (remote-srun.c). */
int remote__is_srun(const struct remote_opts *o);
/* The argv that starts the agent for O with srun, or NULL with ERR. */
char **remote__srun_argv(const struct remote_opts *o, char *err,
                         size_t errlen);
/* remote__diagnose() for an agent srun started (ssh's exit codes do not
 * apply; srun's and slurmstepd's error lines say what failed). */
void remote__srun_diagnose(const char *host, const char *drdb, int status,
                           const char *stderr_text, char *err,
                           size_t errlen);
/* The one line for a HELLO of another version (PROTO, VER; this drdb's:
 * MINE): which side is older. */
void remote__mismatch(const char *host, uint32_t proto, const char *ver,
                      const char *mine, char *err, size_t errlen);

/* remote_connect() with WORDS (NULL-terminated, or NULL) after `drdb
 * agent` in the agent's argv (remote__argv). */
int remote__connect(struct remote **out, const struct remote_opts *o,
                    const char *const *words, char *err, size_t errlen);
char **remote__argv(const struct remote_opts *o, const char *const *words,
                    char *err, size_t errlen);
/* A process on channel CH (0: a new one) with the client's ends of its
 * streams (stderr WITH_ERR, terminal WITH_TTY), registered in R: it, or
 * NULL with ERR. */
struct remote_proc *remote__proc_new(struct remote *r, unsigned ch,
                                     int with_err, int with_tty, char *err,
                                     size_t errlen);

#endif
