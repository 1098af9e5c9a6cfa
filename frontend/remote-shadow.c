/* Shadows of a host's replays, through its agent (remote.h; wire.h's
 * SHADOW). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "remote-int.h"
#include "remote.h"

/* SHADOW op OP for shadow ID (0: none, START) with B's fields after it,
 * its answer through *RD: 0, or -1 with ERR. */
static int ask(struct remote *r, unsigned op, pid_t id, uint32_t flags,
               struct wire_buf *b, struct wire_rd *rd, char *err,
               size_t errlen)
{
    struct wire_buf q;
    wire_buf_init(&q);
    wire_put_u32(&q, op);
    if (op != WIRE_SHADOW_START)
        wire_put_u32(&q, (uint32_t)id);
    if (op == WIRE_SHADOW_STOP)
        wire_put_u32(&q, flags);
    if (b)
        wire_buf_add(&q, b->p, b->len);
    int rc = q.oom ? -1 : remote__ask_data(r, WIRE_SHADOW, &q, rd, err,
                                          errlen);
    if (q.oom)
        snprintf(err, errlen, "out of memory");
    wire_buf_release(&q);
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
    struct wire_buf b;
    struct wire_rd rd;
    uint64_t bits;
    memcpy(&bits, &interval, sizeof bits);
    wire_buf_init(&b);
    wire_put_u32(&b, (uint32_t)pid);
    wire_put_str(&b, rundir ? rundir : "");
    wire_put_u32(&b, (uint32_t)rank);
    wire_put_u64(&b, bits);
    wire_put_u64(&b, every);
    int rc = ask(r, WIRE_SHADOW_START, 0, 0, &b, &rd, err, errlen);
    wire_buf_release(&b);
    if (rc < 0)
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
    struct wire_rd rd;
    uint32_t ended, status;
    if (ask(r, WIRE_SHADOW_POLL, id, 0, NULL, &rd, err, errlen) < 0)
        return -1;
    if (wire_get_u32(&rd, &ended) < 0 || wire_get_u32(&rd, &status) < 0)
        return malformed(r, err, errlen);
    *st = (int)status;
    return ended != 0;
}

int remote_shadow_stop(struct remote *r, pid_t id, int clear, char *err,
                       size_t errlen)
{
    struct wire_rd rd;
    return ask(r, WIRE_SHADOW_STOP, id, clear ? WIRE_SHADOW_CLEAR : 0, NULL,
               &rd, err, errlen);
}

int remote_shadow_list(struct remote *r, pid_t id,
                       struct remote_ckpt_file **out, char *err,
                       size_t errlen)
{
    struct wire_rd rd;
    uint32_t n;
    *out = NULL;
    if (ask(r, WIRE_SHADOW_LIST, id, 0, NULL, &rd, err, errlen) < 0)
        return -1;
    if (wire_get_u32(&rd, &n) < 0 || n > WIRE_MAX_READ / 52)
        return malformed(r, err, errlen);
    struct remote_ckpt_file *v = calloc(n ? n : 1, sizeof *v);
    if (!v) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (uint32_t i = 0; i < n; i++) {
        char *name = wire_get_str(&rd);
        uint64_t f[6] = {0};
        for (int j = 0; j < 6; j++)
            wire_get_u64(&rd, &f[j]);
        if (!name || rd.bad || strlen(name) >= sizeof v[i].name ||
            strchr(name, '/')) {
            free(name);
            free(v);
            return malformed(r, err, errlen);
        }
        snprintf(v[i].name, sizeof v[i].name, "%s", name);
        free(name);
        v[i].id = (long)f[0];
        v[i].parent = (long)f[1];
        v[i].event = f[2];
        memcpy(&v[i].time, &f[3], sizeof v[i].time);
        v[i].pages = f[4];
        v[i].bytes = f[5];
    }
    *out = v;
    return (int)n;
}
