/*
 * The client's view of run directories on the agent's host (remote.h):
 * a run's description (RUN) and its logs as copies without message data
 * (INDEX), whose elided bytes are READ when a reader reads them, and any
 * file range (remote_read); a rank's replay under GDB made ready there
 * (SETUP).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "launch.h"
#include "log-reader.h"
#include "rankset.h"
#include "remote.h"
#include "remote-int.h"
#include "util.h"
#include "wire.h"

/* log_fetch_fn: LEN bytes at OFF of the log on the host, read by READs. */
static int fetch(void *ud, uint64_t off, uint8_t *buf, uint64_t len,
                 char *err, size_t errlen)
{
    struct remote_src *s = ud;
    while (len) {
        long n = remote_read(s->r, s->dir, s->name, off, buf, (size_t)len,
                             err, errlen);
        if (n <= 0) {
            if (n == 0)
                snprintf(err, errlen, "%s:%s/%s ends before offset %llu "
                         "(the log changed?)", s->r->host, s->dir, s->name,
                         (unsigned long long)off);
            return -1;
        }
        s->r->fetched += (uint64_t)n;
        off += (uint64_t)n;
        buf += n;
        len -= (uint64_t)n;
    }
    return 0;
}

/* The fetch source of R's log of RANK in DIR (registered in R): it, or
 * NULL out of memory. */
static struct remote_src *new_src(struct remote *r, const char *dir,
                                  int rank)
{
    struct remote_src *s = calloc(1, sizeof *s), **ns;
    ns = s ? realloc(r->srcs, (r->nsrcs + 1) * sizeof *ns) : NULL;
    if (!ns || !(s->dir = strdup(dir))) {
        free(s);
        return NULL;
    }
    r->srcs = ns;
    r->srcs[r->nsrcs++] = s;
    s->r = r;
    snprintf(s->name, sizeof s->name, "rank-%d.log", rank);
    return s;
}

struct remote_index *remote_index_ask(struct remote *r, const char *dir,
                                      int rank, char *err, size_t errlen)
{
    struct remote_index *q = calloc(1, sizeof *q);
    if (!q || !(q->dir = strdup(dir))) {
        free(q);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    q->r = r;
    q->rank = rank;
    struct wire_buf b;
    wire_buf_init(&b);
    wire_put_str(&b, dir);
    wire_put_u32(&b, (uint32_t)rank);
    q->ch = remote__send(r, WIRE_INDEX, 0, &b);
    wire_buf_release(&b);
    /* sent now: the host makes the copy while the others are asked */
    if (!q->ch || wire_flush(&r->c) < 0) {
        snprintf(err, errlen, "%s", remote_lost(r) ? remote_error(r)
                 : "out of memory");
        remote_index_free(q);
        return NULL;
    }
    return q;
}

int remote_index_ready(const struct remote_index *q)
{
    return remote__answered(q->r, q->ch);
}

void remote_index_free(struct remote_index *q)
{
    if (q->ch)
        remote__drop(q->r, q->ch);
    free(q->dir);
    free(q);
}

int remote_index_take(struct remote_index *q, struct log_rank *lr,
                      char *err, size_t errlen)
{
    struct remote *r = q->r;
    struct wire_rd rd;
    uint64_t size, orig, data;
    char *why = NULL, name[4400];
    snprintf(name, sizeof name, "%s:%s/rank-%d.log", r->host, q->dir,
             q->rank);
    int rc = remote__take(r, q->ch, WIRE_IMAGE_END, err, errlen);
    q->ch = 0;
    /* the copy in r->reply (IMAGE frames), IMAGE_END's payload after */
    size_t got = wire_buf_size(&r->reply);
    struct wire_frame f = {WIRE_IMAGE_END, 0,
                           (uint32_t)wire_buf_size(&r->reply_end),
                           r->reply_end.p + r->reply_end.off};
    wire_rd_init(&rd, &f);
    if (rc == 0 &&
        (wire_get_u64(&rd, &size) < 0 || wire_get_u64(&rd, &orig) < 0 ||
         !(why = wire_get_str(&rd)) || wire_get_u64(&rd, &data) < 0 ||
         size != got || r->reply.off)) {
        snprintf(err, errlen, "%s sent a malformed copy of %s", r->host,
                 name);
        rc = -1;
    }
    struct remote_src *s = rc == 0 ? new_src(r, q->dir, q->rank) : NULL;
    if (rc == 0 && !s) {
        snprintf(err, errlen, "out of memory");
        rc = -1;
    }
    if (rc == 0) {
        r->copied += got;
        r->copied_of += orig;
        r->copied_data += data;
        /* The copy's buffer becomes the log's (LR owns it). */
        uint8_t *img = got ? r->reply.p : malloc(1);
        if (got)
            wire_buf_init(&r->reply);
        rc = img ? log_rank_open_mem(lr, img, got, name, fetch, s, err,
                                     errlen) : -1;
        if (!img)
            snprintf(err, errlen, "out of memory");
        if (rc == 0)
            snprintf(lr->stop_reason, sizeof lr->stop_reason, "%s", why);
    }
    free(why);
    remote_index_free(q);
    return rc < 0 ? -1 : 0;
}

int remote_log_open(struct remote *r, const char *dir, int rank,
                    struct log_rank *lr, char *err, size_t errlen)
{
    struct remote_index *q = remote_index_ask(r, dir, rank, err, errlen);
    if (!q)
        return -1;
    while (!remote_index_ready(q))
        if (remote_wait(&r, 1, -1) < 0) {
            snprintf(err, errlen, "waiting for %s: %s", r->host,
                     strerror(errno));
            remote_index_free(q);
            return -1;
        }
    return remote_index_take(q, lr, err, errlen);
}

long remote_read(struct remote *r, const char *dir, const char *name,
                 uint64_t off, void *buf, size_t len, char *err,
                 size_t errlen)
{
    if (len > WIRE_MAX_READ)
        len = WIRE_MAX_READ;
    struct wire_buf b;
    wire_buf_init(&b);
    wire_put_str(&b, dir);
    wire_put_str(&b, name);
    wire_put_u64(&b, off);
    wire_put_u32(&b, (uint32_t)len);
    int rc = remote__ask(r, WIRE_READ, &b, WIRE_DATA, err, errlen);
    wire_buf_release(&b);
    if (rc < 0)
        return -1;
    size_t n = wire_buf_size(&r->reply);
    if (n > len)
        n = len;
    memcpy(buf, r->reply.p + r->reply.off, n);
    return (long)n;
}

int remote_run_open(struct remote *r, const char *dir, struct log_run *run,
                    char *err, size_t errlen)
{
    struct wire_buf b;
    memset(run, 0, sizeof *run);
    wire_buf_init(&b);
    wire_put_str(&b, dir);
    struct wire_rd rd;
    int rc = remote__ask_data(r, WIRE_RUN, &b, &rd, err, errlen);
    wire_buf_release(&b);
    if (rc < 0)
        return -1;
    uint32_t ws;
    struct rankset set;
    int at;
    const char *why;
    char *ranks = NULL;
    if (wire_get_u32(&rd, &ws) < 0 || ws < 1 || ws > LOG_MAX_WORLD ||
        !(ranks = wire_get_str(&rd)) || !(run->text = wire_get_str(&rd)) ||
        rs_init(&set, (int)ws) < 0) {
        snprintf(err, errlen, "%s sent a malformed description of %s",
                 r->host, dir);
        free(ranks);
        log_run_release(run);
        return -1;
    }
    int bad = *ranks && rs_parse(ranks, strlen(ranks), &set, NULL, NULL,
                                 &at, &why) < 0;
    free(ranks);
    run->world_size = (int)ws;
    snprintf(run->dir, sizeof run->dir, "%s:%s", r->host, dir);
    if (!bad && rs_count(&set) &&
        !(run->present = calloc((size_t)rs_count(&set), sizeof (int))))
        bad = 1;
    for (int i = 0; !bad && i < (int)ws; i++)
        if (rs_has(&set, i))
            run->present[run->nranks_present++] = i;
    rs_release(&set);
    if (bad) {
        snprintf(err, errlen, "%s sent a malformed description of %s",
                 r->host, dir);
        log_run_release(run);
        return -1;
    }
    return 0;
}

uint64_t remote_fetched(const struct remote *r)
{
    return r->fetched;
}

int remote_setup_send(struct remote *r, const char *dir, int rank,
                      int in_place, unsigned *ticket, char *err,
                      size_t errlen)
{
    struct wire_buf b;
    wire_buf_init(&b);
    wire_put_str(&b, dir);
    wire_put_u32(&b, (uint32_t)rank);
    wire_put_u32(&b, in_place ? LAUNCH_GDB_IN_PLACE : 0);
    *ticket = remote__send(r, WIRE_SETUP, 0, &b);
    wire_buf_release(&b);
    if (*ticket)
        return 0;
    snprintf(err, errlen, "%s", remote_error(r));
    return -1;
}

int remote_setup_take(struct remote *r, unsigned ticket,
                      struct launch_gdb *g, char *err, size_t errlen)
{
    struct wire_rd rd;
    if (remote__take_data(r, ticket, &rd, err, errlen) < 0)
        return -1;
    if (wire_get_gdb(&rd, g) < 0) {
        snprintf(err, errlen, "%s: a malformed answer to SETUP", r->host);
        return -1;
    }
    return 0;
}

uint64_t remote_copied(const struct remote *r, uint64_t *of,
                       uint64_t *data)
{
    if (of)
        *of = r->copied_of;
    if (data)
        *data = r->copied_data;
    return r->copied;
}

uint64_t remote_wire_bytes(const struct remote *r)
{
    return r->c.nread;
}
