/*
 * Polling cycles in a log (LOG_REC_CYCLE, log-format.h): checking a cycle
 * record's body when the reader indexes it, its members as events of
 * their own, and the values of its timer calls. Untrusted input: every
 * length is checked against the record's end.
 */
#include <errno.h>
#include <string.h>

#include "log-reader.h"

/* Reads the member at *P: its function, flags, and body. 0 or -1. */
static int member_next(const uint8_t **p, const uint8_t *end, uint64_t *fn,
                       uint64_t *flags, const uint8_t **body, uint64_t *len)
{
    if (log_get_varint(p, end, fn) || log_get_varint(p, end, flags) ||
        log_get_varint(p, end, len) || *len > (uint64_t)(end - *p))
        return -1;
    *body = *p;
    *p += *len;
    return 0;
}

/* M's arguments and fields from BODY (LEN bytes) of function FN: the
 * argument block is as long as its varints. 0 or -1. */
static int member_event(struct log_event *m, uint64_t fn, const uint8_t *body,
                        uint64_t len)
{
    const uint8_t *p = body, *end = body + len;
    uint64_t v;
    m->fn = (int)fn;
    m->desc = log_func_by_id((int)fn);
    if (!m->desc)
        return -1;
    m->args = body;
    for (int i = 0; i < m->desc->nargs; i++)
        if (m->desc->args[i].enc && log_get_varint(&p, end, &v))
            return -1;
    m->args_len = (size_t)(p - body);
    m->fields = p;
    m->fields_len = (size_t)(end - p);
    return 0;
}

int log__cycle_parse(struct log_event *ev, uint64_t k, const uint8_t *p,
                     const uint8_t *end, char *why, size_t len)
{
    if (!(ev->flags & LOG_REC_REPEAT) || ev->repeat == 0 || k == 0 ||
        k > LOG_CYCLE_MAX || (ev->flags & LOG_REC_RET)) {
        log_errf(why, len, "a malformed polling cycle (%llu calls)",
                 (unsigned long long)k);
        return -1;
    }
    ev->cycle = (unsigned)k;
    ev->cycle_nvalues = 0;
    ev->members = p;
    for (uint64_t i = 0; i < k; i++) {
        uint64_t fn, flags, blen;
        const uint8_t *body;
        struct log_event m;
        if (member_next(&p, end, &fn, &flags, &body, &blen) ||
            (flags & ~(uint64_t)LOG_CYCLE_VALUE) || fn > 0xffff ||
            member_event(&m, fn, body, blen) ||
            ((flags & LOG_CYCLE_VALUE) && blen) ||
            (i == 0 && fn != (uint64_t)ev->fn)) {
            log_errf(why, len, "a malformed member %llu of a polling cycle",
                     (unsigned long long)i);
            return -1;
        }
        if (i == 0) {
            ev->desc = m.desc;
            ev->args = m.args;
            ev->args_len = m.args_len;
            ev->fields = m.fields;
            ev->fields_len = m.fields_len;
        }
        ev->cycle_nvalues += (flags & LOG_CYCLE_VALUE) != 0;
    }
    ev->members_len = (size_t)(p - ev->members);
    ev->values = p;
    ev->values_len = (size_t)(end - p);
    /* Exactly one value per VALUE member and run: count them. */
    uint64_t want = ev->cycle_nvalues, got = 0, v;
    if (want && ev->repeat > ev->values_len / want)
        goto bad_values;
    want *= ev->repeat;
    while (p < end && got <= want) {
        if (log_get_varint(&p, end, &v))
            goto bad_values;
        got++;
    }
    if (got == want)
        return 0;
bad_values:
    log_errf(why, len, "a polling cycle whose values do not match its %llu "
             "runs", (unsigned long long)ev->repeat);
    return -1;
}

uint64_t log_event_calls(const struct log_event *ev)
{
    if (!(ev->flags & LOG_REC_REPEAT))
        return 1;
    return ev->cycle ? ev->repeat * ev->cycle : ev->repeat;
}

int log_cycle_member(const struct log_event *ev, unsigned i,
                     struct log_event *m, unsigned *mflags)
{
    if (i >= ev->cycle || !ev->members)
        return -EINVAL;
    const uint8_t *p = ev->members, *end = ev->members + ev->members_len;
    uint64_t fn = 0, flags = 0, blen = 0;
    const uint8_t *body = NULL;
    for (unsigned k = 0; k <= i; k++)
        if (member_next(&p, end, &fn, &flags, &body, &blen))
            return -EINVAL;
    struct log_event tmp = *ev;
    tmp.flags = 0;
    tmp.repeat = 1;
    tmp.ret = 0;
    tmp.cycle = tmp.cycle_nvalues = 0;
    tmp.members = tmp.values = NULL;
    tmp.members_len = tmp.values_len = 0;
    if (member_event(&tmp, fn, body, blen))
        return -EINVAL;
    *m = tmp;
    if (mflags)
        *mflags = (unsigned)flags;
    return 0;
}

void log_cycle_values_init(const struct log_event *ev,
                           struct log_cycle_values *it)
{
    it->p = it->end = ev->values; /* NULL: not a cycle, no values */
    if (ev->values)
        it->end += ev->values_len;
    it->bits = 0;
}

int log_cycle_value_next(struct log_cycle_values *it, double *v)
{
    uint64_t z;
    if (it->p >= it->end)
        return 0;
    if (log_get_varint(&it->p, it->end, &z))
        return -EINVAL;
    it->bits += (uint64_t)log_unzigzag64(z);
    memcpy(v, &it->bits, sizeof *v);
    return 1;
}
