/*
 * The query database's functions (ev-sql-int.h): the table-valued
 * functions pending(rank, seq), causal_past(rank, seq) and
 * causal_future(rank, seq), and the scalars happened_before(r1, s1, r2,
 * s2), data(rank, seq) and data_int(rank, seq, byte). Pasts and futures
 * are ev-causal.c's.
 */
#include <stdlib.h>
#include <string.h>

#include "ev-sql-int.h"

static struct ev__causal *causal_of(struct ev_sql *q)
{
    if (!q->causal)
        q->causal = ev__causal_build(q->x);
    return q->causal;
}

/* Checks rank R's event S exists: 0, or -1 with a message into *MSG. */
static int check_event(struct ev_sql *q, int64_t r, int64_t s, char **msg)
{
    struct ev_run *x = q->x;
    if (r < 0 || r >= x->world_size || !x->ranks[r].present) {
        *msg = sqlite3_mprintf("no rank %lld in the run (ranks 0-%d with "
                               "logs)", (long long)r, x->world_size - 1);
        return -1;
    }
    if (s < 0 || (uint64_t)s >= x->ranks[r].log.nevents) {
        *msg = sqlite3_mprintf("rank %lld has %llu events: no event %lld",
                               (long long)r,
                               (unsigned long long)x->ranks[r].log.nevents,
                               (long long)s);
        return -1;
    }
    return 0;
}

/* ---- table-valued functions --------------------------------------------- */

enum { F_PENDING, F_PAST, F_FUTURE };

struct tvf {
    const char *name;
    const char *schema;
    int ncols; /* visible columns; the two arguments follow */
};

static const struct tvf tvfs[] = {
    {"pending",
     "CREATE TABLE x(kind TEXT, rank INTEGER, seq INTEGER, call TEXT,"
     " peer INTEGER, tag INTEGER, comm INTEGER, bytes INTEGER,"
     " at_rank HIDDEN, at_seq HIDDEN)", 8},
    {"causal_past",
     "CREATE TABLE x(rank INTEGER, seq INTEGER, of_rank HIDDEN,"
     " of_seq HIDDEN)", 2},
    {"causal_future",
     "CREATE TABLE x(rank INTEGER, seq INTEGER, of_rank HIDDEN,"
     " of_seq HIDDEN)", 2},
};

/* A pending row: what it is and its message or collective. */
struct prow {
    const char *kind;
    int32_t i;
    int coll;
};

struct tvf_cur {
    sqlite3_vtab_cursor base;
    int64_t arg[2];
    /* pending: rows */
    struct prow *rows;
    size_t nrows, at;
    /* causal: the range of each rank, lo..hi inclusive */
    int64_t *lo, *hi;
    int rank;
    int64_t seq;
    int eof;
};

static int tvf_connect(sqlite3 *db, void *aux, int argc,
                       const char *const *argv, sqlite3_vtab **out,
                       char **errmsg)
{
    const char *names[3], *schemas[3];
    (void)argc;
    (void)errmsg;
    for (int i = 0; i < 3; i++) {
        names[i] = tvfs[i].name;
        schemas[i] = tvfs[i].schema;
    }
    return ev__vtab_connect(db, aux, argv[0], names, schemas, 3, out);
}

/* Both arguments, given with '=' (as table-valued function arguments
 * are): idxNum 3. A plan without them is costed out; its xFilter says
 * what is missing. */
static int tvf_best_index(sqlite3_vtab *vt, sqlite3_index_info *info)
{
    struct ev__vtab *v = (struct ev__vtab *)vt;
    int nc = tvfs[v->kind].ncols, have = 0;
    for (int i = 0; i < info->nConstraint; i++) {
        const struct sqlite3_index_constraint *k = &info->aConstraint[i];
        int a = k->iColumn - nc;
        if (a < 0 || a > 1 || !k->usable ||
            k->op != SQLITE_INDEX_CONSTRAINT_EQ)
            continue;
        info->aConstraintUsage[i].argvIndex = a + 1;
        info->aConstraintUsage[i].omit = 1;
        have |= 1 << a;
    }
    info->idxNum = have;
    info->estimatedCost = have == 3 ? 1000.0 : 1e30;
    return SQLITE_OK;
}

static int tvf_open(sqlite3_vtab *vt, sqlite3_vtab_cursor **out)
{
    struct ev__vtab *v = (struct ev__vtab *)vt;
    struct tvf_cur *c = sqlite3_malloc(sizeof *c);
    if (!c)
        return SQLITE_NOMEM;
    memset(c, 0, sizeof *c);
    int n = v->q->x->world_size;
    c->lo = sqlite3_malloc64((uint64_t)n * sizeof *c->lo);
    c->hi = sqlite3_malloc64((uint64_t)n * sizeof *c->hi);
    if (!c->lo || !c->hi) {
        sqlite3_free(c->lo);
        sqlite3_free(c->hi);
        sqlite3_free(c);
        return SQLITE_NOMEM;
    }
    *out = &c->base;
    return SQLITE_OK;
}

static int tvf_close(sqlite3_vtab_cursor *cur)
{
    struct tvf_cur *c = (struct tvf_cur *)cur;
    free(c->rows);
    sqlite3_free(c->lo);
    sqlite3_free(c->hi);
    sqlite3_free(c);
    return SQLITE_OK;
}

/* Moves a causal cursor to its next row (from rank/seq). */
static void causal_settle(struct tvf_cur *c, int n)
{
    while (c->rank < n && c->seq > c->hi[c->rank]) {
        c->rank++;
        if (c->rank < n)
            c->seq = c->lo[c->rank];
    }
    c->eof = c->rank >= n;
}

static int push_row(struct tvf_cur *c, size_t *cap, const char *kind,
                    int32_t i, int coll)
{
    if (util_grow(&c->rows, cap, c->nrows + 1, sizeof *c->rows) < 0)
        return -1;
    c->rows[c->nrows++] = (struct prow){kind, i, coll};
    return 0;
}

static int fill_pending(struct ev__vtab *v, struct tvf_cur *c)
{
    struct ev_queue qu;
    char err[256];
    size_t cap = 0;
    int bad = 0;
    if (ev_pending(v->q->x, (int)c->arg[0], (uint64_t)c->arg[1], &qu, err,
                   sizeof err) < 0) {
        v->base.zErrMsg = sqlite3_mprintf("pending: %s", err);
        return SQLITE_ERROR;
    }
    for (size_t i = 0; i < qu.nincoming && !bad; i++)
        bad = push_row(c, &cap, "incoming", qu.incoming[i], 0);
    for (size_t i = 0; i < qu.nrequests && !bad; i++)
        bad = push_row(c, &cap, "request", qu.requests[i], 0);
    for (size_t i = 0; i < qu.ncolls && !bad; i++)
        bad = push_row(c, &cap, "collective", qu.colls[i], 1);
    ev_queue_release(&qu);
    return bad ? SQLITE_NOMEM : SQLITE_OK;
}

static int tvf_filter(sqlite3_vtab_cursor *cur, int idx, const char *idxs,
                      int argc, sqlite3_value **argv)
{
    struct tvf_cur *c = (struct tvf_cur *)cur;
    struct ev__vtab *v = (struct ev__vtab *)cur->pVtab;
    struct ev_sql *q = v->q;
    (void)idxs;
    free(c->rows);
    c->rows = NULL;
    c->nrows = c->at = 0;
    c->eof = 1;
    if (idx != 3 || argc != 2) {
        v->base.zErrMsg = sqlite3_mprintf(
            "%s needs an event: %s(RANK, SEQ)", tvfs[v->kind].name,
            tvfs[v->kind].name);
        return SQLITE_ERROR;
    }
    for (int i = 0; i < 2; i++) {
        if (sqlite3_value_type(argv[i]) == SQLITE_NULL)
            return SQLITE_OK; /* no event: no rows */
        c->arg[i] = sqlite3_value_int64(argv[i]);
    }
    char *msg = NULL;
    if (check_event(q, c->arg[0], c->arg[1], &msg) < 0) {
        v->base.zErrMsg = sqlite3_mprintf("%s: %s", tvfs[v->kind].name, msg);
        sqlite3_free(msg);
        return SQLITE_ERROR;
    }
    if (v->kind == F_PENDING) {
        int rc = fill_pending(v, c);
        c->eof = c->nrows == 0;
        return rc;
    }
    struct ev__causal *k = causal_of(q);
    if (!k)
        return SQLITE_NOMEM;
    int future = v->kind == F_FUTURE, n = q->x->world_size;
    const int64_t *lim =
        ev__causal_walk(k, q->x, (int)c->arg[0], (uint64_t)c->arg[1], future);
    for (int p = 0; p < n; p++) {
        int64_t end = q->x->ranks[p].present
                          ? (int64_t)q->x->ranks[p].log.nevents - 1
                          : -1;
        c->lo[p] = future ? lim[p] : 0;
        c->hi[p] = future ? end : lim[p];
    }
    /* the event itself is in neither */
    if (future)
        c->lo[c->arg[0]] = c->arg[1] + 1;
    else
        c->hi[c->arg[0]] = c->arg[1] - 1;
    c->rank = 0;
    c->seq = c->lo[0];
    causal_settle(c, n);
    return SQLITE_OK;
}

static int tvf_next(sqlite3_vtab_cursor *cur)
{
    struct tvf_cur *c = (struct tvf_cur *)cur;
    struct ev__vtab *v = (struct ev__vtab *)cur->pVtab;
    if (v->kind == F_PENDING) {
        c->eof = ++c->at >= c->nrows;
        return SQLITE_OK;
    }
    c->seq++;
    causal_settle(c, v->q->x->world_size);
    return SQLITE_OK;
}

static int tvf_eof(sqlite3_vtab_cursor *cur)
{
    return ((struct tvf_cur *)cur)->eof;
}

static void result_int(sqlite3_context *ctx, int64_t v, int null)
{
    if (null)
        sqlite3_result_null(ctx);
    else
        sqlite3_result_int64(ctx, v);
}

static void pending_column(struct ev_index *ix, const struct prow *p,
                           sqlite3_context *ctx, int col)
{
    struct ev_msg m_buf;
    const struct ev_msg *m = p->coll ? NULL : ev__msgp(ix, p->i, &m_buf);
    const struct ev_coll *k = p->coll ? &ix->colls[p->i] : NULL;
    switch (col) {
    case 0: sqlite3_result_text(ctx, p->kind, -1, SQLITE_STATIC); break;
    case 1: sqlite3_result_int(ctx, m ? m->rank : k->rank); break;
    case 2:
        sqlite3_result_int64(ctx, (int64_t)(m ? m->event : k->event));
        break;
    case 3:
        sqlite3_result_text(ctx, log_func_name(m ? m->fn : k->fn), -1,
                            SQLITE_STATIC);
        break;
    case 4: result_int(ctx, m ? m->peer : 0, !m || m->peer < 0); break;
    case 5:
        result_int(ctx, m ? m->tag : 0,
                   !m || (!(m->flags & EV_M_SEND) &&
                          (m->flags & EV_M_NOSTATUS)));
        break;
    case 6:
        result_int(ctx, m ? m->comm : k->comm, (m ? m->comm : k->comm) < 0);
        break;
    default: result_int(ctx, m ? m->bytes : 0, !m || m->bytes < 0); break;
    }
}

static int tvf_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx,
                      int col)
{
    struct tvf_cur *c = (struct tvf_cur *)cur;
    struct ev__vtab *v = (struct ev__vtab *)cur->pVtab;
    int nc = tvfs[v->kind].ncols;
    if (col >= nc) {
        sqlite3_result_int64(ctx, c->arg[col - nc]);
        return SQLITE_OK;
    }
    if (v->kind == F_PENDING)
        pending_column(v->q->x->ix, &c->rows[c->at], ctx, col);
    else
        sqlite3_result_int64(ctx, col == 0 ? c->rank : c->seq);
    return SQLITE_OK;
}

static int tvf_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *id)
{
    struct tvf_cur *c = (struct tvf_cur *)cur;
    *id = (sqlite3_int64)c->at ^ ((sqlite3_int64)c->rank << 40) ^ c->seq;
    return SQLITE_OK;
}

static const sqlite3_module tvf_module = {
    .iVersion = 0,
    .xCreate = NULL, /* eponymous only: no CREATE VIRTUAL TABLE */
    .xConnect = tvf_connect,
    .xBestIndex = tvf_best_index,
    .xDisconnect = ev__vtab_disconnect,
    .xDestroy = ev__vtab_disconnect,
    .xOpen = tvf_open,
    .xClose = tvf_close,
    .xFilter = tvf_filter,
    .xNext = tvf_next,
    .xEof = tvf_eof,
    .xColumn = tvf_column,
    .xRowid = tvf_rowid,
};

/* ---- happened_before ---------------------------------------------------- */

static void happened_before(sqlite3_context *ctx, int argc,
                            sqlite3_value **argv)
{
    struct ev_sql *q = sqlite3_user_data(ctx);
    int64_t a[4];
    (void)argc;
    for (int i = 0; i < 4; i++) {
        if (sqlite3_value_type(argv[i]) == SQLITE_NULL) {
            sqlite3_result_null(ctx);
            return;
        }
        a[i] = sqlite3_value_int64(argv[i]);
    }
    char *msg = NULL;
    if (check_event(q, a[0], a[1], &msg) < 0 ||
        check_event(q, a[2], a[3], &msg) < 0) {
        char *m = sqlite3_mprintf("happened_before: %s", msg);
        sqlite3_result_error(ctx, m, -1);
        sqlite3_free(m);
        sqlite3_free(msg);
        return;
    }
    struct ev__causal *k = causal_of(q);
    if (!k) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    sqlite3_result_int(ctx, ev__causal_before(k, q->x, (int)a[0],
                                              (uint64_t)a[1], (int)a[2],
                                              (uint64_t)a[3]));
}

/* ---- data, data_int ----------------------------------------------------- */

/* The message data event (ARGV[0], ARGV[1]) received (its record's first
 * data field, as delivered: inflated, fetched): *P and *LEN, 1; 0 when it
 * has none (a SQL NULL is the answer); -1 after an error given to CTX. The
 * bytes are valid until the next field this thread reads. */
static int event_data(sqlite3_context *ctx, const char *fn,
                      sqlite3_value **argv, const uint8_t **p, uint64_t *len)
{
    struct ev_sql *q = sqlite3_user_data(ctx);
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL ||
        sqlite3_value_type(argv[1]) == SQLITE_NULL)
        return 0;
    int64_t r = sqlite3_value_int64(argv[0]), n = sqlite3_value_int64(argv[1]);
    char *msg = NULL, e[256] = "";
    struct log_event ev;
    if (check_event(q, r, n, &msg) < 0 ||
        log_rank_event(&q->x->ranks[r].log, (uint64_t)n, &ev, e, sizeof e) <
            0) {
        char *m = sqlite3_mprintf("%s: %s", fn, msg ? msg : e);
        sqlite3_result_error(ctx, m, -1);
        sqlite3_free(m);
        sqlite3_free(msg);
        return -1;
    }
    struct log_field f;
    size_t cur = 0;
    while (log_event_field(&ev, &cur, &f) > 0)
        if (f.kind == LOG_F_DATA) {
            *p = f.data;
            *len = f.len;
            return 1;
        }
    return 0;
}

static void data(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    const uint8_t *p;
    uint64_t len;
    (void)argc;
    int rc = event_data(ctx, "data", argv, &p, &len);
    if (rc == 0)
        sqlite3_result_null(ctx);
    else if (rc > 0)
        sqlite3_result_blob64(ctx, p, len, SQLITE_TRANSIENT);
}

static void data_int(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    const uint8_t *p;
    uint64_t len;
    (void)argc;
    int64_t at = sqlite3_value_int64(argv[2]);
    int rc = sqlite3_value_type(argv[2]) == SQLITE_NULL
                 ? 0
                 : event_data(ctx, "data_int", argv, &p, &len);
    if (rc > 0 && at >= 0 && (uint64_t)at + 4 <= len) {
        /* the recording host's byte order: little-endian (x86-64) */
        uint32_t v = (uint32_t)p[at] | (uint32_t)p[at + 1] << 8 |
                     (uint32_t)p[at + 2] << 16 | (uint32_t)p[at + 3] << 24;
        sqlite3_result_int64(ctx, (int32_t)v);
    } else if (rc >= 0) {
        sqlite3_result_null(ctx);
    }
}

int ev__sql_funcs(struct ev_sql *q, char *err, size_t errlen)
{
    static const struct {
        const char *name;
        int nargs;
        void (*fn)(sqlite3_context *, int, sqlite3_value **);
    } scalars[] = {{"data", 2, data}, {"data_int", 3, data_int}};
    for (size_t i = 0; i < sizeof scalars / sizeof scalars[0]; i++)
        if (sqlite3_create_function(q->db, scalars[i].name, scalars[i].nargs,
                                    SQLITE_UTF8 | SQLITE_DETERMINISTIC, q,
                                    scalars[i].fn, NULL, NULL) != SQLITE_OK) {
            log_errf(err, errlen, "the query database: %s",
                     sqlite3_errmsg(q->db));
            return -1;
        }
    for (int i = 0; i < 3; i++)
        if (sqlite3_create_module(q->db, tvfs[i].name, &tvf_module, q) !=
            SQLITE_OK) {
            log_errf(err, errlen, "the query database: %s",
                     sqlite3_errmsg(q->db));
            return -1;
        }
    if (sqlite3_create_function(q->db, "happened_before", 4,
                                SQLITE_UTF8 | SQLITE_DETERMINISTIC, q,
                                happened_before, NULL, NULL) != SQLITE_OK) {
        log_errf(err, errlen, "the query database: %s",
                 sqlite3_errmsg(q->db));
        return -1;
    }
    return 0;
}
