/*
 * ev-check-req.c - the checks of requests, resources and messages
 * (ev-check.h; docs/check.md):
 *
 *   req.leak              a request never completed nor freed by the end of
 *                         a run that reached MPI_Finalize
 *   req.used-after-free   a Wait/Test, MPI_Start or MPI_Request_free of a
 *                         handle whose request was already completed or
 *                         freed (the program kept a copy of the handle)
 *   req.restart-active    MPI_Start of a persistent request still active
 *   res.leak              a communicator, group, datatype, window, error
 *                         handler, operation or info object never freed,
 *                         or a file never closed, before MPI_Finalize
 *                         (predefined ones excluded)
 *   msg.unreceived        a message sent and never received
 *   msg.unmatched-receive a receive posted and never matched
 *
 * Requests come from the index's pass over each log (ev_req_issue_at:
 * ev-req.c follows every handle); resources from one more pass over the
 * calls that make or free them; messages from the index's matching. What
 * a rank whose log does not reach MPI_Finalize left behind is no leak: the
 * rank stopped early; a note says so. Many instances from one call (a loop
 * that leaks thousands) are one finding, which says how many.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ev-check.h"
#include "ev-int.h"
#include "log-abi.h"
#include "log.h"

#define MAX_SITES 8

/* ---- helpers --------------------------------------------------------------- */

/* Appends to BUF (of LEN) at *AT. */
static void put(char *buf, size_t len, size_t *at, const char *fmt, ...)
{
    va_list ap;
    if (*at >= len)
        return;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *at, len - *at, fmt, ap);
    va_end(ap);
    if (n > 0)
        *at += (size_t)n;
}

/* Rank R's call N with its by-value arguments, handles by name:
 * "MPI_Irecv(count 1, datatype MPI_INT, source 1, tag 7, comm
 * MPI_COMM_WORLD)"; a communicator that is not predefined by its id. */
static void call_desc(struct ev_run *x, int r, uint64_t n, char *buf,
                      size_t len)
{
    struct log_event ev;
    size_t at = 0;
    buf[0] = 0;
    if (n == EV_NONE || ev_event(x, r, n, &ev, NULL, 0) < 0) {
        put(buf, len, &at, "an unknown call");
        return;
    }
    const struct log_func_desc *d = log_func_by_id(ev.fn);
    int64_t a[24];
    int na = log_event_args(&ev, a, 24);
    put(buf, len, &at, "%s(", log_func_name(ev.fn));
    int first = 1;
    for (int i = 0; d && i < d->nargs; i++) {
        const struct log_arg_desc *ad = &d->args[i];
        if (ad->vpos < 0 || ad->vpos >= na)
            continue;
        int64_t v = a[ad->vpos];
        put(buf, len, &at, "%s%s ", first ? "" : ", ", ad->name);
        first = 0;
        if (ad->enc != LOG_ENC_HANDLE) {
            put(buf, len, &at, "%" PRId64, v);
            continue;
        }
        uint32_t h = (uint32_t)v;
        const char *name = log_mpi_handle_name(ad->ctype, h);
        int side, c;
        if (name)
            put(buf, len, &at, "%s", name);
        else if (!strcmp(ad->ctype, "MPI_Comm") &&
                 (c = ev_comm_of(x, r, n, h, &side)) >= 0)
            put(buf, len, &at, "comm #%d", c);
        else
            put(buf, len, &at, "0x%08x", h);
    }
    put(buf, len, &at, ")");
}

/* Whether rank R's log reaches MPI_Finalize. */
static int finalized(struct ev_run *x, int r)
{
    char why[256];
    return x->ranks[r].present &&
           log_rank_ending(&x->ranks[r].log, why, sizeof why) ==
               LOG_END_COMPLETE;
}

/* Notes, for CHECK, each rank whose log does not reach MPI_Finalize. */
static void note_unfinished(struct ev_check_ctx *c, const char *check,
                            const char *what)
{
    struct ev_run *x = c->x;
    char tail[300];
    snprintf(tail, sizeof tail, "%s: %s", MISSING_WHY, what);
    ev__check_note_unlogged(c, check, tail);
    for (int i = 0; i < x->nlogged; i++) {
        char why[256], msg[400];
        int r = x->logged[i];
        if (!x->ranks[r].present)
            snprintf(msg, sizeof msg, "rank %d has no log (%s): %s", r,
                     ev_rank_missing(x, r), what);
        else if (log_rank_ending(&x->ranks[r].log, why, sizeof why) !=
                 LOG_END_COMPLETE)
            snprintf(msg, sizeof msg, "rank %d's log does not reach "
                     "MPI_Finalize (%s): %s", r, why, what);
        else
            continue;
        c->note(c->ud, check, msg);
    }
}

/* ---- grouping --------------------------------------------------------------- */

/* One instance of a defect: what makes instances one finding (KEY: the
 * call that made them and what they are), where it is, and a second event
 * it names (EV_NONE: none). */
struct item {
    uint32_t key[4];
    int32_t rank;
    uint64_t event;
    uint64_t other;
    uint64_t made;
};

struct items {
    struct item *v;
    size_t n, cap;
};

static int items_add(struct items *it, const struct item *e)
{
    if (util_grow(&it->v, &it->cap, it->n + 1, sizeof *it->v) < 0)
        return -1;
    it->v[it->n++] = *e;
    return 0;
}

static int cmp_item(const void *a, const void *b)
{
    const struct item *x = a, *y = b;
    int k = memcmp(x->key, y->key, sizeof x->key);
    if (k)
        return k;
    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    return (x->event > y->event) - (x->event < y->event);
}

/* A group of instances G[0..N) (same key, by rank and event): its message
 * into BUF; ROLES the sites' roles (the first instance's event, its other
 * event, its making call). */
struct group_fmt {
    const char *check;
    int severity;
    const char *role, *other_role, *made_role;
    void (*message)(struct ev_check_ctx *c, const struct item *g, size_t n,
                    int nranks, char *buf, size_t len);
    /* a group's own severity (NULL: SEVERITY) */
    int (*severity_of)(const struct item *g);
};

/* Sorts IT and emits one finding per key: the first instance of each
 * rank as sites (at most MAX_SITES events). */
static void emit_groups(struct ev_check_ctx *c, struct items *it,
                        const struct group_fmt *gf)
{
    qsort(it->v, it->n, sizeof *it->v, cmp_item);
    for (size_t i = 0; i < it->n;) {
        size_t j = i + 1;
        while (j < it->n && !memcmp(it->v[j].key, it->v[i].key,
                                    sizeof it->v[i].key))
            j++;
        struct ev_check_site sites[MAX_SITES];
        int ns = 0, nranks = 0;
        for (size_t k = i; k < j; k++) {
            const struct item *e = &it->v[k];
            if (k > i && e->rank == it->v[k - 1].rank)
                continue;
            nranks++;
            if (ns < MAX_SITES)
                sites[ns++] = (struct ev_check_site){e->rank, e->event,
                                                     gf->role};
            if (gf->other_role && e->other != EV_NONE && ns < MAX_SITES)
                sites[ns++] = (struct ev_check_site){e->rank, e->other,
                                                     gf->other_role};
            if (gf->made_role && e->made != EV_NONE && e->made != e->event &&
                ns < MAX_SITES)
                sites[ns++] = (struct ev_check_site){e->rank, e->made,
                                                     gf->made_role};
        }
        struct ev_check_finding f = {gf->check,
                                     gf->severity_of
                                         ? gf->severity_of(it->v + i)
                                         : gf->severity,
                                     "", sites, ns};
        gf->message(c, it->v + i, j - i, nranks, f.message,
                    sizeof f.message);
        c->emit(c->ud, &f);
        i = j;
    }
}

/* " on 2 ranks" when more than one; "" else. */
static const char *on_ranks(int nranks, char *buf, size_t len)
{
    if (nranks > 1)
        snprintf(buf, len, " on %d ranks", nranks);
    else
        buf[0] = 0;
    return buf;
}

/* ---- req.* -------------------------------------------------------------------- */

static void leak_msg(struct ev_check_ctx *c, const struct item *g, size_t n,
                     int nranks, char *buf, size_t len)
{
    char call[300], rk[32];
    call_desc(c->x, g->rank, g->event, call, sizeof call);
    const char *what = !g->key[1] ? "never completed nor freed"
                       : g->key[2] ? "started and never completed nor freed"
                                   : "never freed (MPI_Request_free)";
    snprintf(buf, len, "%zu %srequest%s of %s%s %s %s before MPI_Finalize",
             n, g->key[1] ? "persistent " : "", n > 1 ? "s" : "", call,
             on_ranks(nranks, rk, sizeof rk), n > 1 ? "were" : "was", what);
}

/* An operation the rank started and never completed (a nonblocking one,
 * a started persistent one) is an error: MPI_Finalize requires every
 * operation a process initiated locally complete (MPI 4.0 section
 * 11.2.2); an inactive persistent request never freed is a leak. */
static int leak_severity(const struct item *g)
{
    return !g->key[1] || g->key[2] ? EV_CHECK_ERROR : EV_CHECK_WARNING;
}

/* " (N times on M ranks)" into BUF for a group of more than one. */
static const char *times(size_t n, int nranks, char *buf, size_t len)
{
    char rk[32];
    buf[0] = 0;
    if (n > 1)
        snprintf(buf, len, " (%zu times%s)", n,
                 on_ranks(nranks, rk, sizeof rk));
    return buf;
}

static void dead_msg(struct ev_check_ctx *c, const struct item *g, size_t n,
                     int nranks, char *buf, size_t len)
{
    char call[300], tm[48];
    call_desc(c->x, g->rank, g->made, call, sizeof call);
    snprintf(buf, len, "%s on request handle 0x%08x of %s, which %s at "
             "%d:%" PRIu64 " already completed or freed: the program used a "
             "copy of the handle%s", log_func_name((int)g->key[0]),
             g->key[2], call, log_func_name(ev_fn(c->x, g->rank, g->other)),
             g->rank, g->other, times(n, nranks, tm, sizeof tm));
}

static void restart_msg(struct ev_check_ctx *c, const struct item *g,
                        size_t n, int nranks, char *buf, size_t len)
{
    char call[300], tm[48];
    call_desc(c->x, g->rank, g->made, call, sizeof call);
    snprintf(buf, len, "%s of persistent request 0x%08x of %s while it is "
             "active: its start at %d:%" PRIu64 " was not completed by a "
             "Wait or Test%s", log_func_name((int)g->key[0]), g->key[2],
             call, g->rank, g->other, times(n, nranks, tm, sizeof tm));
}

static const struct group_fmt req_fmt[] = {
    [EV_RQ_LIVE] = {"req.leak", EV_CHECK_ERROR, "created here",
                    "started here", NULL, leak_msg, leak_severity},
    [EV_RQ_DEAD] = {"req.used-after-free", EV_CHECK_ERROR, "used here",
                    "completed or freed here", "created here", dead_msg, NULL},
    [EV_RQ_RESTART] = {"req.restart-active", EV_CHECK_ERROR,
                       "started again", "started here", "created here",
                       restart_msg, NULL},
};

/* The findings of the index's request issues of KIND: a live request by
 * the call that made it (at ranks that reached MPI_Finalize), a misuse by
 * the call, the handle and the request's maker. */
static int run_issues(struct ev_check_ctx *c, int kind, char *err,
                      size_t errlen)
{
    struct ev_run *x = c->x;
    struct items it = {0};
    for (size_t i = 0; i < ev_nreq_issues(x); i++) {
        const struct ev_req_issue *is = ev_req_issue_at(x, i);
        if (is->kind != kind ||
            (kind == EV_RQ_LIVE && !finalized(x, is->rank)))
            continue;
        int made = ev_fn(x, is->rank, is->made);
        struct item e = {{(uint32_t)made, is->persistent, is->active, 0},
                         is->rank, is->made, is->prev, EV_NONE};
        if (kind != EV_RQ_LIVE)
            e = (struct item){{(uint32_t)ev_fn(x, is->rank, is->event),
                               (uint32_t)made, is->handle, 0},
                              is->rank, is->event, is->prev, is->made};
        if (items_add(&it, &e) < 0) {
            free(it.v);
            snprintf(err, errlen, "out of memory");
            return -1;
        }
    }
    emit_groups(c, &it, &req_fmt[kind]);
    free(it.v);
    if (kind == EV_RQ_LIVE)
        note_unfinished(c, "req.leak", "its pending requests are not leaks");
    return 0;
}

static int run_req_leak(struct ev_check_ctx *c, char *err, size_t errlen)
{
    return run_issues(c, EV_RQ_LIVE, err, errlen);
}

static int run_req_dead(struct ev_check_ctx *c, char *err, size_t errlen)
{
    return run_issues(c, EV_RQ_DEAD, err, errlen);
}

static int run_req_restart(struct ev_check_ctx *c, char *err, size_t errlen)
{
    return run_issues(c, EV_RQ_RESTART, err, errlen);
}

/* ---- msg.* -------------------------------------------------------------------- */

static void unreceived_msg(struct ev_check_ctx *c, const struct item *g,
                           size_t n, int nranks, char *buf, size_t len)
{
    char call[300];
    (void)nranks;
    call_desc(c->x, g->rank, g->event, call, sizeof call);
    snprintf(buf, len, "%zu message%s of %s from rank %d to rank %d %s "
             "never received", n, n > 1 ? "s" : "", call, g->rank,
             (int)g->key[1], n > 1 ? "were" : "was");
}

static void unmatched_msg(struct ev_check_ctx *c, const struct item *g,
                          size_t n, int nranks, char *buf, size_t len)
{
    char call[300];
    (void)nranks;
    call_desc(c->x, g->rank, g->event, call, sizeof call);
    snprintf(buf, len, "%zu receive%s %s at rank %d %s never matched by a "
             "message (nor cancelled) before MPI_Finalize", n,
             n > 1 ? "s" : "", call, g->rank, n > 1 ? "were" : "was");
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* (rank, communicator) as one key. */
static uint64_t rc_key(int32_t rank, int32_t comm)
{
    return (uint64_t)(uint32_t)rank << 32 | (uint32_t)comm;
}

/* Whether M is an unmatched send (SEND 1) or an unmatched receive whose
 * source the index does not know (SEND 0: a wildcard never completed, an
 * MPI_Isendrecv_replace from MPI_ANY_SOURCE, whose status MPICH leaves
 * empty), with its receiver and communicator as *KEY. */
static int unmatched(const struct ev_msg *m, int send, uint64_t *key)
{
    if (m->match >= 0 || ((m->flags & EV_M_SEND) != 0) != send ||
        m->comm < 0 ||
        (m->flags & (EV_M_PROC_NULL | EV_M_CANCELLED | EV_M_PROBED)))
        return 0;
    if (send && ((m->flags & EV_M_UNKNOWN) || m->peer < 0))
        return 0;
    if (!send && !(m->flags & EV_M_UNKNOWN))
        return 0;
    *key = rc_key(send ? m->peer : m->rank, m->comm);
    return 1;
}

/* Unmatched sends (RECV 0) or posted receives never matched (RECV 1). A
 * send to a rank with receives the index could not place on the same
 * communicator may have gone to one of them, and such a receive may have
 * taken one of those sends: neither is reported, a note says how many. */
static int run_msg(struct ev_check_ctx *c, int recv, char *err,
                   size_t errlen)
{
    struct ev_run *x = c->x;
    struct items it = {0};
    size_t nm = ev_nmsgs(x), nother = 0, skipped = 0;
    uint64_t *other = NULL, key;
    unsigned char *fin = malloc((size_t)x->world_size);
    if (!fin)
        goto oom;
    for (int r = 0; r < x->world_size; r++)
        fin[r] = (unsigned char)finalized(x, r);
    for (size_t i = 0; i < nm; i++) {
        struct ev_msg m_buf;
        if (unmatched(ev_msg_at(x, (int32_t)i, &m_buf), recv, &key)) {
            size_t cap = nother;
            if (util_grow(&other, &cap, nother + 1, sizeof *other) < 0)
                goto oom;
            other[nother++] = key;
        }
    }
    qsort(other, nother, sizeof *other, cmp_u64);
    for (size_t i = 0; i < nm; i++) {
        struct ev_msg m_buf;
        const struct ev_msg *m = ev_msg_at(x, (int32_t)i, &m_buf);
        if (m->match >= 0 || !(m->flags & EV_M_SEND) == !recv ||
            (m->flags & (EV_M_PROC_NULL | EV_M_CANCELLED | EV_M_PROBED)))
            continue;
        if (recv ? m->done != EV_NONE || !fin[m->rank]
                 : (m->flags & EV_M_UNKNOWN) || m->peer < 0 ||
                       m->peer >= x->world_size || !fin[m->peer])
            continue;
        if (unmatched(m, !recv, &key) &&
            bsearch(&key, other, nother, sizeof *other, cmp_u64)) {
            skipped++;
            continue;
        }
        struct item e = {{(uint32_t)m->fn, (uint32_t)m->peer,
                          (uint32_t)m->tag, (uint32_t)m->comm},
                         m->rank, m->event, EV_NONE, EV_NONE};
        if (items_add(&it, &e) < 0)
            goto oom;
    }
    static const struct group_fmt sends = {"msg.unreceived",
                                           EV_CHECK_WARNING, "sent here",
                                           NULL, NULL, unreceived_msg, NULL};
    static const struct group_fmt recvs = {"msg.unmatched-receive",
                                           EV_CHECK_WARNING, "posted here",
                                           NULL, NULL, unmatched_msg, NULL};
    const char *name = recv ? recvs.check : sends.check;
    emit_groups(c, &it, recv ? &recvs : &sends);
    if (skipped) {
        char msg[300];
        snprintf(msg, sizeof msg, "%zu %s not reported: %s", skipped,
                 recv ? "wildcard receives are" : "messages are",
                 recv ? "unreceived sends to their rank may have gone to "
                        "them"
                      : "their receiver has receives of unknown source "
                        "(MPI_ANY_SOURCE, an MPI_Isendrecv_replace's) that "
                        "may have taken them");
        c->note(c->ud, name, msg);
    }
    free(it.v);
    free(other);
    free(fin);
    note_unfinished(c, name, recv ? "its pending receives are not reported"
                                  : "the messages sent to it are not "
                                    "reported");
    return 0;
oom:
    free(it.v);
    free(other);
    free(fin);
    snprintf(err, errlen, "out of memory");
    return -1;
}

static int run_msg_unreceived(struct ev_check_ctx *c, char *err,
                              size_t errlen)
{
    return run_msg(c, 0, err, errlen);
}

static int run_msg_unmatched(struct ev_check_ctx *c, char *err,
                             size_t errlen)
{
    return run_msg(c, 1, err, errlen);
}

/* ---- res.leak ------------------------------------------------------------------ */

/* The kinds of object res.leak follows, by the C type of their handles:
 * MPICH keeps an object's kind in bits 26-29 of its handle (as in its null
 * handle). */
#define HKIND(h) (((uint32_t)(h) >> 26) & 0xfu)
static const struct {
    uint32_t kind;
    const char *what, *what_pl, *ctype;
} kinds[] = {
    {HKIND(DRDB_MPI_COMM_NULL), "communicator", "communicators", "MPI_Comm"},
    {HKIND(DRDB_MPI_GROUP_NULL), "group", "groups", "MPI_Group"},
    {HKIND(DRDB_MPI_DATATYPE_NULL), "datatype", "datatypes", "MPI_Datatype"},
    {HKIND(DRDB_MPI_WIN_NULL), "window", "windows", "MPI_Win"},
    {HKIND(DRDB_MPI_ERRHANDLER_NULL), "error handler", "error handlers",
     "MPI_Errhandler"},
    {HKIND(DRDB_MPI_OP_NULL), "operation", "operations", "MPI_Op"},
    {HKIND(DRDB_MPI_INFO_NULL), "info object", "info objects", "MPI_Info"},
    /* An MPI_File is a pointer, no handle: no HKIND is 16. */
    {16, "file", "files", "MPI_File"},
};
#define N_KINDS (sizeof kinds / sizeof kinds[0])
#define K_FILE (N_KINDS - 1)

/* The entry of kinds[] of handle H, or -1 (another kind, a null or
 * predefined handle: MPICH's handle kinds 0 and 1). */
static int kind_of(uint32_t h)
{
    if ((h >> 30) < 2)
        return -1;
    for (size_t k = 0; k < N_KINDS; k++)
        if (HKIND(h) == kinds[k].kind)
            return (int)k;
    return -1;
}

/* The entry of kinds[] an argument of C type CTYPE points to ("MPI_Comm
 * *"), or -1. */
static int kind_of_ctype(const char *ctype)
{
    size_t l = strlen(ctype);
    if (l < 3 || strcmp(ctype + l - 2, " *"))
        return -1;
    for (size_t k = 0; k < N_KINDS; k++)
        if (strlen(kinds[k].ctype) == l - 2 &&
            !strncmp(ctype, kinds[k].ctype, l - 2))
            return (int)k;
    return -1;
}

/* The function that frees an object of kinds[K] (the first the spec gives
 * the role free with a handle of its type: MPI_Comm_free before
 * MPI_Comm_disconnect), for the findings. */
static const char *freed_by(int k)
{
    for (int i = 0; i < log_funcs_count; i++) {
        const struct log_func_desc *d = &log_funcs[i];
        int a = (d->roles & LOG_R_FREE) ? d->slot[LOG_S_FREED] : -1;
        if (a >= 0 && kind_of_ctype(d->args[a].ctype) == k)
            return d->name;
    }
    return "?";
}

/* What a function is to res.leak, from its roles and the types of its
 * arguments: 1 it returns new objects in `out` handle arguments, 2 it
 * frees the object its `inout` handle names (the role free: logged before
 * the call, REQUEST of no argument, docs/log-format.md), 3 it opens a file
 * (its `out MPI_File *`, logged RAW), 4 it closes one (the role free of
 * an MPI_File: the file handle logged before the call, ARRAY of no
 * argument). A handle MPI keeps (the role mpi-owned: the Fortran 90 types
 * MPI_Type_create_f90_* return are predefined ones the program must not
 * free, MPI 4.0 19.1.9; MPI_Comm_get_parent's communicator is MPI's own)
 * is no object of the program's. */
static uint8_t *res_roles(int *max)
{
    *max = 0;
    for (int i = 0; i < log_funcs_count; i++)
        if (log_funcs[i].id > *max)
            *max = log_funcs[i].id;
    uint8_t *t = calloc((size_t)*max + 1, 1);
    for (int i = 0; t && i < log_funcs_count; i++) {
        const struct log_func_desc *d = &log_funcs[i];
        if (d->roles & LOG_R_MPI_OWNED)
            continue;
        int freed = (d->roles & LOG_R_FREE) ? d->slot[LOG_S_FREED] : -1;
        for (int a = 0; a < d->nargs; a++) {
            int k = kind_of_ctype(d->args[a].ctype);
            int file = k == (int)K_FILE;
            if (k >= 0 && d->args[a].dir == LOG_DIR_OUT)
                t[d->id] = file ? 3 : 1;
            else if (k >= 0 && a == freed)
                t[d->id] = file ? 4 : 2;
        }
    }
    return t;
}

/* A live object of the rank being read: the call that made it, and the
 * one made before it with the same handle (-1). */
struct obj {
    uint64_t event;
    int32_t prev;
    uint32_t handle;
};

/* Rank R's open files: each MPI_File_open's event and file handle, the
 * handle zeroed by its MPI_File_close. */
struct file {
    uint64_t event, fh;
};

/* Files: F, the event of an opening call, into FS; a closing one closes the
 * latest open file with its handle. 0; 1 when the close does not say which
 * file (recorded before drdb logged it); -1 out of memory. */
static int res_file(const struct log_event *ev, uint64_t n, int role,
                    struct file **fs, size_t *nf, size_t *cap)
{
    struct log_field f;
    uint64_t fh = 0;
    if (role == 4) {
        const uint8_t *p;
        int64_t v;
        if (!log_event_find(ev, LOG_ARG_NONE, LOG_F_ARRAY, &f))
            return 1;
        p = f.data;
        if (log_get_array_elem(&p, f.data + f.len, LOG_ENC_PTR, &v) < 0)
            return 1;
        for (size_t i = *nf; i-- > 0;)
            if ((*fs)[i].fh == (uint64_t)v) {
                (*fs)[i].fh = 0;
                break;
            }
        return 0;
    }
    for (int a = 0; a < ev->desc->nargs; a++)
        if (ev->desc->args[a].dir == LOG_DIR_OUT &&
            log_event_find(ev, (unsigned)a, LOG_F_RAW, &f) && f.len == 8)
            memcpy(&fh, f.data, 8);
    if (!fh)
        return 0;
    if (util_grow(fs, cap, *nf + 1, sizeof **fs) < 0)
        return -1;
    (*fs)[(*nf)++] = (struct file){n, fh};
    return 0;
}

/* Rank R's objects still live at its end into IT. 0; 1 when its log does
 * not say what a freeing call freed (recorded before drdb logged it); -1
 * out of memory. *NOFILES: its file closes do not say which file. */
static int res_rank(struct ev_run *x, int r, const uint8_t *roles, int max,
                    struct items *it, int *nofiles)
{
    struct file *fs = NULL;
    size_t nf = 0, fcap = 0;
    const struct log_rank *lr = &x->ranks[r].log;
    struct util_htab live = EV__HMAP_INIT; /* handle -> latest obj */
    struct obj *o = NULL;
    size_t no = 0, cap = 0;
    int rc = 0;
    for (uint64_t n = 0; n < lr->nevents && rc == 0; n++) {
        int fn = ev_fn(x, r, n);
        struct log_event ev;
        struct log_field f;
        size_t cur = 0;
        if (fn < 0 || fn > max || !roles[fn] ||
            log_rank_event(lr, n, &ev, NULL, 0) < 0 || ev.ret != 0 ||
            (ev.flags & (LOG_REC_REPEAT | LOG_REC_TRUNC)))
            continue;
        const struct log_func_desc *d = log_func_by_id(fn);
        if (roles[fn] >= 3 && !*nofiles) {
            int frc = res_file(&ev, n, roles[fn], &fs, &nf, &fcap);
            rc = frc < 0 ? -1 : rc;
            *nofiles = frc > 0;
            continue;
        }
        if (roles[fn] >= 3)
            continue;
        if (roles[fn] == 2) {
            uint32_t h;
            if (!log_event_find(&ev, LOG_ARG_NONE, LOG_F_REQUEST, &f) ||
                log_field_handle(&f, &h) < 0) {
                rc = 1;
                break;
            }
            int32_t *head = ev__hmap_get(&live, h);
            if (head && *head >= 0)
                *head = o[*head].prev;
            continue;
        }
        while (log_event_next_stored(&ev, &cur, &f) == 1) {
            uint32_t h;
            if (f.kind != LOG_F_HANDLE || f.arg >= (unsigned)d->nargs ||
                d->args[f.arg].dir != LOG_DIR_OUT ||
                log_field_handle(&f, &h) < 0 || kind_of(h) < 0)
                continue;
            if (util_grow(&o, &cap, no + 1, sizeof *o) < 0) {
                rc = -1;
                break;
            }
            int32_t *head = ev__hmap_get(&live, h);
            o[no] = (struct obj){n, head ? *head : -1, h};
            if (ev__hmap_put(&live, h, (int32_t)no++) < 0)
                rc = -1;
        }
    }
    /* What is live: each handle's chain. */
    for (size_t s = 0; rc == 0 && s < live.cap; s++) {
        const struct ev__hent *e = (const void *)(live.v + s * live.esize);
        if (e->h == live.null)
            continue;
        for (int32_t j = e->v; j >= 0 && rc == 0; j = o[j].prev) {
            struct item i = {{(uint32_t)kind_of(o[j].handle),
                              (uint32_t)ev_fn(x, r, o[j].event), 0, 0},
                             r, o[j].event, EV_NONE, EV_NONE};
            if (items_add(it, &i) < 0)
                rc = -1;
        }
    }
    for (size_t i = 0; rc == 0 && !*nofiles && i < nf; i++) {
        struct item f = {{(uint32_t)K_FILE, (uint32_t)ev_fn(x, r, fs[i].event),
                          0, 0}, r, fs[i].event, EV_NONE, EV_NONE};
        if (fs[i].fh && items_add(it, &f) < 0)
            rc = -1;
    }
    util_htab_release(&live);
    free(o);
    free(fs);
    return rc;
}

static void res_msg(struct ev_check_ctx *c, const struct item *g, size_t n,
                    int nranks, char *buf, size_t len)
{
    char call[300], rk[32];
    call_desc(c->x, g->rank, g->event, call, sizeof call);
    int k = (int)g->key[0];
    int file = k == (int)K_FILE;
    snprintf(buf, len, "%zu %s %s by %s%s %s never %s (%s) before "
             "MPI_Finalize", n, n > 1 ? kinds[k].what_pl : kinds[k].what,
             file ? "opened" : "made", call, on_ranks(nranks, rk, sizeof rk),
             n > 1 ? "were" : "was", file ? "closed" : "freed",
             freed_by(k));
}

static int run_res_leak(struct ev_check_ctx *c, char *err, size_t errlen)
{
    struct ev_run *x = c->x;
    struct items it = {0};
    int max;
    uint8_t *roles = res_roles(&max);
    if (!roles) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (int r = 0; r < x->world_size; r++) {
        if (c->interrupted && *c->interrupted)
            break;
        if (!finalized(x, r))
            continue;
        int nofiles = 0;
        int rc = res_rank(x, r, roles, max, &it, &nofiles);
        if (rc < 0) {
            free(roles);
            free(it.v);
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        if (rc > 0) {
            char msg[200];
            snprintf(msg, sizeof msg, "rank %d's log does not say which "
                     "objects its MPI_*_free calls freed (recorded by an "
                     "older drdb): its objects are not checked", r);
            c->note(c->ud, "res.leak", msg);
        } else if (nofiles) {
            char msg[200];
            snprintf(msg, sizeof msg, "rank %d's log does not say which "
                     "file its MPI_File_close calls closed (recorded by an "
                     "older drdb): its files are not checked", r);
            c->note(c->ud, "res.leak", msg);
        }
    }
    static const struct group_fmt gf = {"res.leak", EV_CHECK_WARNING,
                                        "created here", NULL, NULL, res_msg, NULL};
    emit_groups(c, &it, &gf);
    free(it.v);
    free(roles);
    note_unfinished(c, "res.leak", "its objects are not leaks");
    return 0;
}

/* ---- the table ---------------------------------------------------------------- */

const struct ev_check_def ev_check_req_defs[] = {
    {"req.leak", EV_CHECK_ERROR,
     "an operation never completed before MPI_Finalize (error), a "
     "persistent request never freed (warning)",
     run_req_leak},
    {"req.used-after-free", EV_CHECK_ERROR,
     "a Wait/Test, Start or Request_free on the handle of a request "
     "already completed or freed (a kept copy)", run_req_dead},
    {"req.restart-active", EV_CHECK_ERROR,
     "MPI_Start of a persistent request still active", run_req_restart},
    {"res.leak", EV_CHECK_WARNING,
     "a communicator, group, datatype, window, error handler, operation or "
     "info object never freed, or a file never closed, before MPI_Finalize",
     run_res_leak},
    {"msg.unreceived", EV_CHECK_WARNING,
     "a message sent and never received", run_msg_unreceived},
    {"msg.unmatched-receive", EV_CHECK_WARNING,
     "a receive posted and never matched nor cancelled", run_msg_unmatched},
    {NULL, 0, NULL, NULL},
};
