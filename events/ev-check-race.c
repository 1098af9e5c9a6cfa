/*
 * ev-check-race.c - the race.* checks (ev-check.h; docs/check.md): message
 * races. A receive or probe posted with MPI_ANY_SOURCE takes whichever
 * matching message MPI finds first; another sender's message that could
 * have been there first makes the run's outcome depend on timing.
 *
 * For a wildcard W at rank r on communicator c that took rank p's send S,
 * another sender q's send S' to r on c is an alternative when
 *   - its tag is one W accepts (W's tag, or any with MPI_ANY_TAG);
 *   - it was not taken before W: the receive that took it was posted
 *     after W (MPI matches receives in posting order), or none took it;
 *   - it is the first of q's such sends (non-overtaking, MPI 4.0 3.5:
 *     only the oldest of one sender's matching messages can be taken);
 *   - W's completion did not happen before it (ev-causal.c): a message
 *     sent because W was received cannot have been W's.
 * A send S' that happened before S is still an alternative: messages of
 * two senders are not ordered by causality (MPI orders each channel
 * alone). Only MPI_ANY_SOURCE races: with a named source and
 * MPI_ANY_TAG, the non-overtaking rule leaves one candidate.
 *
 * Each alternative is named with the messages its sender received since
 * its previous send to the wildcard's rank, the latest CAUSES (what it
 * answers, in a request-reply program: the Search an othello Result was
 * computed for, and the Controls that came after it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ev-check.h"
#include "ev-int.h"

/* Messages named as what an alternative answers, at most. */
#define CAUSES 8

/* One race check's state: the channels (indices into ix->chans) sorted
 * by (dst, comm, src, tag), the happened-before edges once needed. */
struct race {
    struct ev_check_ctx *c;
    struct ev_run *x;
    struct ev_index *ix;
    struct ev__causal *causal;
    int32_t *chans;
    size_t nchans;
    const char *check;
    /* The findings, found from the last wildcard back (a rank's futures
     * cost one walk that way: ev-int.h) and emitted first to last. */
    struct rfound *found;
    size_t nfound, capfound;
    int32_t *alts; /* each finding's alternatives, in a row */
    size_t nalts, capalts;
};

/* A wildcard with alternatives: race_of()'s arguments and what it found. */
struct rfound {
    int r, fn, more;
    uint64_t event;
    int32_t comm, tag, s;
    size_t alt0;
    int nalt;
    const char *what;
};

static int cmp_chan(const void *a, const void *b, void *arg)
{
    const struct ev_index *ix = arg;
    const struct ev__chan *x = &ix->chans[*(const int32_t *)a];
    const struct ev__chan *y = &ix->chans[*(const int32_t *)b];
    if (x->dst != y->dst)
        return x->dst < y->dst ? -1 : 1;
    if (x->comm != y->comm)
        return x->comm < y->comm ? -1 : 1;
    if (x->src != y->src)
        return x->src < y->src ? -1 : 1;
    return (x->tag > y->tag) - (x->tag < y->tag);
}

static int race_init(struct race *k, struct ev_check_ctx *c, const char *check,
                     char *err, size_t errlen)
{
    const char *what = ": its wildcard receives and the messages it sent "
                       "are not checked";
    ev__check_note_unlogged(c, check, what);
    for (int i = 0; i < c->x->nlogged; i++)
        if (!c->x->ranks[c->x->logged[i]].present) {
            char msg[160];
            snprintf(msg, sizeof msg, "rank %d has no log%s",
                     c->x->logged[i], what);
            c->note(c->ud, check, msg);
        }
    memset(k, 0, sizeof *k);
    k->c = c;
    k->x = c->x;
    k->ix = c->x->ix;
    k->check = check;
    k->nchans = k->ix->nchans;
    k->chans = malloc((k->nchans + 1) * sizeof *k->chans);
    if (!k->chans) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < k->nchans; i++)
        k->chans[i] = (int32_t)i;
    qsort_r(k->chans, k->nchans, sizeof *k->chans, cmp_chan, k->ix);
    return 0;
}

static void race_release(struct race *k)
{
    free(k->found);
    free(k->alts);
    free(k->chans);
    ev__causal_free(k->causal);
}

/* The first of K's channels to DST on COMM. */
static size_t chans_to(const struct race *k, int32_t dst, int32_t comm)
{
    size_t lo = 0, hi = k->nchans;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const struct ev__chan *ch = &k->ix->chans[k->chans[mid]];
        if (ch->dst < dst || (ch->dst == dst && ch->comm < comm))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The first send of channel CH that no receive posted at or before ORDER
 * took (receives of a channel take its sends in order, and are sorted by
 * posting): a message index, or -1. */
static int32_t first_untaken(const struct ev_index *ix,
                             const struct ev__chan *ch, uint64_t order)
{
    uint32_t lo = 0, hi = ch->r_n < ch->s_n ? ch->r_n : ch->s_n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (ev__m_order(ix, ix->rorder[ch->r_first + mid]) <= order)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < ch->s_n ? ix->sorder[ch->s_first + lo] : -1;
}

/* What made rank Q send its event N to rank R: the sends of the messages
 * Q completed since its previous send to R (what a reply answers: its
 * request, and what came after it), in order, into OUT (message indices);
 * returns how many. More than MAX: the first (the request) and the latest
 * MAX - 1 (a Search followed by many window updates keeps its Search). */
static int causes(const struct ev_index *ix, int q, uint64_t n, int r,
                  int32_t *out, int max)
{
    enum { LOOK = 1024 };
    int32_t got[LOOK]; /* the latest first */
    const struct ev__rank_ix *ri = &ix->r[q];
    size_t i = ev__ref_lower(ix, ri, n);
    int k = 0;
    for (int look = 0; i > 0 && look < LOOK; look++) {
        const struct ev__xref ee = ev__ref_at(ix, ri, --i), *e = &ee;
        if (e->role != EV_CALL && e->role != EV_DONE)
            continue;
        struct ev_msg m_buf;
        const struct ev_msg *m = ev__msgp(ix, e->i, &m_buf);
        if ((m->flags & EV_M_SEND) && m->peer == r && e->role == EV_CALL)
            break;
        if (!(m->flags & EV_M_SEND) && m->done == e->event && m->match >= 0)
            got[k++] = m->match;
    }
    if (max < 1)
        return 0;
    int keep = k <= max ? k : max, o = 0;
    if (k > max)
        out[o++] = got[k - 1]; /* the first: the request */
    for (int j = keep - o - 1; j >= 0; j--)
        out[o++] = got[j];
    return o;
}

/*
 * The wildcard at rank R (FN, its event EVENT) on COMM with tag TAG (-1:
 * MPI_ANY_TAG) that took send S (a message index): after those taken by
 * receives posted at or before ORDER, completed at DONE. Keeps a finding
 * (race_flush() emits it) when another sender's message could have been
 * taken. 0, or -1 (out of memory).
 */
static int race_of(struct race *k, int r, int fn, uint64_t event,
                   int32_t comm, int32_t tag, int32_t s, uint64_t order,
                   uint64_t done, const char *what)
{
    struct ev_index *ix = k->ix;
    int32_t p = ev__m_rank(ix, s);
    /* per sender, its oldest message W could take */
    int32_t alt[64];
    int nalt = 0, more = 0;
    for (size_t i = chans_to(k, r, comm); i < k->nchans; i++) {
        const struct ev__chan *ch = &ix->chans[k->chans[i]];
        if (ch->dst != r || ch->comm != comm)
            break;
        if (ch->src == p || (tag >= 0 && ch->tag != tag))
            continue;
        int32_t m = first_untaken(ix, ch, order);
        if (m < 0)
            continue;
        if (nalt > 0 && ev__m_rank(ix, alt[nalt - 1]) == ch->src) {
            if (ev__m_event(ix, m) < ev__m_event(ix, alt[nalt - 1]))
                alt[nalt - 1] = m;
        } else if (nalt < 64) {
            alt[nalt++] = m;
        } else {
            more = 1;
        }
    }
    if (!nalt)
        return 0;
    if (!k->causal && !(k->causal = ev__causal_build(k->x)))
        return -1;
    const int64_t *fut = ev__causal_walk(k->causal, k->x, r, done, 1);
    int keep = 0;
    for (int a = 0; a < nalt; a++)
        if ((int64_t)ev__m_event(ix, alt[a]) < fut[ev__m_rank(ix, alt[a])])
            alt[keep++] = alt[a];
    if (!keep)
        return 0;
    if (util_grow(&k->found, &k->capfound, k->nfound + 1,
                  sizeof *k->found) < 0 ||
        util_grow(&k->alts, &k->capalts, k->nalts + (size_t)keep,
                  sizeof *k->alts) < 0)
        return -1;
    k->found[k->nfound++] = (struct rfound){r, fn, more, event, comm, tag,
                                            s, k->nalts, keep, what};
    memcpy(k->alts + k->nalts, alt, (size_t)keep * sizeof *alt);
    k->nalts += (size_t)keep;
    return 0;
}

/* Emits finding F. */
static void race_emit(struct race *k, const struct rfound *f0)
{
    struct ev_index *ix = k->ix;
    int r = f0->r, fn = f0->fn, more = f0->more, keep = f0->nalt;
    uint64_t event = f0->event;
    int32_t comm = f0->comm, tag = f0->tag, s = f0->s;
    int32_t p = ev__m_rank(ix, s);
    const int32_t *alt = k->alts + f0->alt0;
    const char *what = f0->what;
    struct ev_check_site sites[2 + (1 + CAUSES) * 64];
    int ns = 0;
    sites[ns++] = (struct ev_check_site){r, event, what};
    int probe = !strcmp(what, "wildcard probe");
    sites[ns++] = (struct ev_check_site){p, ev__m_event(ix, s),
                                         probe ? "seen" : "took"};
    struct ev_check_finding f = {k->check, EV_CHECK_WARNING, "", sites, 0};
    char cb[32], tb[32];
    if (tag >= 0)
        snprintf(tb, sizeof tb, "tag %d", (int)tag);
    else
        snprintf(tb, sizeof tb, "MPI_ANY_TAG");
    int len = snprintf(f.message, sizeof f.message,
                       "%s(MPI_ANY_SOURCE, %s, %s) at rank %d %s rank "
                       "%d's message (tag %d);", log_func_name(fn), tb,
                       ev__comm_name(comm, cb, sizeof cb), r,
                       probe ? "saw" : "took", (int)p,
                       (int)ev__msg(ix, s).tag);
    for (int a = 0; a < keep; a++) {
        struct ev_msg m_buf;
        const struct ev_msg *m = ev__msgp(ix, alt[a], &m_buf);
        sites[ns++] = (struct ev_check_site){m->rank, m->event,
                                             "could have been taken"};
        int32_t why[CAUSES];
        int nwhy = causes(ix, m->rank, m->event, r, why, CAUSES);
        for (int j = 0; j < nwhy; j++)
            sites[ns++] = (struct ev_check_site){
                ev__m_rank(ix, why[j]), ev__m_event(ix, why[j]),
                "received by its sender before it"};
        if (len < (int)sizeof f.message)
            len += snprintf(f.message + len, sizeof f.message - (size_t)len,
                            "%s rank %d's (tag %d)", a ? "," : "",
                            (int)m->rank, (int)m->tag);
    }
    if (len < (int)sizeof f.message)
        snprintf(f.message + len, sizeof f.message - (size_t)len,
                 " could have come first%s", more ? " (and others)" : "");
    f.nsites = ns;
    k->c->emit(k->c->ud, &f);
}

/* Emits what race_of() found, first to last. */
static void race_flush(struct race *k)
{
    for (size_t i = k->nfound; i > 0; i--)
        race_emit(k, &k->found[i - 1]);
}

static int interrupted(const struct ev_check_ctx *c)
{
    return c->interrupted && *c->interrupted;
}

/* Runs CHECK: SCAN looks at the wildcards (race_of()), the findings are
 * emitted. */
static int race_run(struct ev_check_ctx *c, const char *check,
                    int (*scan)(struct race *k), char *err, size_t errlen)
{
    struct race k;
    if (race_init(&k, c, check, err, errlen) < 0)
        return -1;
    int rc = scan(&k);
    if (rc == 0)
        race_flush(&k);
    race_release(&k);
    if (rc < 0)
        snprintf(err, errlen, "out of memory");
    return rc;
}

/* The wildcard receives, the last first. */
static int scan_recv(struct race *k)
{
    struct ev_index *ix = k->ix;
    int rc = 0;
    for (size_t i = ix->nmsgs; i-- > 0 && rc == 0;) {
        struct ev_msg m_buf;
        const struct ev_msg *m = ev__msgp(ix, i, &m_buf);
        if ((i & 4095) == 0 && interrupted(k->c))
            break;
        if ((m->flags & EV_M_SEND) || m->match < 0 || m->done == EV_NONE ||
            m->comm < 0)
            continue;
        uint64_t at = ev__posting(m);
        int w = ev__wildcard_at(k->x, m->rank, at);
        if (!(w & EV__WILD_SOURCE))
            continue;
        int32_t tag = (w & EV__WILD_TAG) ? -1 : m->tag;
        /* a persistent one: the MPI_Start that made this instance; the
         * call that said MPI_ANY_SOURCE is its MPI_Recv_init */
        uint64_t site = (m->flags & EV_M_PERSISTENT) ? m->event : at;
        rc = race_of(k, m->rank, ev_fn(k->x, m->rank, at), site, m->comm,
                     tag, m->match, m->order,
                     (m->flags & EV_M_PROBED) ? m->order : m->done,
                     "wildcard receive");
    }
    return rc;
}

static int run_recv(struct ev_check_ctx *c, char *err, size_t errlen)
{
    return race_run(c, "race.any-source", scan_recv, err, errlen);
}

/* The wildcard probes, the last first. */
static int scan_probe(struct race *k)
{
    struct ev_run *x = k->x;
    int rc = 0;
    for (int r = x->world_size; r-- > 0 && rc == 0;) {
        if (!x->ranks[r].present || interrupted(k->c))
            continue;
        for (uint64_t e = x->ranks[r].log.nevents; e-- > 0 && rc == 0;) {
            int fn = ev_fn(x, r, e);
            if (ev__fn(k->ix, fn)->cls != EV__C_PROBE)
                continue;
            struct ev_ref ref;
            int w = ev__wildcard_at(x, r, e);
            if (!(w & EV__WILD_SOURCE) ||
                ev_partners(x, r, e, &ref, 1, NULL, 0) != 1 || ref.other < 0)
                continue;
            int32_t tag = (w & EV__WILD_TAG) ? -1 : ref.tag;
            rc = race_of(k, r, fn, e, ref.comm, tag, ref.other, e, e,
                         "wildcard probe");
        }
    }
    return rc;
}

static int run_probe(struct ev_check_ctx *c, char *err, size_t errlen)
{
    return race_run(c, "race.any-source-probe", scan_probe, err, errlen);
}

const struct ev_check_def ev_check_race_defs[] = {
    {"race.any-source", EV_CHECK_WARNING,
     "a receive with MPI_ANY_SOURCE could have taken another sender's "
     "message: the run depends on timing", run_recv},
    {"race.any-source-probe", EV_CHECK_WARNING,
     "a probe with MPI_ANY_SOURCE could have seen another sender's message "
     "first", run_probe},
    {NULL, 0, NULL, NULL},
};
