/* The agent's shadows (wire.h's SHADOW; agent.h): shadows of the replays
 * it started, made as the console makes a local one (launch-shadow.c). */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "agent.h"
#include "ckpt-file.h"
#include "launch.h"

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

static struct agent_shadow *find(struct wire_rd *rd)
{
    uint32_t id;
    if (wire_get_u32(rd, &id) < 0 || id == 0)
        return NULL;
    for (int i = 0; i < MAX_SHADOWS; i++)
        if (shadows[i].pid == (pid_t)id)
            return &shadows[i];
    return NULL;
}

static int start(struct wire_rd *rd, struct wire_buf *out, char *err,
                 size_t errlen)
{
    uint32_t pid = 0, rank = 0;
    uint64_t bits = 0, every = 0;
    wire_get_u32(rd, &pid);
    char *rundir = wire_get_str(rd);
    wire_get_u32(rd, &rank);
    wire_get_u64(rd, &bits);
    int bad = wire_get_u64(rd, &every) < 0 || rd->at != rd->len ||
              rank > 1u << 24;
    double interval;
    memcpy(&interval, &bits, sizeof interval);
    struct agent_shadow *s = NULL;
    for (int i = 0; !bad && !s && i < MAX_SHADOWS; i++)
        if (!shadows[i].pid)
            s = &shadows[i];
    int rc = -1;
    if (bad)
        snprintf(err, errlen, "a malformed SHADOW request");
    else if (!s)
        snprintf(err, errlen, "too many shadows on this agent");
    else if (pid < 2 || !owned((pid_t)pid))
        snprintf(err, errlen, "process %u was not started by this agent: "
                 "only a replay it runs can be shadowed", (unsigned)pid);
    else if ((rc = launch_shadow_dir(root, sizeof root, (int)rank, s->dir,
                                     sizeof s->dir)) < 0)
        snprintf(err, errlen, "cannot make a directory for the shadow in "
                 "%s: %s", root[0] ? root : "$TMPDIR", strerror(-rc));
    else {
        pid_t a = launch_shadow_of((pid_t)pid, s->dir,
                                   rundir[0] ? rundir : NULL, (int)rank,
                                   isfinite(interval) ? interval : 0,
                                   every, err, errlen);
        rc = a < 0 ? -1 : 0;
        if (a > 0) {
            s->pid = a;
            s->reaped = 0;
            wire_put_u32(out, (uint32_t)a);
            wire_put_str(out, s->dir);
        }
    }
    free(rundir);
    return rc;
}

/* LIST's answer for shadow S into OUT. */
static void list(const struct agent_shadow *s, struct wire_buf *out)
{
    struct wire_buf b;
    wire_buf_init(&b);
    uint32_t n = 0;
    DIR *d = opendir(s->dir);
    struct dirent *de;
    while (d && (de = readdir(d))) {
        size_t l = strlen(de->d_name);
        if (strncmp(de->d_name, "ckpt-", 5) || l < 8 ||
            strcmp(de->d_name + l - 7, ".drdbck"))
            continue;
        char path[8400], e[512];
        struct ckpt_info inf;
        snprintf(path, sizeof path, "%s/%s", s->dir, de->d_name);
        if (ckpt_file_info(path, &inf, e, sizeof e) < 0)
            continue;
        uint64_t t;
        memcpy(&t, &inf.time, sizeof t);
        wire_put_str(&b, de->d_name);
        wire_put_u64(&b, (uint64_t)inf.id);
        wire_put_u64(&b, (uint64_t)inf.parent);
        wire_put_u64(&b, inf.event);
        wire_put_u64(&b, t);
        wire_put_u64(&b, inf.pages);
        wire_put_u64(&b, inf.bytes);
        n++;
    }
    if (d)
        closedir(d);
    wire_put_u32(out, n);
    wire_buf_add(out, b.p, b.len);
    wire_buf_release(&b);
}

int agent_shadow(const struct wire_frame *f, struct wire_buf *out,
                 char *err, size_t errlen)
{
    struct wire_rd rd;
    uint32_t op, flags = 0;
    wire_rd_init(&rd, f);
    if (wire_get_u32(&rd, &op) < 0 || op >= WIRE_SHADOW_END) {
        snprintf(err, errlen, "a malformed SHADOW request");
        return -1;
    }
    if (op == WIRE_SHADOW_START)
        return start(&rd, out, err, errlen);
    struct agent_shadow *s = find(&rd);
    if (op == WIRE_SHADOW_STOP)
        wire_get_u32(&rd, &flags);
    if (!s || rd.bad || rd.at != rd.len) {
        snprintf(err, errlen, s ? "a malformed SHADOW request"
                                : "no such shadow on this agent");
        return -1;
    }
    char status[8400];
    snprintf(status, sizeof status, "%s/status", s->dir);
    switch (op) {
    case WIRE_SHADOW_POLL:
        wire_put_u32(out, (uint32_t)s->reaped);
        wire_put_u32(out, (uint32_t)(s->reaped ? launch_shadow_status(
                                                     status, s->status)
                                               : 0));
        break;
    case WIRE_SHADOW_STOP:
        if (!s->reaped)
            launch_shadow_stop(s->pid);
        if (flags & WIRE_SHADOW_CLEAR) {
            launch_clear_dir(s->dir);
            rmdir(s->dir);
            s->pid = 0; /* its id is no more */
        }
        s->reaped = 1;
        break;
    default:
        list(s, out);
    }
    return 0;
}
