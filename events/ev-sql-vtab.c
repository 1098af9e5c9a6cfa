/*
 * The big tables as virtual tables over the index (ev-sql-int.h): events,
 * matches, collectives, requests. Nothing is copied: a row is an event of
 * a rank's log, a message or a collective of the index, and a column is
 * worked out when a query reads it. The cheap columns come from the index
 * and the logs' offset tables (call, role, peer, tag, bytes, enter); the
 * others (count, datatype, root, op, duration, ...) decode the event's
 * record, once per row. So the first query costs the index build and no
 * loading, and a query reads only what it asks for.
 *
 * events knows its key: rank = R, and seq =, <, <=, >, >= constraints go
 * straight to the rows (a join on (rank, seq) is a lookup), and its rows
 * come in (rank, seq) order. The other tables know theirs the same way
 * through the index's events of a rank (its refs): matches by (send_rank,
 * send_seq) or (recv_rank, recv_seq), requests by (rank, seq).
 */
#include <stdlib.h>
#include <string.h>

#include "ev-sql-int.h"
#include "log-abi.h"

enum { T_EVENTS, T_MATCHES, T_COLLS, T_REQS, T_N };

static const struct {
    const char *name, *schema;
} tables[T_N] = {
    {"events",
     "CREATE TABLE x(rank INTEGER, seq INTEGER, call TEXT, role TEXT,"
     " peer INTEGER, tag INTEGER, comm INTEGER, count INTEGER,"
     " datatype TEXT, bytes INTEGER, root INTEGER, op TEXT, enter REAL,"
     " exit REAL, duration REAL, ret INTEGER, calls INTEGER,"
     " callback TEXT, depth INTEGER)"},
    {"matches",
     "CREATE TABLE x(send_rank INTEGER, send_seq INTEGER,"
     " send_done INTEGER, send_call TEXT, recv_rank INTEGER,"
     " recv_seq INTEGER, recv_done INTEGER, recv_call TEXT, comm INTEGER,"
     " tag INTEGER, bytes INTEGER, any_source INTEGER, any_tag INTEGER)"},
    {"collectives",
     "CREATE TABLE x(comm INTEGER, instance INTEGER, call TEXT,"
     " rank INTEGER, seq INTEGER, done INTEGER, nonblocking INTEGER)"},
    {"requests",
     "CREATE TABLE x(rank INTEGER, seq INTEGER, call TEXT, kind TEXT,"
     " init INTEGER, done INTEGER, done_call TEXT)"},
};

/* events' constraint bits (idxNum) */
enum { K_RANK = 1, K_SEQ = 2, K_LO = 4, K_HI = 8, K_LO_GT = 16,
       K_HI_LT = 32, K_RECV = 64 /* matches: by the receive's side */ };

struct cur {
    sqlite3_vtab_cursor base;
    struct ev_sql *q;
    int t;
    /* events: the rank and seq, up to rank rank_end and seq seq_end */
    int rank, rank_end;
    int64_t seq, seq_lo, seq_hi;
    /* other tables: the row slot; by key (K_RANK): the rank's refs from
     * ref up to seq_hi */
    int64_t row, nrows;
    int keyed;
    size_t ref;
    int eof;
    /* events: what the current row needed so far */
    int have_uses, have_ev;
    struct ev_use uses[8];
    int nuses;
    struct log_event ev;
    struct ev_brief b;
    int ev_ok;
};

/* ---- events' columns ----------------------------------------------------- */

static void uses_of(struct cur *c)
{
    if (c->have_uses)
        return;
    c->have_uses = 1;
    c->nuses = ev_uses(c->q->x, c->rank, (uint64_t)c->seq, c->uses, 8);
    if (c->nuses > 8)
        c->nuses = 8;
    if (c->nuses < 0)
        c->nuses = 0;
}

static int decode(struct cur *c)
{
    if (!c->have_ev) {
        c->have_ev = 1;
        c->ev_ok = log_rank_event(&c->q->x->ranks[c->rank].log,
                                  (uint64_t)c->seq, &c->ev, NULL, 0) == 0;
        if (c->ev_ok)
            ev_brief_of(&c->ev, &c->b);
    }
    return c->ev_ok;
}

/* The one message the row is about (made in *BUF; NULL: none or
 * several), the collective. */
static const struct ev_msg *row_msg(struct cur *c, int32_t *coll,
                                    struct ev_msg *buf)
{
    struct ev_index *ix = c->q->x->ix;
    int32_t msg = -1;
    int nmsg = 0;
    uses_of(c);
    *coll = -1;
    for (int i = 0; i < c->nuses; i++) {
        if (c->uses[i].role == EV_COLL || c->uses[i].role == EV_COLL_DONE)
            *coll = c->uses[i].i;
        else if (msg != c->uses[i].i) {
            msg = c->uses[i].i;
            nmsg++;
        }
    }
    return nmsg == 1 ? ev__msgp(ix, msg, buf) : NULL;
}

static const char *role_of(struct cur *c, int fn)
{
    struct ev_index *ix = c->q->x->ix;
    int send = 0, recv = 0, coll = 0, probe = 0, done = 0;
    uses_of(c);
    for (int i = 0; i < c->nuses; i++) {
        switch (c->uses[i].role) {
        case EV_CALL:
            (ev__m_flags(ix, c->uses[i].i) & EV_M_SEND) ? send++ : recv++;
            break;
        case EV_COLL: coll++; break;
        case EV_PROBE: probe++; break;
        default: done++; break;
        }
    }
    return send && recv ? "sendrecv" : send ? "send" : recv ? "recv"
         : coll ? "collective"
         : probe || ev__fn(ix, fn)->cls == EV__C_PROBE ? "probe"
         : done ? "complete" : NULL;
}

/* The value of the by-value argument named NAME (or NAME2) of the row's
 * call: its index, or -1. */
static int arg_named(const struct log_event *ev, const char *name,
                     const char *name2)
{
    for (int i = 0; ev->desc && i < ev->desc->nargs; i++)
        if (ev->desc->args[i].size &&
            (strcmp(ev->desc->args[i].name, name) == 0 ||
             (name2 && strcmp(ev->desc->args[i].name, name2) == 0)))
            return i;
    return -1;
}

static void result_int(sqlite3_context *ctx, int64_t v, int null)
{
    if (null)
        sqlite3_result_null(ctx);
    else
        sqlite3_result_int64(ctx, v);
}

static void result_handle(sqlite3_context *ctx, const struct log_event *ev,
                          int arg, const char *ctype)
{
    if (arg < 0) {
        sqlite3_result_null(ctx);
        return;
    }
    uint32_t h = (uint32_t)log_event_arg(ev, arg);
    const char *name = log_mpi_handle_name(ctype, h);
    if (name)
        sqlite3_result_text(ctx, name, -1, SQLITE_STATIC);
    else
        sqlite3_result_text(ctx, sqlite3_mprintf("0x%08x", h), -1,
                            sqlite3_free);
}

/* The communicator of the row (global id, -1) and the caller's *SIDE. */
static int32_t row_comm(struct cur *c, int *side)
{
    int32_t coll;
    struct ev_msg mb;
    const struct ev_msg *m = row_msg(c, &coll, &mb);
    int32_t comm = coll >= 0 ? c->q->x->ix->colls[coll].comm
                 : m ? m->comm : -1;
    *side = 0;
    if (decode(c) && c->b.has_comm) {
        int32_t k = ev_comm_of(c->q->x, c->rank, (uint64_t)c->seq,
                               (uint32_t)c->b.comm, side);
        if (comm < 0)
            comm = k;
    }
    return comm;
}

static void root_column(struct cur *c, sqlite3_context *ctx)
{
    int side, a;
    int32_t comm = row_comm(c, &side);
    if (!decode(c) || (a = arg_named(&c->ev, "root", NULL)) < 0) {
        sqlite3_result_null(ctx);
        return;
    }
    int64_t root = log_event_arg(&c->ev, a), w = -1;
    struct ev_index *ix = c->q->x->ix;
    if (root == DRDB_MPI_ROOT)
        w = c->rank;
    else if (comm >= 0 && root >= 0)
        w = ix->comms[comm].inter
                ? ev__world_of(ix, comm, side, (int32_t)root)
                : (root < ix->comms[comm].na ? ix->comms[comm].a[root] : -1);
    result_int(ctx, w, w < 0);
}

static void event_column(struct cur *c, sqlite3_context *ctx, int col)
{
    struct ev_run *x = c->q->x;
    const struct log_rank *lr = &x->ranks[c->rank].log;
    int fn = ev_fn(x, c->rank, (uint64_t)c->seq);
    int32_t coll;
    struct ev_msg mb;
    const struct ev_msg *m;
    double t0 = (double)(lr->hdr.start_ns - c->q->run0) / 1e3;
    switch (col) {
    case 0: sqlite3_result_int(ctx, c->rank); return;
    case 1: sqlite3_result_int64(ctx, c->seq); return;
    case 2: {
        /* A callback entry is no call of its function (the record's id is
         * the function that registered the callback). */
        uint16_t flags;
        memcpy(&flags,
               lr->map + log_rank_offset(lr, (uint64_t)c->seq) + 10, 2);
        if ((flags & LOG_REC_CALLBACK) && decode(c) &&
            ev_callback_kind(&c->ev))
            sqlite3_result_null(ctx);
        else
            sqlite3_result_text(ctx, log_func_name(fn), -1, SQLITE_STATIC);
        return;
    }
    case 3: {
        const char *r = role_of(c, fn);
        if (r)
            sqlite3_result_text(ctx, r, -1, SQLITE_STATIC);
        else
            sqlite3_result_null(ctx);
        return;
    }
    case 4: case 5: case 9:
        if ((m = row_msg(c, &coll, &mb)) != NULL) {
            int64_t v = col == 4 ? m->peer : col == 5 ? m->tag : m->bytes;
            int null = col == 4 ? m->peer < 0
                     : col == 9 ? m->bytes < 0
                                : (!(m->flags & EV_M_SEND) &&
                                   (m->flags & (EV_M_NOSTATUS |
                                                EV_M_PROC_NULL)));
            result_int(ctx, v, null);
        } else if (ev__fn(x->ix, fn)->cls == EV__C_PROBE) {
            struct ev_ref ref;
            int k = ev_partners(x, c->rank, (uint64_t)c->seq, &ref, 1, NULL,
                                0);
            int64_t v = col == 4 ? ref.rank : col == 5 ? ref.tag : ref.bytes;
            result_int(ctx, v, k != 1 || v < 0);
        } else
            sqlite3_result_null(ctx);
        return;
    case 6: {
        int side;
        int32_t comm = row_comm(c, &side);
        result_int(ctx, comm, comm < 0);
        return;
    }
    case 10: root_column(c, ctx); return;
    case 12:
        sqlite3_result_double(
            ctx, t0 + (double)log_rank_enter(lr, (uint64_t)c->seq) / 1e3);
        return;
    }
    if (!decode(c)) {
        sqlite3_result_null(ctx);
        return;
    }
    const struct log_event *ev = &c->ev;
    switch (col) {
    case 7: result_int(ctx, c->b.count, !c->b.has_count); break;
    case 8:
        result_handle(ctx, ev, arg_named(ev, "datatype", "sendtype"),
                      "MPI_Datatype");
        break;
    case 11: result_handle(ctx, ev, arg_named(ev, "op", NULL), "MPI_Op");
        break;
    case 13:
        sqlite3_result_double(ctx, t0 + (double)(ev->enter_ns + ev->dur_ns) /
                                             1e3);
        break;
    case 14: sqlite3_result_double(ctx, (double)ev->dur_ns / 1e3); break;
    case 15:
        sqlite3_result_int(ctx, (ev->flags & LOG_REC_RET) ? ev->ret : 0);
        break;
    case 17: {
        const char *k = ev_callback_kind(ev);
        if (k)
            sqlite3_result_text(ctx, k, -1, SQLITE_STATIC);
        else
            sqlite3_result_null(ctx);
        break;
    }
    case 18: sqlite3_result_int(ctx, (int)ev->depth); break;
    default: sqlite3_result_int64(ctx, (int64_t)log_event_calls(ev)); break;
    }
}

/* ---- the other tables' rows ---------------------------------------------- */

/* How receive I was posted: W_SOURCE with MPI_ANY_SOURCE, W_TAG with
 * MPI_ANY_TAG; decoded once per message (q->wild caches it). */
enum { W_SOURCE = EV__WILD_SOURCE, W_TAG = EV__WILD_TAG, W_KNOWN = 0x80 };
static int wildcard(struct ev_sql *q, int32_t i)
{
    struct ev_index *ix = q->x->ix;
    if (!q->wild)
        q->wild = calloc(ix->nmsgs + 1, 1);
    if (q->wild && (q->wild[i] & W_KNOWN))
        return q->wild[i];
    struct ev_msg m_buf;
    const struct ev_msg *m = ev__msgp(ix, i, &m_buf);
    int w = W_KNOWN | ev__wildcard_at(q->x, m->rank, ev__posting(m));
    if (q->wild)
        q->wild[i] = (unsigned char)w;
    return w;
}

static void side_column(sqlite3_context *ctx, const struct ev_msg *m,
                        int col)
{
    if (!m) {
        sqlite3_result_null(ctx);
        return;
    }
    switch (col) {
    case 0: sqlite3_result_int(ctx, m->rank); break;
    case 1: sqlite3_result_int64(ctx, (int64_t)m->event); break;
    case 2: result_int(ctx, (int64_t)m->done, m->done == EV_NONE); break;
    default:
        sqlite3_result_text(ctx, log_func_name(m->fn), -1, SQLITE_STATIC);
    }
}

static void match_column(struct cur *c, sqlite3_context *ctx, int col)
{
    struct ev_index *ix = c->q->x->ix;
    struct ev_msg m_buf;
    const struct ev_msg *m = ev__msgp(ix, c->row, &m_buf);
    struct ev_msg o_buf;
    const struct ev_msg *o = m->match >= 0 ? ev__msgp(ix, m->match, &o_buf)
                             : NULL;
    int send = (m->flags & EV_M_SEND) != 0;
    const struct ev_msg *s = send ? m : NULL, *rv = send ? o : m;
    if (col < 4) {
        side_column(ctx, s, col);
        return;
    }
    if (col < 8) {
        side_column(ctx, rv, col - 4);
        return;
    }
    switch (col) {
    case 8: result_int(ctx, m->comm, m->comm < 0); break;
    case 9:
        result_int(ctx, m->tag, !s && (m->flags & EV_M_NOSTATUS));
        break;
    case 10: {
        int64_t b = rv ? rv->bytes : m->bytes;
        result_int(ctx, b, b < 0);
        break;
    }
    default:
        if (!rv)
            sqlite3_result_null(ctx);
        else
            sqlite3_result_int(ctx,
                               (wildcard(c->q, send ? m->match
                                                    : (int32_t)c->row) &
                                (col == 11 ? W_SOURCE : W_TAG)) != 0);
    }
}

static void coll_column(struct cur *c, sqlite3_context *ctx, int col)
{
    struct ev_index *ix = c->q->x->ix;
    const struct ev_coll *k = &ix->colls[ix->coll_sorted[c->row]];
    switch (col) {
    case 0: result_int(ctx, k->comm, k->comm < 0); break;
    case 1: sqlite3_result_int(ctx, k->instance); break;
    case 2:
        sqlite3_result_text(ctx, log_func_name(k->fn), -1, SQLITE_STATIC);
        break;
    case 3: sqlite3_result_int(ctx, k->rank); break;
    case 4: sqlite3_result_int64(ctx, (int64_t)k->event); break;
    case 5: result_int(ctx, (int64_t)k->done, k->done == EV_NONE); break;
    default: sqlite3_result_int(ctx, k->nonblocking);
    }
}

static void req_column(struct cur *c, sqlite3_context *ctx, int col)
{
    struct ev_index *ix = c->q->x->ix;
    int is_coll = (size_t)c->row < ix->ncolls;
    const struct ev_coll *k = is_coll ? &ix->colls[c->row] : NULL;
    struct ev_msg m_buf;
    const struct ev_msg *m =
        is_coll ? NULL
                : ev__msgp(ix, (int32_t)((size_t)c->row - ix->ncolls), &m_buf);
    int rank = k ? k->rank : m->rank;
    uint64_t done = k ? k->done : m->done;
    switch (col) {
    case 0: sqlite3_result_int(ctx, rank); break;
    case 1: sqlite3_result_int64(ctx, (int64_t)(k ? k->event : m->event));
        break;
    case 2:
        sqlite3_result_text(ctx, log_func_name(k ? k->fn : m->fn), -1,
                            SQLITE_STATIC);
        break;
    case 3:
        sqlite3_result_text(ctx, k ? "collective"
                                 : (m->flags & EV_M_SEND) ? "send" : "recv",
                            -1, SQLITE_STATIC);
        break;
    case 4: result_int(ctx, m ? (int64_t)m->init : 0, !m || m->init == EV_NONE);
        break;
    case 5: result_int(ctx, (int64_t)done, done == EV_NONE); break;
    default:
        if (done == EV_NONE)
            sqlite3_result_null(ctx);
        else
            sqlite3_result_text(ctx,
                                log_func_name(ev_fn(c->q->x, rank, done)),
                                -1, SQLITE_STATIC);
    }
}

/* Whether slot ROW of table T is a row. */
static int is_row(struct ev_sql *q, int t, int64_t row)
{
    struct ev_index *ix = q->x->ix;
    if (t == T_MATCHES) {
        struct ev_msg m_buf;
        const struct ev_msg *m = ev__msgp(ix, row, &m_buf);
        return !(m->flags & EV_M_PROC_NULL) &&
               ((m->flags & EV_M_SEND) || m->match < 0);
    }
    if (t == T_REQS)
        return (size_t)row < ix->ncolls
                   ? ix->colls[row].nonblocking
                   : (ev__m_flags(ix, (size_t)row - ix->ncolls) &
                      EV_M_NONBLOCKING) != 0;
    return 1;
}

/* ---- the module ---------------------------------------------------------- */

int ev__vtab_connect(sqlite3 *db, struct ev_sql *q, const char *name,
                     const char *const *names, const char *const *schemas,
                     int n, sqlite3_vtab **out)
{
    int kind = -1;
    for (int i = 0; i < n; i++)
        if (strcmp(name, names[i]) == 0)
            kind = i;
    if (kind < 0)
        return SQLITE_ERROR;
    q->loading++; /* the schema's CREATE TABLE passes the authorizer */
    int rc = sqlite3_declare_vtab(db, schemas[kind]);
    q->loading--;
    if (rc != SQLITE_OK)
        return rc;
    struct ev__vtab *v = sqlite3_malloc(sizeof *v);
    if (!v)
        return SQLITE_NOMEM;
    memset(v, 0, sizeof *v);
    v->q = q;
    v->kind = kind;
    *out = &v->base;
    return SQLITE_OK;
}

int ev__vtab_disconnect(sqlite3_vtab *v)
{
    sqlite3_free(v);
    return SQLITE_OK;
}

static int vt_connect(sqlite3 *db, void *aux, int argc,
                      const char *const *argv, sqlite3_vtab **out,
                      char **errmsg)
{
    const char *names[T_N], *schemas[T_N];
    (void)argc;
    (void)errmsg;
    for (int i = 0; i < T_N; i++) {
        names[i] = tables[i].name;
        schemas[i] = tables[i].schema;
    }
    return ev__vtab_connect(db, aux, argv[0], names, schemas, T_N, out);
}

/* The usable constraints rank = R on column RC and seq =, <, <=, >, >=
 * on column SC: their bits, and in SLOT the constraint of each (rank,
 * seq =, low, high). */
static int key_bits(const sqlite3_index_info *info, int rc, int sc,
                    int slot[4])
{
    int bits = 0;
    for (int s = 0; s < 4; s++)
        slot[s] = -1;
    for (int i = 0; i < info->nConstraint; i++) {
        const struct sqlite3_index_constraint *k = &info->aConstraint[i];
        if (!k->usable || (k->iColumn != rc && k->iColumn != sc))
            continue;
        if (k->iColumn == rc && k->op == SQLITE_INDEX_CONSTRAINT_EQ)
            slot[0] = i, bits |= K_RANK;
        else if (k->iColumn == rc)
            continue;
        else if (k->op == SQLITE_INDEX_CONSTRAINT_EQ)
            slot[1] = i, bits |= K_SEQ;
        else if (k->op == SQLITE_INDEX_CONSTRAINT_GT ||
                 k->op == SQLITE_INDEX_CONSTRAINT_GE)
            slot[2] = i, bits = (bits & ~K_LO_GT) | K_LO |
                                (k->op == SQLITE_INDEX_CONSTRAINT_GT
                                     ? K_LO_GT : 0);
        else if (k->op == SQLITE_INDEX_CONSTRAINT_LT ||
                 k->op == SQLITE_INDEX_CONSTRAINT_LE)
            slot[3] = i, bits = (bits & ~K_HI_LT) | K_HI |
                                (k->op == SQLITE_INDEX_CONSTRAINT_LT
                                     ? K_HI_LT : 0);
    }
    if (bits & K_SEQ)
        bits &= ~(K_LO | K_HI | K_LO_GT | K_HI_LT), slot[2] = slot[3] = -1;
    return bits;
}

static int vt_best_index(sqlite3_vtab *vt, sqlite3_index_info *info)
{
    struct ev__vtab *v = (struct ev__vtab *)vt;
    struct ev_run *x = v->q->x;
    struct ev_index *ix = x->ix;
    double rows = 0;
    for (int i = 0; i < x->nlogged; i++)
        if (x->ranks[x->logged[i]].present)
            rows += (double)x->ranks[x->logged[i]].log.nevents;
    int bits, slot[4];
    if (v->kind == T_EVENTS) {
        bits = key_bits(info, 0, 1, slot);
    } else {
        /* a full scan: as many rows as the index's arrays; by key, the
         * refs of the rank's events */
        double all = v->kind == T_MATCHES ? (double)ix->nmsgs
                   : v->kind == T_COLLS   ? (double)ix->ncolls
                                          : (double)(ix->nmsgs + ix->ncolls);
        bits = v->kind == T_COLLS ? 0 : key_bits(info, 0, 1, slot);
        if (v->kind == T_MATCHES && !(bits & K_RANK)) {
            bits = key_bits(info, 4, 5, slot);
            if (bits & K_RANK)
                bits |= K_RECV;
        }
        if (!(bits & K_RANK)) {
            info->idxNum = 0;
            info->estimatedCost = all + 10;
            info->estimatedRows = (sqlite3_int64)all + 1;
            return SQLITE_OK;
        }
        rows = all;
    }
    int arg = 1;
    for (int s = 0; s < 4; s++)
        if (slot[s] >= 0) {
            /* SQLite checks each row again (omit 0): a non-integer
             * value compares as SQL says, not as the cut here */
            info->aConstraintUsage[slot[s]].argvIndex = arg++;
        }
    info->idxNum = bits;
    if (bits & K_RANK)
        rows /= x->nlogged > 0 ? x->nlogged : 1;
    if (bits & K_SEQ)
        rows = 1;
    else if (bits & (K_LO | K_HI))
        rows /= 4;
    info->estimatedCost = rows + 1;
    info->estimatedRows = (sqlite3_int64)rows + 1;
    if (v->kind != T_EVENTS)
        return SQLITE_OK;
    if (bits == (K_RANK | K_SEQ))
        info->idxFlags = SQLITE_INDEX_SCAN_UNIQUE;
    /* rows come by rank, then seq */
    int ordered = 1;
    for (int i = 0; i < info->nOrderBy; i++)
        ordered &= info->aOrderBy[i].iColumn == i && !info->aOrderBy[i].desc;
    info->orderByConsumed = ordered && info->nOrderBy <= 2;
    return SQLITE_OK;
}

static int vt_open(sqlite3_vtab *vt, sqlite3_vtab_cursor **out)
{
    struct ev__vtab *v = (struct ev__vtab *)vt;
    struct cur *c = sqlite3_malloc(sizeof *c);
    if (!c)
        return SQLITE_NOMEM;
    memset(c, 0, sizeof *c);
    c->q = v->q;
    c->t = v->kind;
    *out = &c->base;
    return SQLITE_OK;
}

static int vt_close(sqlite3_vtab_cursor *cur)
{
    sqlite3_free(cur);
    return SQLITE_OK;
}

/* events: settles on the first row at or after (rank, seq) in range. */
static void events_settle(struct cur *c)
{
    struct ev_run *x = c->q->x;
    c->have_uses = c->have_ev = 0;
    while (c->rank <= c->rank_end) {
        int64_t n = x->ranks[c->rank].present
                        ? (int64_t)x->ranks[c->rank].log.nevents
                        : 0;
        if (c->seq < c->seq_lo)
            c->seq = c->seq_lo;
        if (c->seq < n && c->seq <= c->seq_hi)
            return;
        c->rank = ev__next_logged(x, c->rank + 1);
        c->seq = c->seq_lo;
    }
    c->eof = 1;
}

/* The row of table T that ref X of rank RANK is the key of (its posting
 * call, on the side K_RECV says), or -1. */
static int64_t ref_row(struct ev_sql *q, int t, int bits, int rank,
                       const struct ev__xref *x)
{
    struct ev_index *ix = q->x->ix;
    if (x->role == EV_COLL) {
        const struct ev_coll *k = &ix->colls[x->i];
        return t == T_REQS && k->nonblocking && k->rank == rank &&
                       k->event == x->event
                   ? x->i : -1;
    }
    if (x->role != EV_CALL)
        return -1;
    struct ev_msg m_buf;
    const struct ev_msg *m = ev__msgp(ix, x->i, &m_buf);
    if (m->rank != rank || m->event != x->event)
        return -1;
    if (t == T_REQS)
        return (m->flags & EV_M_NONBLOCKING) ? (int64_t)ix->ncolls + x->i
                                             : -1;
    int send = (m->flags & EV_M_SEND) != 0;
    if (send == ((bits & K_RECV) != 0))
        return -1;
    int64_t row = !send && m->match >= 0 ? m->match : x->i;
    return is_row(q, t, row) ? row : -1;
}

/* By key: settles on the first ref at or after c->ref that is a row. */
static void keyed_settle(struct cur *c, int bits)
{
    const struct ev_index *ix = c->q->x->ix;
    const struct ev__rank_ix *ri = &ix->r[c->rank];
    for (; c->ref < ri->nrefs; c->ref++) {
        const struct ev__xref xx = ev__ref_at(ix, ri, c->ref), *x = &xx;
        if ((int64_t)x->event > c->seq_hi)
            break;
        if ((c->row = ref_row(c->q, c->t, bits, c->rank, x)) >= 0)
            return;
    }
    c->eof = 1;
}

static void rows_settle(struct cur *c)
{
    while (c->row < c->nrows && !is_row(c->q, c->t, c->row))
        c->row++;
    c->eof = c->row >= c->nrows;
}

static int vt_filter(sqlite3_vtab_cursor *cur, int idx, const char *idxs,
                     int argc, sqlite3_value **argv)
{
    struct cur *c = (struct cur *)cur;
    struct ev_index *ix = c->q->x->ix;
    (void)idxs;
    (void)argc;
    c->eof = 0;
    c->keyed = 0;
    if (c->t != T_EVENTS && !(idx & K_RANK)) {
        c->row = 0;
        c->nrows = c->t == T_MATCHES ? (int64_t)ix->nmsgs
                 : c->t == T_COLLS   ? (int64_t)ix->ncolls
                                     : (int64_t)(ix->ncolls + ix->nmsgs);
        rows_settle(c);
        return SQLITE_OK;
    }
    int a = 0;
    c->rank = ev__next_logged(c->q->x, 0);
    c->rank_end = c->q->x->world_size - 1;
    c->seq_lo = 0;
    c->seq_hi = INT64_MAX;
    if (idx & K_RANK) {
        int64_t r = sqlite3_value_int64(argv[a++]);
        if (sqlite3_value_type(argv[a - 1]) == SQLITE_NULL || r < 0 ||
            r > c->rank_end) {
            c->eof = 1;
            return SQLITE_OK;
        }
        c->rank = c->rank_end = (int)r;
    }
    if (idx & K_SEQ) {
        int null = sqlite3_value_type(argv[a]) == SQLITE_NULL;
        c->seq_lo = c->seq_hi = sqlite3_value_int64(argv[a++]);
        if (null || c->seq_lo < 0) {
            c->eof = 1;
            return SQLITE_OK;
        }
    }
    if (idx & K_LO) {
        double v = sqlite3_value_double(argv[a++]);
        int64_t lo = (int64_t)v;
        if ((idx & K_LO_GT) ? (double)lo <= v : (double)lo < v)
            lo++;
        c->seq_lo = lo > 0 ? lo : 0;
    }
    if (idx & K_HI) {
        double v = sqlite3_value_double(argv[a++]);
        int64_t hi = (int64_t)v;
        if ((idx & K_HI_LT) ? (double)hi >= v : (double)hi > v)
            hi--;
        c->seq_hi = hi;
    }
    c->seq = c->seq_lo;
    if (c->t == T_EVENTS) {
        events_settle(c);
        return SQLITE_OK;
    }
    /* by key: from the first of the rank's refs at seq_lo */
    c->keyed = idx;
    c->ref = ev__ref_lower(ix, &ix->r[c->rank], (uint64_t)c->seq_lo);
    keyed_settle(c, idx);
    return SQLITE_OK;
}

static int vt_next(sqlite3_vtab_cursor *cur)
{
    struct cur *c = (struct cur *)cur;
    if (c->t == T_EVENTS) {
        c->seq++;
        events_settle(c);
    } else if (c->keyed) {
        c->ref++;
        keyed_settle(c, c->keyed);
    } else {
        c->row++;
        rows_settle(c);
    }
    return SQLITE_OK;
}

static int vt_eof(sqlite3_vtab_cursor *cur)
{
    return ((struct cur *)cur)->eof;
}

static int vt_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
    struct cur *c = (struct cur *)cur;
    switch (c->t) {
    case T_EVENTS: event_column(c, ctx, col); break;
    case T_MATCHES: match_column(c, ctx, col); break;
    case T_COLLS: coll_column(c, ctx, col); break;
    default: req_column(c, ctx, col); break;
    }
    return SQLITE_OK;
}

static int vt_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *id)
{
    struct cur *c = (struct cur *)cur;
    *id = c->t == T_EVENTS ? ((sqlite3_int64)c->rank << 40) | c->seq : c->row;
    return SQLITE_OK;
}

static const sqlite3_module vt_module = {
    .iVersion = 0,
    .xCreate = NULL, /* eponymous only: no CREATE VIRTUAL TABLE */
    .xConnect = vt_connect,
    .xBestIndex = vt_best_index,
    .xDisconnect = ev__vtab_disconnect,
    .xDestroy = ev__vtab_disconnect,
    .xOpen = vt_open,
    .xClose = vt_close,
    .xFilter = vt_filter,
    .xNext = vt_next,
    .xEof = vt_eof,
    .xColumn = vt_column,
    .xRowid = vt_rowid,
};

int ev__sql_vtabs(struct ev_sql *q, char *err, size_t errlen)
{
    for (int i = 0; i < T_N; i++)
        if (sqlite3_create_module(q->db, tables[i].name, &vt_module, q) !=
            SQLITE_OK) {
            log_errf(err, errlen, "the query database: %s",
                     sqlite3_errmsg(q->db));
            return -1;
        }
    return 0;
}
