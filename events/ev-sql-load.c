/*
 * The small tables of the query database, loaded from the run and the
 * index (ev-sql-int.h): procs (one row per rank), comms and comm_members
 * (one per communicator, per member). The big ones are virtual tables
 * (ev-sql-vtab.c). docs/queries.md says what each column means.
 */
#include <stdlib.h>
#include <string.h>

#include "ev-sql-int.h"

static const char schema[] =
    "CREATE TABLE procs (rank INTEGER PRIMARY KEY, host TEXT, pid INTEGER,"
    " events INTEGER, start REAL, ending TEXT, detail TEXT);"
    "CREATE TABLE comms (comm INTEGER PRIMARY KEY, size INTEGER,"
    " inter INTEGER, size_a INTEGER, size_b INTEGER, instance INTEGER,"
    " creator_rank INTEGER, creator_seq INTEGER);"
    "CREATE TABLE comm_members (comm INTEGER, side INTEGER,"
    " local_rank INTEGER, rank INTEGER,"
    " PRIMARY KEY (comm, side, local_rank)) WITHOUT ROWID;"
    ;

struct loader {
    struct ev_sql *q;
    struct ev_run *x;
    struct ev_index *ix;
    char *err;
    size_t errlen;
};

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
    int rc = st ? 0 : -1, every = l->x->world_size <= EV_SQL_WORLD_ROWS;
    int n = every ? l->x->world_size : l->x->nlogged;
    for (int k = 0; k < n && rc == 0; k++) {
        int r = every ? k : l->x->logged[k];
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
                                (double)(rk->log.hdr.start_ns - l->q->run0) /
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
            if (cm->id == 0 && n > EV_SQL_WORLD_ROWS)
                break; /* the world's members: every rank below its size */
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

int ev__sql_load(struct ev_sql *q, char *err, size_t errlen)
{
    struct loader l = {.q = q, .x = q->x, .ix = q->x->ix, .err = err,
                       .errlen = errlen};
    q->run0 = UINT64_MAX;
    for (int i = 0; i < l.x->nlogged; i++) {
        const struct ev_rank *rk = &l.x->ranks[l.x->logged[i]];
        if (rk->present && rk->log.hdr.start_ns < q->run0)
            q->run0 = rk->log.hdr.start_ns;
    }
    if (sqlite3_exec(q->db, schema, NULL, NULL, NULL) != SQLITE_OK ||
        sqlite3_exec(q->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
        return fail(&l, "schema");
    if (load_procs(&l) < 0 || load_comms(&l) < 0)
        return -1;
    if (sqlite3_exec(q->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
        return fail(&l, "commit");
    return 0;
}
