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
 *
 * Unless it keeps them (`drdb agent --keep S`; docs/remote.md, "Keeping a
 * session"): such an agent runs in a session of its own (the process ssh
 * started waits for it: agent_keep_fork) and listens on a socket of its
 * user's (agent_keep_listen). When its connection ends and the client
 * asked for keeping (KEEP), its processes go on; what they write is held
 * (up to WIRE_HIGH_WATER, then they wait in their writes); a connection
 * handed over by `drdb agent --attach ID` (agent_attach) takes them back.
 * With nobody attached for the time limit, everything ends as above.
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
    char *label;               /* LABEL's, or NULL */
    char tty_name[64];         /* the extra terminal's slave, or "" */
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

/* ---- shadows (agent-shadow.c) ------------------------------------------ */

/* Whether PID is a process this agent started (sub-agent.c). */
int agent_started(pid_t pid);
/* Answers SHADOW request F (wire.h) into OUT: 0, or -1 with the reason in
 * ERR (a pid this agent did not start, an unknown shadow). Shadows and
 * their directories end with the agent (life.h). */
int agent_shadow(const struct wire_frame *f, struct wire_buf *out,
                 char *err, size_t errlen);
/* Takes the wait STATUS of PID when it is a shadow's drain: 1, else 0. */
int agent_shadow_reaped(pid_t pid, int status);

/* ---- keeping (agent-keep.c) ------------------------------------------- */

/* Whether ID is a session id (a kept agent's pid: 1 to 10 digits). */
int agent_id_ok(const char *id);
/* The user's directory of kept sessions into DIR: $XDG_RUNTIME_DIR/
 * drdb-agent, else $XDG_CACHE_HOME (or ~/.cache)/drdb/agent-HOSTNAME,
 * never a shared /tmp; made 0700 when missing and MAKE (else 1: there is
 * none). 0, or -1 with ERR, which names a way out, when it is not a real
 * directory (a symbolic link is not followed) owned by the user with no
 * access for others. */
int agent_keep_dir(char *dir, size_t len, int make, char *err,
                   size_t errlen);
/* Listens on DIR/ID.sock (mode 0600): the socket, its path in PATH; or -1
 * with ERR. */
int agent_keep_listen(const char *id, char *path, size_t len, char *err,
                      size_t errlen);
/* Whether the peer of Unix socket SOCK runs as this user (SO_PEERCRED):
 * 0, or -1 with ERR. */
int agent_peer_ok(int sock, char *err, size_t errlen);
/* On an accepted connection SOCK: checks its peer (agent_peer_ok) and
 * receives the standard input, output and error it hands over into FD:
 * 0, or -1 with ERR. SOCK then stays open while the agent serves them;
 * writing 'd' to it or closing it lets `drdb agent --attach` end. */
int agent_keep_accept(int sock, int fd[3], char *err, size_t errlen);
/* `drdb agent --keep`: forks; returns 0 in the child (the agent, in a
 * session of its own; *DONE: the descriptor whose 'd' or closing lets the
 * parent end), -1 when it cannot. The parent (what ssh started) exits:
 * 0 once the agent keeps its session, else the agent's exit status. */
int agent_keep_fork(int *done);
/* Sends this process's standard input, output and error over SOCK (one
 * byte with SCM_RIGHTS), as agent_keep_accept() takes them: 0 or -1. */
int agent_hand_over(int sock);
/* Points descriptors 0 to N-1 at /dev/null (a connection let go). */
void agent_null_stdio(int n);
/* SESSIONS's answer into OUT: 0, or -1 with ERR. */
int agent_sessions(struct wire_buf *out, char *err, size_t errlen);
/* `drdb agent --attach [ID]`: hands this process's standard streams to
 * kept session ID (the only one when NULL) and waits until it is done
 * with them: the exit status (1 with a line on stderr when it cannot). */
int agent_attach(const char *id);

#endif
