/* Shadows of a host's replays, through its agent (remote.h; wire.h's
 * SHADOW). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "remote-int.h"
#include "remote.h"

/* Request Q, its answer through *RD: 0, or -1 with ERR. */
static int ask(struct remote *r, const struct wire_shadow *q,
               struct wire_rd *rd, char *err, size_t errlen)
{
    struct wire_buf b;
    wire_buf_init(&b);
    wire_put_shadow(&b, q);
    int rc = b.oom ? -1 : remote__ask_data(r, WIRE_SHADOW, &b, rd, err,
                                          errlen);
    if (b.oom)
        snprintf(err, errlen, "out of memory");
    wire_buf_release(&b);
    return rc;
}

static int malformed(struct remote *r, char *err, size_t errlen)
{
    snprintf(err, errlen, "%s: a malformed answer to SHADOW", r->host);
    return -1;
}

int remote_shadow_start(struct remote *r, pid_t pid, const char *rundir,
                        int rank, double interval, unsigned long long every,
                        pid_t *id, char *dir, size_t dirlen, char *err,
                        size_t errlen)
{
    struct wire_shadow q = {.op = WIRE_SHADOW_START, .pid = (uint32_t)pid,
                            .rundir = (char *)rundir, .rank = (uint32_t)rank,
                            .interval = interval, .every = every};
    struct wire_rd rd;
    if (ask(r, &q, &rd, err, errlen) < 0)
        return -1;
    uint32_t a;
    char *d = wire_get_u32(&rd, &a) < 0 ? NULL : wire_get_str(&rd);
    if (!d || !a || strlen(d) >= dirlen) {
        free(d);
        return malformed(r, err, errlen);
    }
    *id = (pid_t)a;
    snprintf(dir, dirlen, "%s", d);
    free(d);
    return 0;
}

int remote_shadow_poll(struct remote *r, pid_t id, int *st, char *err,
                       size_t errlen)
{
    struct wire_shadow q = {.op = WIRE_SHADOW_POLL, .id = (uint32_t)id};
    struct wire_rd rd;
    uint32_t ended, status;
    if (ask(r, &q, &rd, err, errlen) < 0)
        return -1;
    if (wire_get_u32(&rd, &ended) < 0 || wire_get_u32(&rd, &status) < 0)
        return malformed(r, err, errlen);
    *st = (int)status;
    return ended != 0;
}

int remote_shadow_stop(struct remote *r, pid_t id, int clear, char *err,
                       size_t errlen)
{
    struct wire_shadow q = {.op = WIRE_SHADOW_STOP, .id = (uint32_t)id,
                            .flags = clear ? WIRE_SHADOW_CLEAR : 0};
    struct wire_rd rd;
    return ask(r, &q, &rd, err, errlen);
}

int remote_shadow_list(struct remote *r, pid_t id,
                       struct launch_shadow_file **out, char *err,
                       size_t errlen)
{
    struct wire_shadow q = {.op = WIRE_SHADOW_LIST, .id = (uint32_t)id};
    struct wire_rd rd;
    size_t n;
    *out = NULL;
    if (ask(r, &q, &rd, err, errlen) < 0)
        return -1;
    if (wire_get_ckpt_files(&rd, out, &n) < 0)
        return malformed(r, err, errlen);
    return (int)n;
}
