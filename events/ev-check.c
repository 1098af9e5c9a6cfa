/* ev-check.c - the table of checks, selecting them by name, running them
 * (ev-check.h). */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ev-check.h"
#include "ev-int.h"

static const struct ev_check_def *const areas[] = {
    ev_check_p2p_defs, ev_check_coll_defs, ev_check_deadlock_defs,
    ev_check_race_defs, ev_check_req_defs, ev_check_buf_defs,
    ev_check_rma_defs, ev_check_arg_defs, ev_check_typebuf_defs,
    ev_check_err_defs,
};
#define N_AREAS (sizeof areas / sizeof areas[0])

size_t ev_check_count(void)
{
    size_t n = 0;
    for (size_t a = 0; a < N_AREAS; a++)
        for (const struct ev_check_def *d = areas[a]; d->name; d++)
            n++;
    return n;
}

const struct ev_check_def *ev_check_at(size_t i)
{
    for (size_t a = 0; a < N_AREAS; a++)
        for (const struct ev_check_def *d = areas[a]; d->name; d++)
            if (!i--)
                return d;
    return NULL;
}

const char *ev_check_severity_name(int severity)
{
    return severity == EV_CHECK_ERROR     ? "error"
           : severity == EV_CHECK_WARNING ? "warning"
                                          : "portability";
}

int ev_check_select(const char *spec, unsigned char *on, char *err,
                    size_t errlen)
{
    size_t n = ev_check_count();
    memset(on, spec ? 0 : 1, n);
    for (const char *p = spec; p && *p;) {
        size_t len = strcspn(p, ",");
        int off = *p == '-';
        char word[128];
        if (len - (size_t)off >= sizeof word || len == (size_t)off) {
            snprintf(err, errlen, "'%.*s' in the list of checks is not a "
                     "check's name: `drdb check --list` names them",
                     (int)len, p);
            return -1;
        }
        memcpy(word, p + off, len - (size_t)off);
        word[len - (size_t)off] = 0;
        int hit = 0;
        for (size_t i = 0; i < n; i++)
            if (!strcmp(word, "all") ||
                !fnmatch(word, ev_check_at(i)->name, 0)) {
                on[i] = (unsigned char)!off;
                hit = 1;
            }
        if (!hit) {
            snprintf(err, errlen, "no check is named '%s': `drdb check "
                     "--list` names them", word);
            return -1;
        }
        p += len;
        if (*p == ',')
            p++;
    }
    return 0;
}

int ev_check_run(struct ev_check_ctx *c, const unsigned char *on, char *err,
                 size_t errlen)
{
    if (ev_build(c->x, err, errlen) < 0)
        return -1;
    size_t n = ev_check_count();
    for (size_t i = 0; i < n; i++) {
        if (!on[i])
            continue;
        if (c->interrupted && *c->interrupted)
            break;
        const struct ev_check_def *d = ev_check_at(i);
        char why[256] = "";
        if (d->run(c, why, sizeof why) < 0) {
            char msg[320];
            snprintf(msg, sizeof msg, "the check could not run: %s", why);
            c->note(c->ud, d->name, msg);
        }
    }
    return 0;
}

/* "A-B,C" into BUF (CAP bytes, *LEN so far): the ranks from LO to HI. */
static void put_range(char *buf, size_t cap, size_t *len, int lo, int hi)
{
    *len += (size_t)snprintf(buf + *len, cap - *len, lo < hi ? "%s%d-%d"
                             : "%s%d", *len ? "," : "", lo, hi);
}

void ev__check_note_unlogged(struct ev_check_ctx *c, const char *check,
                             const char *what)
{
    const struct ev_run *x = c->x;
    int missing = x->world_size - x->nlogged;
    if (missing <= 0)
        return;
    /* at most one range more than the logged ranks, 24 bytes each */
    size_t cap = 24 * ((size_t)x->nlogged + 1) + strlen(what) + 64, len = 0;
    char *ranks = malloc(cap), *msg = malloc(cap + 32);
    if (!ranks || !msg) {
        free(ranks);
        free(msg);
        c->note(c->ud, check, "out of memory listing the ranks without a log");
        return;
    }
    ranks[0] = '\0';
    int from = 0;
    for (int i = 0; i <= x->nlogged; i++) {
        int next = i < x->nlogged ? x->logged[i] : x->world_size;
        if (next > from)
            put_range(ranks, cap, &len, from, next - 1);
        from = next + 1;
    }
    if (missing == 1)
        snprintf(msg, cap + 32, "rank %s has no log%s", ranks, what);
    else
        snprintf(msg, cap + 32, "ranks %s: each rank has no log%s", ranks,
                 what);
    c->note(c->ud, check, msg);
    free(ranks);
    free(msg);
}
