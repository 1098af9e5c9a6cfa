/* The agent's shadows (wire.h's SHADOW; agent.h): shadows of the replays
 * it started, made as the console makes a local one (launch-shadow.c). */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "agent.h"
#include "launch.h"
#include "life.h"

#define MAX_SHADOWS 256

static struct agent_shadow {
    pid_t pid;  /* the drain; 0: a free slot */
    int reaped, status;
    char dir[4200];
} shadows[MAX_SHADOWS];
static char root[4200]; /* $TMPDIR/drdb-shadow-PID-XXXXXX, made once */

/* Whether PID is one of the agent's processes or a descendant of one
 * (its parents in /proc/PID/stat up to one the agent started). */
static int owned(pid_t pid)
{
    for (int depth = 0; pid > 1 && depth < 64; depth++) {
        if (agent_started(pid))
            return 1;
        char path[64], buf[1024];
        snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
        FILE *f = fopen(path, "r");
        size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
        if (f)
            fclose(f);
        buf[n] = '\0';
        /* "PID (COMM) S PPID ...": COMM may hold anything but its end */
        char *e = strrchr(buf, ')');
        int ppid;
        if (!e || sscanf(e + 1, " %*c %d", &ppid) != 1)
            return 0;
        pid = (pid_t)ppid;
    }
    return 0;
}

int agent_shadow_reaped(pid_t pid, int status)
{
    for (int i = 0; i < MAX_SHADOWS; i++)
        if (shadows[i].pid == pid && !shadows[i].reaped) {
            shadows[i].reaped = 1;
            shadows[i].status = status;
            return 1;
        }
    return 0;
}

static struct agent_shadow *find(uint32_t id)
{
    for (int i = 0; id && i < MAX_SHADOWS; i++)
        if (shadows[i].pid == (pid_t)id)
            return &shadows[i];
    return NULL;
}

static int start(const struct wire_shadow *q, struct wire_buf *out,
                 char *err, size_t errlen)
{
    struct agent_shadow *s = NULL;
    for (int i = 0; !s && i < MAX_SHADOWS; i++)
        if (!shadows[i].pid)
            s = &shadows[i];
    int rc = -1;
    if (!s)
        snprintf(err, errlen, "too many shadows on this agent");
    else if (q->pid < 2 || !owned((pid_t)q->pid))
        snprintf(err, errlen, "process %u was not started by this agent: "
                 "only a replay it runs can be shadowed", (unsigned)q->pid);
    else if (q->rank > 1u << 24)
        snprintf(err, errlen, "rank %u is out of range", (unsigned)q->rank);
    else if ((rc = launch_shadow_dir(root, sizeof root, (int)q->rank, s->dir,
                                     sizeof s->dir)) < 0)
        snprintf(err, errlen, "cannot make a directory for the shadow in "
                 "%s: %s", root[0] ? root : life_tmpdir(), strerror(-rc));
    else {
        pid_t a = launch_shadow_of((pid_t)q->pid, s->dir,
                                   q->rundir[0] ? q->rundir : NULL,
                                   (int)q->rank,
                                   isfinite(q->interval) ? q->interval : 0,
                                   q->every, err, errlen);
        rc = a < 0 ? -1 : 0;
        if (a > 0) {
            s->pid = a;
            s->reaped = 0;
            wire_put_u32(out, (uint32_t)a);
            wire_put_str(out, s->dir);
        }
    }
    return rc;
}

/* LIST's answer for shadow S into OUT. */
static void list(const struct agent_shadow *s, struct wire_buf *out)
{
    struct launch_shadow_file *v;
    int n = launch_shadow_files(s->dir, &v);
    wire_put_ckpt_files(out, v, (size_t)n);
    free(v);
}

int agent_shadow(const struct wire_frame *f, struct wire_buf *out,
                 char *err, size_t errlen)
{
    struct wire_rd rd;
    struct wire_shadow q;
    wire_rd_init(&rd, f);
    if (wire_get_shadow(&rd, &q) < 0) {
        snprintf(err, errlen, "a malformed SHADOW request");
        return -1;
    }
    if (q.op == WIRE_SHADOW_START) {
        int rc = start(&q, out, err, errlen);
        free(q.rundir);
        return rc;
    }
    struct agent_shadow *s = find(q.id);
    if (!s) {
        snprintf(err, errlen, "no such shadow on this agent");
        return -1;
    }
    char status[8400];
    snprintf(status, sizeof status, "%s/status", s->dir);
    switch (q.op) {
    case WIRE_SHADOW_POLL:
        wire_put_u32(out, (uint32_t)s->reaped);
        wire_put_u32(out, (uint32_t)(s->reaped ? launch_shadow_status(
                                                     status, s->status)
                                               : 0));
        break;
    case WIRE_SHADOW_STOP:
        if (!s->reaped) {
            launch_shadow_stop(s->pid);
            s->status = SIGKILL; /* as a wait status: killed by it */
        }
        s->reaped = 1;
        if (q.flags & WIRE_SHADOW_CLEAR) {
            launch_clear_dir(s->dir);
            rmdir(s->dir);
            s->pid = 0; /* its id is no more */
        }
        break;
    default:
        list(s, out);
    }
    return 0;
}
