/*
 * agent.h - the inside of `drdb agent` (sub-agent.c: the connection and
 * its loop; agent-proc.c: the processes it starts).
 *
 * The agent serves one connection (wire.h) on its stdin and stdout: it
 * starts processes from launcher descriptions, relays their streams,
 * delivers their exit statuses, reads file ranges of run directories and
 * sends copies of logs without their message data (agent-log.c).
 * Everything it starts ends when the connection does (stdin's end, a
 * write error, SIGHUP or SIGTERM): each process leads a process group of
 * its own, which is killed then, and dies with the agent even when the
 * agent is killed with SIGKILL (life.h).
 */
#ifndef DRDB_AGENT_H
#define DRDB_AGENT_H

#include <stdint.h>
#include <sys/types.h>

#include "wire.h"

/* A process the agent started, on channel CH. Streams: IN (stdin, or the
 * terminal's master with LAUNCH_PTY), OUT, ERR (-1 with LAUNCH_PTY), TTY
 * (the extra terminal's master); -1 once closed. */
struct agent_proc {
    unsigned ch;
    pid_t pid;
    int in, out, err, tty, tty_slave;
    struct wire_buf inq, ttyq; /* what the client sent, not written yet */
    int in_eof;                /* close IN once INQ is written */
    int reaped, status;
    int64_t reaped_at;         /* ms (CLOCK_MONOTONIC) */
};

/* Starts the process START's payload F describes, on F's channel, into P
 * (its pid, its streams non-blocking): 0, or -1 with the reason for the
 * client in ERR (the trust check's, a program that cannot run). */
int agent_proc_start(struct agent_proc *p, const struct wire_frame *f,
                     char *err, size_t errlen);
/* Closes P's streams and frees its queues (the process is reaped). */
void agent_proc_release(struct agent_proc *p);
/* Reads file range READ's payload F asks for into OUT: 0, or -1 with the
 * reason in ERR. */
int agent_read(const struct wire_frame *f, struct wire_buf *out, char *err,
               size_t errlen);
/* Answers SETUP request F (a rank's replay under GDB made ready here,
 * launch_gdb_prepare) into OUT: 0, or -1 with the reason in ERR. */
int agent_setup(const struct wire_frame *f, struct wire_buf *out, char *err,
                size_t errlen);
/* Answers RUN request F (agent-log.c) into OUT: 0, or -1 with the reason
 * in ERR. */
int agent_run(const struct wire_frame *f, struct wire_buf *out, char *err,
              size_t errlen);
/* Answers INDEX request F on C (agent-log.c): the rank's log stripped of
 * its message data as IMAGE frames, then IMAGE_END. 0, or -1 with the
 * reason in ERR (nothing or part of the copy queued: the client takes the
 * ERROR that follows as the answer). */
int agent_index(struct wire_conn *c, const struct wire_frame *f, char *err,
                size_t errlen);

#endif
