/*
 * Loading the query database's tables from the index (ev-sql-int.h): one
 * pass over each rank's events (events), then the index's own arrays
 * (matches, collectives, requests, comms). docs/queries.md says what each
 * column means; the rules behind them are docs/events.md's.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ev-sql-int.h"
#include "log-abi.h"

static const char schema[] =
    "CREATE TABLE procs (rank INTEGER PRIMARY KEY, host TEXT, pid INTEGER,"
    " events INTEGER, start REAL, ending TEXT, detail TEXT);"
    "CREATE TABLE comms (comm INTEGER PRIMARY KEY, size INTEGER,"
    " inter INTEGER, size_a INTEGER, size_b INTEGER, instance INTEGER,"
    " creator_rank INTEGER, creator_seq INTEGER);"
    "CREATE TABLE comm_members (comm INTEGER, side INTEGER,"
    " local_rank INTEGER, rank INTEGER,"
    " PRIMARY KEY (comm, side, local_rank)) WITHOUT ROWID;"
    "CREATE TABLE events (rank INTEGER, seq INTEGER, call TEXT, role TEXT,"
    " peer INTEGER, tag INTEGER, comm INTEGER, count INTEGER,"
    " datatype TEXT, bytes INTEGER, root INTEGER, op TEXT, enter REAL,"
    " exit REAL, duration REAL, ret INTEGER, calls INTEGER,"
    " PRIMARY KEY (rank, seq)) WITHOUT ROWID;"
    "CREATE TABLE matches (send_rank INTEGER, send_seq INTEGER,"
    " send_done INTEGER, send_call TEXT, recv_rank INTEGER,"
    " recv_seq INTEGER, recv_done INTEGER, recv_call TEXT, comm INTEGER,"
    " tag INTEGER, bytes INTEGER, any_source INTEGER, any_tag INTEGER);"
    "CREATE TABLE collectives (comm INTEGER, instance INTEGER, call TEXT,"
    " rank INTEGER, seq INTEGER, done INTEGER, nonblocking INTEGER);"
    "CREATE TABLE requests (rank INTEGER, seq INTEGER, call TEXT,"
    " kind TEXT, init INTEGER, done INTEGER, done_call TEXT);";

static const char indexes[] =
    "CREATE INDEX matches_recv ON matches (recv_rank, recv_seq);"
    "CREATE INDEX matches_send ON matches (send_rank, send_seq);"
    "CREATE INDEX collectives_at ON collectives (rank, seq);"
    "CREATE INDEX collectives_inst ON collectives (comm, instance);";

struct loader {
    struct ev_sql *q;
    struct ev_run *x;
    struct ev_index *ix;
    uint64_t run0;     /* the earliest log start, ns */
    /* per function id: argument indices (-1 none) */
    int8_t (*argix)[3];
    int nfn;
    /* per rank, per event: the peer and tag arguments as passed (to tell
     * a wildcard receive), INT32_MIN when none */
    int32_t **apeer, **atag;
    char *err;
    size_t errlen;
};

enum { A_TYPE, A_OP, A_ROOT };

static int fail(struct loader *l, const char *what)
{
    log_errf(l->err, l->errlen, "loading the query database (%s): %s", what,
             sqlite3_errmsg(l->q->db));
    return -1;
}

static sqlite3_stmt *prep(struct loader *l, const char *sql)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(l->q->db, sql, -1, &st, NULL) != SQLITE_OK) {
        fail(l, sql);
        return NULL;
    }
    return st;
}

/* Binds V to parameter I, NULL when NUL. */
static void bind_int(sqlite3_stmt *st, int i, int64_t v, int null)
{
    if (null)
        sqlite3_bind_null(st, i);
    else
        sqlite3_bind_int64(st, i, v);
}

static int step(struct loader *l, sqlite3_stmt *st, const char *what)
{
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    return rc == SQLITE_DONE ? 0 : fail(l, what);
}

static int load_procs(struct loader *l)
{
    static const char *const endings[] = {"complete", "abort", "killed",
                                          "truncated", "corrupt"};
    sqlite3_stmt *st = prep(l, "INSERT INTO procs VALUES (?,?,?,?,?,?,?)");
    int rc = st ? 0 : -1;
    for (int r = 0; r < l->x->world_size && rc == 0; r++) {
        const struct ev_rank *rk = &l->x->ranks[r];
        sqlite3_bind_int(st, 1, r);
        if (!rk->present) {
            for (int i = 2; i <= 5; i++)
                sqlite3_bind_null(st, i);
            sqlite3_bind_text(st, 6, "missing", -1, SQLITE_STATIC);
            sqlite3_bind_text(st, 7, ev_rank_missing(l->x, r), -1,
                              SQLITE_TRANSIENT);
        } else {
            char line[256];
            enum log_ending e = log_rank_ending(&rk->log, line, sizeof line);
            sqlite3_bind_text(st, 2, rk->log.hdr.host,
                              (int)strnlen(rk->log.hdr.host,
                                           sizeof rk->log.hdr.host),
                              SQLITE_TRANSIENT);
            sqlite3_bind_int(st, 3, rk->log.hdr.pid);
            sqlite3_bind_int64(st, 4, (int64_t)rk->log.nevents);
            sqlite3_bind_double(st, 5,
                                (double)(rk->log.hdr.start_ns - l->run0) /
                                    1e3);
            sqlite3_bind_text(st, 6, endings[e], -1, SQLITE_STATIC);
            sqlite3_bind_text(st, 7, line, -1, SQLITE_TRANSIENT);
        }
        rc = step(l, st, "procs");
    }
    sqlite3_finalize(st);
    return rc;
}

static int load_comms(struct loader *l)
{
    sqlite3_stmt *st = prep(l, "INSERT INTO comms VALUES (?,?,?,?,?,?,?,?)");
    sqlite3_stmt *sm = prep(l, "INSERT INTO comm_members VALUES (?,?,?,?)");
    int rc = st && sm ? 0 : -1;
    for (size_t c = 0; c < l->ix->ncomms && rc == 0; c++) {
        const struct ev_comm *cm = &l->ix->comms[c];
        sqlite3_bind_int(st, 1, cm->id);
        sqlite3_bind_int(st, 2, cm->na + cm->nb);
        sqlite3_bind_int(st, 3, cm->inter);
        sqlite3_bind_int(st, 4, cm->na);
        bind_int(st, 5, cm->nb, !cm->inter);
        sqlite3_bind_int(st, 6, cm->instance);
        int pre = cm->creator_event == EV_NONE;
        bind_int(st, 7, cm->creator_rank, pre);
        bind_int(st, 8, (int64_t)cm->creator_event, pre);
        rc = step(l, st, "comms");
        for (int side = 0; side < 2 && rc == 0; side++) {
            int n = side ? cm->nb : cm->na;
            const int32_t *g = side ? cm->b : cm->a;
            for (int k = 0; k < n && rc == 0; k++) {
                sqlite3_bind_int(sm, 1, cm->id);
                sqlite3_bind_int(sm, 2, side);
                sqlite3_bind_int(sm, 3, k);
                sqlite3_bind_int(sm, 4, g[k]);
                rc = step(l, sm, "comm_members");
            }
        }
    }
    sqlite3_finalize(st);
    sqlite3_finalize(sm);
    return rc;
}

/* Argument indices of function FN (by the names MPI gives them). */
static const int8_t *args_of(struct loader *l, const struct log_event *ev)
{
    static const int8_t none[3] = {-1, -1, -1};
    if (!ev->desc || ev->fn < 0 || ev->fn >= l->nfn)
        return none;
    int8_t *a = l->argix[ev->fn];
    if (a[0] != -2)
        return a;
    a[A_TYPE] = a[A_OP] = a[A_ROOT] = -1;
    for (int i = 0; i < ev->desc->nargs; i++) {
        const struct log_arg_desc *d = &ev->desc->args[i];
        if (!d->size)
            continue;
        if (a[A_TYPE] < 0 && (strcmp(d->name, "datatype") == 0 ||
                              strcmp(d->name, "sendtype") == 0))
            a[A_TYPE] = (int8_t)i;
        else if (strcmp(d->name, "op") == 0)
            a[A_OP] = (int8_t)i;
        else if (strcmp(d->name, "root") == 0)
            a[A_ROOT] = (int8_t)i;
    }
    return a;
}

/* Binds handle H of C type CTYPE: its MPI name, else its hex value. */
static void bind_handle(sqlite3_stmt *st, int i, const char *ctype,
                        uint32_t h)
{
    const char *name = log_mpi_handle_name(ctype, h);
    if (name) {
        sqlite3_bind_text(st, i, name, -1, SQLITE_STATIC);
        return;
    }
    char buf[16];
    snprintf(buf, sizeof buf, "0x%08x", h);
    sqlite3_bind_text(st, i, buf, -1, SQLITE_TRANSIENT);
}

/* The world rank of root argument ROOT of rank R's call on COMM (SIDE). */
static int64_t root_world(struct loader *l, int r, int32_t comm, int side,
                          int64_t root)
{
    if (root == DRDB_MPI_ROOT)
        return r;
    if (comm < 0 || root < 0)
        return -1;
    const struct ev_comm *c = &l->ix->comms[comm];
    return c->inter ? ev__world_of(l->ix, comm, side, (int32_t)root)
                    : (root < c->na ? c->a[root] : -1);
}

/* The role of an event from its uses U[0..N), "" none. */
static const char *role_of(struct loader *l, const struct ev__xref *u,
                           size_t n, int fn)
{
    int send = 0, recv = 0, coll = 0, probe = 0, done = 0;
    for (size_t i = 0; i < n; i++) {
        switch (u[i].role) {
        case EV_CALL:
            (l->ix->msgs[u[i].i].flags & EV_M_SEND) ? send++ : recv++;
            break;
        case EV_COLL: coll++; break;
        case EV_PROBE: probe++; break;
        default: done++; break;
        }
    }
    if (send && recv)
        return "sendrecv";
    if (send)
        return "send";
    if (recv)
        return "recv";
    if (coll)
        return "collective";
    if (probe || ev__fn(l->ix, fn)->cls == EV__C_PROBE)
        return "probe";
    if (done)
        return "complete";
    return NULL;
}

static int load_rank_events(struct loader *l, sqlite3_stmt *st, int r)
{
    const struct ev_rank *rk = &l->x->ranks[r];
    const struct ev__rank_ix *ri = &l->ix->r[r];
    uint64_t n_ev = rk->log.nevents;
    l->apeer[r] = malloc((n_ev + 1) * sizeof **l->apeer);
    l->atag[r] = malloc((n_ev + 1) * sizeof **l->atag);
    if (!l->apeer[r] || !l->atag[r]) {
        log_errf(l->err, l->errlen, "out of memory");
        return -1;
    }
    uint64_t t0 = rk->log.hdr.start_ns - l->run0;
    size_t k = 0;
    for (uint64_t n = 0; n < n_ev; n++) {
        struct log_event ev;
        struct ev_brief b;
        l->apeer[r][n] = l->atag[r][n] = INT32_MIN;
        if (log_rank_event(&rk->log, n, &ev, NULL, 0) < 0)
            continue;
        ev_brief_of(&ev, &b);
        if (b.has_peer)
            l->apeer[r][n] = (int32_t)b.peer;
        if (b.has_tag)
            l->atag[r][n] = (int32_t)b.tag;
        size_t k0 = k;
        while (k < ri->nrefs && ri->refs[k].event < n)
            k0 = ++k;
        while (k < ri->nrefs && ri->refs[k].event == n)
            k++;
        const struct ev__xref *u = &ri->refs[k0];
        size_t nu = k - k0;
        /* the one message (or collective) it is about, if one */
        int32_t msg = -1, coll = -1;
        int nmsg = 0;
        for (size_t i = 0; i < nu; i++) {
            if (u[i].role == EV_COLL || u[i].role == EV_COLL_DONE)
                coll = u[i].i;
            else if (msg != u[i].i) {
                msg = u[i].i;
                nmsg++;
            }
        }
        const struct ev_msg *m = nmsg == 1 ? &l->ix->msgs[msg] : NULL;
        int64_t peer = -1, tag = 0, bytes = -1;
        int has_tag = 0;
        int32_t comm = -1;
        int side = 0;
        if (m) {
            peer = m->peer;
            tag = m->tag;
            has_tag = !(m->flags & (EV_M_PROC_NULL | EV_M_NOSTATUS)) ||
                      (m->flags & EV_M_SEND);
            bytes = m->bytes;
            comm = m->comm;
        } else if (ev__fn(l->ix, ev.fn)->cls == EV__C_PROBE) {
            struct ev_ref ref;
            if (ev_partners(l->x, r, n, &ref, 1, NULL, 0) == 1) {
                peer = ref.rank;
                tag = ref.tag;
                has_tag = 1;
                bytes = ref.bytes;
            }
        }
        if (coll >= 0)
            comm = l->ix->colls[coll].comm;
        if (b.has_comm) {
            int32_t c = ev_comm_of(l->x, r, n, (uint32_t)b.comm, &side);
            if (comm < 0)
                comm = c;
        }
        const int8_t *a = args_of(l, &ev);
        sqlite3_bind_int(st, 1, r);
        sqlite3_bind_int64(st, 2, (int64_t)n);
        sqlite3_bind_text(st, 3, ev.desc ? ev.desc->name : "?", -1,
                          SQLITE_STATIC);
        const char *role = role_of(l, u, nu, ev.fn);
        if (role)
            sqlite3_bind_text(st, 4, role, -1, SQLITE_STATIC);
        else
            sqlite3_bind_null(st, 4);
        bind_int(st, 5, peer, peer < 0);
        bind_int(st, 6, tag, !has_tag);
        bind_int(st, 7, comm, comm < 0);
        bind_int(st, 8, b.count, !b.has_count);
        if (a[A_TYPE] >= 0)
            bind_handle(st, 9, "MPI_Datatype",
                        (uint32_t)log_event_arg(&ev, a[A_TYPE]));
        else
            sqlite3_bind_null(st, 9);
        bind_int(st, 10, bytes, bytes < 0);
        int64_t root = a[A_ROOT] >= 0
            ? root_world(l, r, comm, side, log_event_arg(&ev, a[A_ROOT]))
            : -1;
        bind_int(st, 11, root, root < 0);
        if (a[A_OP] >= 0)
            bind_handle(st, 12, "MPI_Op",
                        (uint32_t)log_event_arg(&ev, a[A_OP]));
        else
            sqlite3_bind_null(st, 12);
        double enter = (double)(t0 + ev.enter_ns) / 1e3;
        sqlite3_bind_double(st, 13, enter);
        sqlite3_bind_double(st, 14, enter + (double)ev.dur_ns / 1e3);
        sqlite3_bind_double(st, 15, (double)ev.dur_ns / 1e3);
        sqlite3_bind_int(st, 16, (ev.flags & LOG_REC_RET) ? ev.ret : 0);
        sqlite3_bind_int64(st, 17, (int64_t)log_event_calls(&ev));
        if (step(l, st, "events") < 0)
            return -1;
    }
    return 0;
}

static int load_events(struct loader *l)
{
    sqlite3_stmt *st = prep(l, "INSERT INTO events VALUES "
                               "(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
    int rc = st ? 0 : -1;
    for (int r = 0; r < l->x->world_size && rc == 0; r++)
        if (l->x->ranks[r].present)
            rc = load_rank_events(l, st, r);
    sqlite3_finalize(st);
    return rc;
}

/* Rank R's call that posted receive M (what it asked for): the Mprobe of
 * an Mrecv, the Recv_init of a persistent one, else the call. */
static uint64_t posting(const struct ev_msg *m)
{
    if (m->flags & EV_M_PROBED)
        return m->order;
    if (m->flags & EV_M_PERSISTENT)
        return m->init;
    return m->event;
}

static int asked(struct loader *l, int32_t **tab, const struct ev_msg *m,
                 int32_t wild)
{
    uint64_t e = posting(m);
    if (e == EV_NONE || m->rank < 0 || !tab[m->rank] ||
        e >= l->x->ranks[m->rank].log.nevents)
        return 0;
    return tab[m->rank][e] == wild;
}

static void bind_side(struct loader *l, sqlite3_stmt *st, int i,
                      const struct ev_msg *m)
{
    if (!m) {
        for (int k = 0; k < 4; k++)
            sqlite3_bind_null(st, i + k);
        return;
    }
    sqlite3_bind_int(st, i, m->rank);
    sqlite3_bind_int64(st, i + 1, (int64_t)m->event);
    bind_int(st, i + 2, (int64_t)m->done, m->done == EV_NONE);
    sqlite3_bind_text(st, i + 3, log_func_name(m->fn), -1, SQLITE_STATIC);
    (void)l;
}

static int load_matches(struct loader *l)
{
    sqlite3_stmt *st = prep(l, "INSERT INTO matches VALUES "
                               "(?,?,?,?,?,?,?,?,?,?,?,?,?)");
    int rc = st ? 0 : -1;
    for (size_t i = 0; i < l->ix->nmsgs && rc == 0; i++) {
        const struct ev_msg *m = &l->ix->msgs[i];
        const struct ev_msg *o = m->match >= 0 ? &l->ix->msgs[m->match]
                                               : NULL;
        int send = (m->flags & EV_M_SEND) != 0;
        if ((m->flags & EV_M_PROC_NULL) || (!send && o))
            continue; /* a pair once, from its send */
        const struct ev_msg *s = send ? m : NULL, *rv = send ? o : m;
        bind_side(l, st, 1, s);
        bind_side(l, st, 5, rv);
        sqlite3_bind_int(st, 9, m->comm);
        int64_t bytes = rv ? rv->bytes : m->bytes;
        int has_tag = s || !(m->flags & EV_M_NOSTATUS);
        bind_int(st, 10, m->tag, !has_tag);
        bind_int(st, 11, bytes, bytes < 0);
        bind_int(st, 12, rv && asked(l, l->apeer, rv, EV_ANY_SOURCE), !rv);
        bind_int(st, 13, rv && asked(l, l->atag, rv, EV_ANY_TAG), !rv);
        rc = step(l, st, "matches");
    }
    sqlite3_finalize(st);
    return rc;
}

static int load_colls(struct loader *l)
{
    sqlite3_stmt *st = prep(l, "INSERT INTO collectives VALUES "
                               "(?,?,?,?,?,?,?)");
    sqlite3_stmt *rq = prep(l, "INSERT INTO requests VALUES "
                               "(?,?,?,?,?,?,?)");
    int rc = st && rq ? 0 : -1;
    for (size_t i = 0; i < l->ix->ncolls && rc == 0; i++) {
        const struct ev_coll *c = &l->ix->colls[l->ix->coll_sorted
                                                    ? (size_t)l->ix->coll_sorted[i]
                                                    : i];
        bind_int(st, 1, c->comm, c->comm < 0);
        sqlite3_bind_int(st, 2, c->instance);
        sqlite3_bind_text(st, 3, log_func_name(c->fn), -1, SQLITE_STATIC);
        sqlite3_bind_int(st, 4, c->rank);
        sqlite3_bind_int64(st, 5, (int64_t)c->event);
        bind_int(st, 6, (int64_t)c->done, c->done == EV_NONE);
        sqlite3_bind_int(st, 7, c->nonblocking);
        rc = step(l, st, "collectives");
        if (rc || !c->nonblocking)
            continue;
        sqlite3_bind_int(rq, 1, c->rank);
        sqlite3_bind_int64(rq, 2, (int64_t)c->event);
        sqlite3_bind_text(rq, 3, log_func_name(c->fn), -1, SQLITE_STATIC);
        sqlite3_bind_text(rq, 4, "collective", -1, SQLITE_STATIC);
        sqlite3_bind_null(rq, 5);
        bind_int(rq, 6, (int64_t)c->done, c->done == EV_NONE);
        if (c->done == EV_NONE)
            sqlite3_bind_null(rq, 7);
        else
            sqlite3_bind_text(rq, 7, log_func_name(ev_fn(l->x, c->rank,
                                                         c->done)),
                              -1, SQLITE_STATIC);
        rc = step(l, rq, "requests");
    }
    for (size_t i = 0; i < l->ix->nmsgs && rc == 0; i++) {
        const struct ev_msg *m = &l->ix->msgs[i];
        if (!(m->flags & EV_M_NONBLOCKING))
            continue;
        sqlite3_bind_int(rq, 1, m->rank);
        sqlite3_bind_int64(rq, 2, (int64_t)m->event);
        sqlite3_bind_text(rq, 3, log_func_name(m->fn), -1, SQLITE_STATIC);
        sqlite3_bind_text(rq, 4, (m->flags & EV_M_SEND) ? "send" : "recv",
                          -1, SQLITE_STATIC);
        bind_int(rq, 5, (int64_t)m->init, m->init == EV_NONE);
        bind_int(rq, 6, (int64_t)m->done, m->done == EV_NONE);
        if (m->done == EV_NONE)
            sqlite3_bind_null(rq, 7);
        else
            sqlite3_bind_text(rq, 7, log_func_name(ev_fn(l->x, m->rank,
                                                         m->done)),
                              -1, SQLITE_STATIC);
        rc = step(l, rq, "requests");
    }
    sqlite3_finalize(st);
    sqlite3_finalize(rq);
    return rc;
}

int ev__sql_load(struct ev_sql *q, char *err, size_t errlen)
{
    struct loader l = {.q = q, .x = q->x, .ix = q->x->ix, .err = err,
                       .errlen = errlen, .run0 = UINT64_MAX};
    int rc = -1;
    for (int r = 0; r < l.x->world_size; r++)
        if (l.x->ranks[r].present && l.x->ranks[r].log.hdr.start_ns < l.run0)
            l.run0 = l.x->ranks[r].log.hdr.start_ns;
    l.nfn = log_funcs_count ? log_funcs[log_funcs_count - 1].id + 1 : 0;
    l.argix = malloc(((size_t)l.nfn + 1) * sizeof *l.argix);
    l.apeer = calloc((size_t)l.x->world_size, sizeof *l.apeer);
    l.atag = calloc((size_t)l.x->world_size, sizeof *l.atag);
    if (!l.argix || !l.apeer || !l.atag) {
        log_errf(err, errlen, "out of memory");
        goto out;
    }
    memset(l.argix, -2, ((size_t)l.nfn + 1) * sizeof *l.argix);
    if (sqlite3_exec(q->db, schema, NULL, NULL, NULL) != SQLITE_OK ||
        sqlite3_exec(q->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK) {
        fail(&l, "schema");
        goto out;
    }
    if (load_procs(&l) < 0 || load_comms(&l) < 0 || load_events(&l) < 0 ||
        load_matches(&l) < 0 || load_colls(&l) < 0)
        goto out;
    if (sqlite3_exec(q->db, indexes, NULL, NULL, NULL) != SQLITE_OK ||
        sqlite3_exec(q->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        fail(&l, "indexes");
        goto out;
    }
    rc = 0;
out:
    for (int r = 0; l.apeer && r < l.x->world_size; r++)
        free(l.apeer[r]);
    for (int r = 0; l.atag && r < l.x->world_size; r++)
        free(l.atag[r]);
    free(l.apeer);
    free(l.atag);
    free(l.argix);
    return rc;
}
