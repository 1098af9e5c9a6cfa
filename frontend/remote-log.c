/*
 * The client's view of run directories on the agent's host (remote.h):
 * a run's description (RUN) and its logs as copies without message data
 * (INDEX), whose elided bytes are READ when a reader reads them, and any
 * file range (remote_read); a rank's replay under GDB made ready there
 * (SETUP).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "launch.h"
#include "log-reader.h"
#include "rankset.h"
#include "remote.h"
#include "remote-int.h"
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

int remote_log_open(struct remote *r, const char *dir, int rank,
                    struct log_rank *lr, char *err, size_t errlen)
{
    struct remote_src *s = calloc(1, sizeof *s), **ns;
    ns = s ? realloc(r->srcs, (r->nsrcs + 1) * sizeof *ns) : NULL;
    if (!ns || !(s->dir = strdup(dir))) {
        free(s);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    r->srcs = ns;
    r->srcs[r->nsrcs++] = s;
    s->r = r;
    snprintf(s->name, sizeof s->name, "rank-%d.log", rank);
    struct wire_buf b;
    wire_buf_init(&b);
    wire_put_str(&b, dir);
    wire_put_u32(&b, (uint32_t)rank);
    int rc = remote__ask(r, WIRE_INDEX, &b, WIRE_IMAGE_END, err, errlen);
    wire_buf_release(&b);
    if (rc < 0)
        return -1;
    struct wire_frame f = {WIRE_IMAGE_END, 0,
                           (uint32_t)wire_buf_size(&r->reply_end),
                           r->reply_end.p + r->reply_end.off};
    struct wire_rd rd;
    uint64_t size, orig;
    wire_rd_init(&rd, &f);
    char *why = NULL;
    size_t got = wire_buf_size(&r->reply);
    if (wire_get_u64(&rd, &size) < 0 || wire_get_u64(&rd, &orig) < 0 ||
        !(why = wire_get_str(&rd)) || size != got) {
        snprintf(err, errlen, "%s sent a malformed copy of %s/%s", r->host,
                 dir, s->name);
        free(why);
        return -1;
    }
    r->copied += got;
    r->copied_of += orig;
    uint8_t *img = malloc(got ? got : 1);
    if (!img) {
        snprintf(err, errlen, "out of memory");
        free(why);
        return -1;
    }
    memcpy(img, r->reply.p + r->reply.off, got);
    char name[4400];
    snprintf(name, sizeof name, "%s:%s/%s", r->host, dir, s->name);
    rc = log_rank_open_mem(lr, img, got, name, fetch, s, err, errlen);
    if (rc == 0)
        snprintf(lr->stop_reason, sizeof lr->stop_reason, "%s", why);
    free(why);
    return rc < 0 ? -1 : 0;
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

uint64_t remote_copied(const struct remote *r, uint64_t *of)
{
    if (of)
        *of = r->copied_of;
    return r->copied;
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
