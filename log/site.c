/*
 * Call sites and buffer addresses of a record (log-reader.h,
 * log-format.h: LOG_REC_SITE), and the loaded objects they name.
 */
#include <errno.h>
#include <string.h>

#include "log-reader.h"

int log_event_site(const struct log_event *ev, uint32_t *obj, uint64_t *off)
{
    if (!(ev->flags & LOG_REC_SITE))
        return 0;
    *obj = ev->site_obj;
    *off = ev->site_off;
    return 1;
}

int log_event_frame(const struct log_event *ev, uint64_t *cfa)
{
    if (!(ev->flags & LOG_REC_SITE) || !(ev->flags & LOG_REC_BUFS))
        return 0;
    struct log_field f;
    size_t cur = 0;
    int rc;
    while ((rc = log_event_field(ev, &cur, &f)) == 1) {
        if (f.kind != LOG_F_FRAME)
            continue;
        const uint8_t *p = f.data;
        if (log_get_varint(&p, f.data + f.len, cfa) || p != f.data + f.len)
            return -EINVAL;
        return 1;
    }
    return rc < 0 ? -EINVAL : 0;
}

int log_event_bufaddr(const struct log_event *ev, int i,
                      struct log_bufaddr *b)
{
    unsigned version = ev->rank ? ev->rank->hdr.version : LOG_VERSION;
    if (!log__has_bufs(ev->desc, ev->flags, version) ||
        ev->cycle || i < 0 || i >= ev->desc->nbufs)
        return 0;
    const uint8_t *p = ev->bufs, *end = ev->bufs + ev->bufs_len;
    uint64_t span1 = 0;
    for (int k = 0; k <= i; k++)
        if (log_get_bufaddr(&p, end, &b->addr, &b->lb, &span1))
            return -EINVAL;
    b->arg = ev->desc->bufs[i];
    b->known = span1 != 0;
    b->span = span1 ? span1 - 1 : 0;
    return 1;
}

/* Decodes F (a LOG_F_OBJECT field) into O: 0 or -EINVAL. */
static int object_decode(const struct log_field *f, struct log_object *o)
{
    const uint8_t *p = f->data, *end = f->data + f->len;
    uint64_t bias, idlen;
    if (log_get_varint(&p, end, &bias) || log_get_varint(&p, end, &idlen) ||
        idlen > sizeof o->build_id || idlen > (uint64_t)(end - p))
        return -EINVAL;
    o->id = (uint32_t)f->elem;
    o->bias = bias;
    o->build_id_len = (size_t)idlen;
    memcpy(o->build_id, p, (size_t)idlen);
    p += idlen;
    size_t n = (size_t)(end - p);
    if (n >= sizeof o->path || memchr(p, 0, n))
        return -EINVAL;
    memcpy(o->path, p, n);
    o->path[n] = '\0';
    return 0;
}

int log_rank_object(const struct log_rank *r, uint32_t id,
                    struct log_object *o)
{
    for (uint64_t n = 0; n < r->nevents; n++) {
        struct log_event ev;
        if (log_rank_event(r, n, &ev, NULL, 0) < 0)
            return -EINVAL;
        /* Only the first call from an object carries it: a record
         * without a site, or from an object numbered lower, cannot. */
        if (!(ev.flags & LOG_REC_SITE) || ev.cycle)
            continue;
        size_t cur = 0;
        struct log_field f;
        int rc;
        while ((rc = log_event_next_stored(&ev, &cur, &f)) == 1) {
            if (f.kind != LOG_F_OBJECT || f.elem != id)
                continue;
            if (object_decode(&f, o) < 0)
                return -EINVAL;
            o->event = n;
            return 1;
        }
        if (rc < 0)
            return -EINVAL;
    }
    return 0;
}
