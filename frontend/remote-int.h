/* remote-int.h - what remote.c, remote-log.c and remote-ssh.c share
 * (remote.h). */
#ifndef DRDB_REMOTE_INT_H
#define DRDB_REMOTE_INT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "wire.h"

/* A connection to an agent (remote.c). */
struct remote {
    char host[256], drdb[1024];
    int local;
    pid_t pid;                 /* ssh, or the local agent */
    int err_fd;                /* its stderr */
    struct wire_conn c;
    char tail[4096];           /* the end of its stderr */
    int hello, lost;
    char err[1024];
    struct remote_proc **procs;
    size_t nprocs, cap;
    unsigned next_ch;
    /* the reply a blocking call waits for, on channel want */
    unsigned want;
    int reply_type;
    struct wire_buf reply;
    struct wire_buf reply_end;  /* an IMAGE_END's payload */
    struct remote_src **srcs;   /* the fetch sources of remote logs */
    size_t nsrcs;
    uint64_t fetched;           /* log bytes they read */
};

/* Where a remote log's elided bytes are read from (log_fetch_fn's UD). */
struct remote_src {
    struct remote *r;
    char *dir;
    char name[32];
};

/* Request TYPE with payload B on a channel of its own, free again after
 * the reply: 0 when the reply is a WANT (in r->reply; an IMAGE_END's
 * payload in r->reply_end), else -1 with the agent's refusal or the lost
 * connection in ERR. */
int remote__ask(struct remote *r, unsigned type, const struct wire_buf *b,
                int want, char *err, size_t errlen);

/* RD reads the payload of the reply remote__ask() took (r->reply). */
void remote__reply_rd(const struct remote *r, struct wire_rd *rd);

/* Whether HOST means a local agent (NULL, "localhost"). */
int remote__is_local(const char *host);
/* The one line for an agent on HOST (DRDB: its path there; LOCAL: a
 * local child) that ended with wait STATUS (-1 unknown) before its HELLO,
 * having said STDERR_TEXT: what failed (ssh's exit 255: reach or log in;
 * 127: no drdb there) and what to do. */
void remote__diagnose(const char *host, const char *drdb, int local,
                      int status, const char *stderr_text, char *err,
                      size_t errlen);
/* The one line for a HELLO of another version (PROTO, VER; this drdb's:
 * MINE): which side is older. */
void remote__mismatch(const char *host, uint32_t proto, const char *ver,
                      const char *mine, char *err, size_t errlen);

#endif
