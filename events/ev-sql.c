/*
 * The query database (ev-sql.h): an in-memory SQLite database made on
 * first use (its tables: ev-sql-load.c, ev-sql-vtab.c; its functions:
 * ev-sql-func.c), its read-only guard, running one statement.
 *
 * Read-only, three ways: an authorizer that allows reading and nothing
 * else (it runs when a statement is compiled, so a refused statement never
 * runs), sqlite3_stmt_readonly() before the first step (VACUUM, which the
 * authorizer has no action for), and the connection's own settings: no
 * extension loading, no ATTACH (SQLITE_LIMIT_ATTACHED 0), defensive mode
 * (no writable_schema), temporary storage in memory. The database is
 * ":memory:": nothing it does reaches a file.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ev-sql-int.h"

/* Pragmas that only read (introspection), allowed with any argument. */
static const char *const read_pragmas[] = {
    "table_info", "table_xinfo", "table_list", "index_list", "index_info",
    "index_xinfo", "function_list", "collation_list", "pragma_list",
    "module_list", "foreign_key_list",
};

static const char *action_name(int action)
{
    switch (action) {
    case SQLITE_ATTACH: return "ATTACH";
    case SQLITE_DETACH: return "DETACH";
    case SQLITE_INSERT: return "INSERT";
    case SQLITE_UPDATE: return "UPDATE";
    case SQLITE_DELETE: return "DELETE";
    case SQLITE_TRANSACTION: return "a transaction";
    case SQLITE_SAVEPOINT: return "SAVEPOINT";
    case SQLITE_ALTER_TABLE: return "ALTER TABLE";
    case SQLITE_ANALYZE: return "ANALYZE";
    case SQLITE_REINDEX: return "REINDEX";
    case SQLITE_CREATE_VTABLE: return "CREATE VIRTUAL TABLE";
    case SQLITE_DROP_VTABLE: return "DROP VIRTUAL TABLE";
    case SQLITE_CREATE_INDEX: case SQLITE_CREATE_TABLE:
    case SQLITE_CREATE_TEMP_INDEX: case SQLITE_CREATE_TEMP_TABLE:
    case SQLITE_CREATE_TEMP_TRIGGER: case SQLITE_CREATE_TEMP_VIEW:
    case SQLITE_CREATE_TRIGGER: case SQLITE_CREATE_VIEW: return "CREATE";
    case SQLITE_DROP_INDEX: case SQLITE_DROP_TABLE:
    case SQLITE_DROP_TEMP_INDEX: case SQLITE_DROP_TEMP_TABLE:
    case SQLITE_DROP_TEMP_TRIGGER: case SQLITE_DROP_TEMP_VIEW:
    case SQLITE_DROP_TRIGGER: case SQLITE_DROP_VIEW: return "DROP";
    default: return "this statement";
    }
}

static int authorize(void *ud, int action, const char *a1, const char *a2,
                     const char *db, const char *trigger)
{
    struct ev_sql *q = ud;
    (void)db;
    (void)trigger;
    if (q->loading)
        return SQLITE_OK;
    switch (action) {
    case SQLITE_SELECT:
    case SQLITE_READ:
    case SQLITE_RECURSIVE:
        return SQLITE_OK;
    case SQLITE_FUNCTION:
        /* load_extension() loads code; fts3_tokenizer() shows (and with
         * two arguments sets) a pointer */
        if (a2 && (strcmp(a2, "load_extension") == 0 ||
                   strcmp(a2, "fts3_tokenizer") == 0)) {
            snprintf(q->refused, sizeof q->refused, "refused: queries "
                     "cannot call %s()", a2);
            return SQLITE_DENY;
        }
        return SQLITE_OK;
    case SQLITE_PRAGMA:
        for (size_t i = 0; i < sizeof read_pragmas / sizeof *read_pragmas;
             i++)
            if (a1 && strcmp(a1, read_pragmas[i]) == 0)
                return SQLITE_OK;
        snprintf(q->refused, sizeof q->refused, "refused: queries are read-only: "
                 "PRAGMA %s is not one that only reads (allowed: "
                 "table_info, table_list, index_list, function_list, ...)",
                 a1 ? a1 : "?");
        return SQLITE_DENY;
    default:
        snprintf(q->refused, sizeof q->refused, "refused: queries are read-only "
                 "(%s%s%s): use SELECT", action_name(action),
                 a1 && action != SQLITE_TRANSACTION ? " " : "",
                 a1 && action != SQLITE_TRANSACTION ? a1 : "");
        return SQLITE_DENY;
    }
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* SQLite's progress handler: nonzero stops the statement. */
static int progress(void *ud)
{
    struct ev_sql *q = ud;
    if (q->stop_flag && *q->stop_flag)
        q->stopped = 1;
    else if (q->limit_s > 0 && now_s() > q->deadline)
        q->stopped = 2;
    return q->stopped;
}

void ev_sql_limit(struct ev_sql *q, volatile sig_atomic_t *flag,
                  double seconds)
{
    q->stop_flag = flag;
    q->limit_s = seconds;
    sqlite3_progress_handler(q->db, flag || seconds > 0 ? 10000 : 0,
                             flag || seconds > 0 ? progress : NULL, q);
}

static void sql_free(struct ev_sql *q)
{
    if (!q)
        return;
    sqlite3_close(q->db);
    ev__causal_free(q->causal);
    free(q->wild);
    free(q);
}

static int setup(struct ev_sql *q, char *err, size_t errlen)
{
    int on = 0;
    if (sqlite3_open_v2(":memory:", &q->db,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
                            SQLITE_OPEN_MEMORY | SQLITE_OPEN_NOMUTEX,
                        NULL) != SQLITE_OK) {
        log_errf(err, errlen, "cannot open the query database: %s",
                 q->db ? sqlite3_errmsg(q->db) : "out of memory");
        return -1;
    }
    sqlite3_db_config(q->db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, &on);
    sqlite3_db_config(q->db, SQLITE_DBCONFIG_DEFENSIVE, 1, &on);
    sqlite3_db_config(q->db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, &on);
    sqlite3_limit(q->db, SQLITE_LIMIT_ATTACHED, 0);
    sqlite3_set_authorizer(q->db, authorize, q);
    q->loading = 1;
    int rc = sqlite3_exec(q->db, "PRAGMA temp_store = MEMORY;"
                          "PRAGMA journal_mode = OFF;"
                          "PRAGMA synchronous = OFF;",
                          NULL, NULL, NULL);
    if (rc != SQLITE_OK) {
        log_errf(err, errlen, "the query database: %s",
                 sqlite3_errmsg(q->db));
        return -1;
    }
    if (ev__sql_load(q, err, errlen) < 0 || ev__sql_vtabs(q, err, errlen) < 0 ||
        ev__sql_funcs(q, err, errlen) < 0)
        return -1;
    q->loading = 0;
    return 0;
}

struct ev_sql *ev_sql_get(struct ev_run *x, char *err, size_t errlen)
{
    if (x->sql)
        return x->sql;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (ev_build(x, err, errlen) < 0)
        return NULL;
    struct ev_sql *q = calloc(1, sizeof *q);
    if (!q) {
        log_errf(err, errlen, "out of memory");
        return NULL;
    }
    q->x = x;
    if (setup(q, err, errlen) < 0) {
        sql_free(q);
        return NULL;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    q->load_s = (double)(t1.tv_sec - t0.tv_sec) +
                (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    x->sql = q;
    x->sql_free = sql_free;
    return q;
}

double ev_sql_load_seconds(const struct ev_sql *q)
{
    return q ? q->load_s : 0;
}

/* The first word of SQL (for a message), into BUF. */
static void first_word(const char *sql, char *buf, size_t len)
{
    size_t k = 0;
    while (*sql == ' ' || *sql == '\t' || *sql == '\n' || *sql == '(')
        sql++;
    while (sql[k] && sql[k] != ' ' && sql[k] != '\t' && sql[k] != '\n' &&
           k + 1 < len) {
        buf[k] = sql[k];
        k++;
    }
    buf[k] = 0;
}

static int only_blanks(const char *s)
{
    for (; *s; s++)
        if (!strchr(" \t\r\n;", *s))
            return 0;
    return 1;
}

int ev_sql_exec(struct ev_sql *q, const char *sql, ev_sql_row_fn *fn,
                void *ud, char *err, size_t errlen, int *pos)
{
    sqlite3_stmt *st = NULL;
    const char *tail = NULL;
    if (pos)
        *pos = -1;
    q->refused[0] = 0;
    q->stopped = 0;
    q->deadline = now_s() + q->limit_s;
    int rc = sqlite3_prepare_v2(q->db, sql, -1, &st, &tail);
    if (rc != SQLITE_OK) {
        const char *msg = sqlite3_errmsg(q->db);
        if (q->refused[0])
            log_errf(err, errlen, "%s", q->refused);
        else if (!strncmp(msg, "no such table", 13))
            log_errf(err, errlen, "%s (the tables: procs, comms, "
                     "comm_members, events, matches, collectives, requests; "
                     "docs/queries.md)", msg);
        else
            log_errf(err, errlen, "%s", msg);
        if (pos)
            *pos = sqlite3_error_offset(q->db);
        /* SQLite names no position for a query cut short: its end */
        if (pos && *pos < 0 && strstr(sqlite3_errmsg(q->db), "incomplete"))
            *pos = (int)strlen(sql);
        return -1;
    }
    if (!st) {
        log_errf(err, errlen, "empty query: give a SELECT statement");
        return -1;
    }
    if (tail && !only_blanks(tail)) {
        log_errf(err, errlen, "one statement per query: remove what "
                 "follows the first ';'");
        if (pos)
            *pos = (int)(tail - sql);
        sqlite3_finalize(st);
        return -1;
    }
    if (!sqlite3_stmt_readonly(st)) {
        char w[32];
        first_word(sql, w, sizeof w);
        log_errf(err, errlen, "refused: queries are read-only (%s): use "
                 "SELECT", w);
        sqlite3_finalize(st);
        return -1;
    }
    int n = sqlite3_column_count(st);
    const char **names = calloc((size_t)n + 1, sizeof *names);
    const char **vals = calloc((size_t)n + 1, sizeof *vals);
    unsigned char *types = calloc((size_t)n + 1, 1);
    int status = 0;
    if (!names || !vals || !types) {
        log_errf(err, errlen, "out of memory");
        status = -1;
    }
    for (int i = 0; i < n && !status; i++)
        names[i] = sqlite3_column_name(st, i);
    while (!status && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        for (int i = 0; i < n; i++) {
            int t = sqlite3_column_type(st, i);
            types[i] = t == SQLITE_INTEGER ? EV_SQL_INT
                     : t == SQLITE_FLOAT   ? EV_SQL_REAL
                     : t == SQLITE_NULL    ? EV_SQL_NULL
                                           : EV_SQL_TEXT;
            vals[i] = t == SQLITE_NULL
                          ? NULL
                          : (const char *)sqlite3_column_text(st, i);
        }
        if (fn && (status = fn(ud, n, names, vals, types)) != 0)
            break;
    }
    if (!status && rc != SQLITE_DONE && q->stopped) {
        if (q->stopped == 1)
            log_errf(err, errlen, "query interrupted");
        else
            log_errf(err, errlen, "query stopped after %g s: narrow it "
                     "(a LIMIT, a WHERE on rank and seq) or raise the "
                     "limit", q->limit_s);
        status = -1;
    } else if (!status && rc != SQLITE_DONE) {
        log_errf(err, errlen, "%s", sqlite3_errmsg(q->db));
        if (pos)
            *pos = sqlite3_error_offset(q->db);
        status = -1;
    }
    free(names);
    free(vals);
    free(types);
    sqlite3_finalize(st);
    return status;
}

static int collect(void *ud, int n, const char *const *names,
                   const char *const *values, const unsigned char *types)
{
    struct ev_sql_result *r = ud;
    if (!r->names) {
        r->names = calloc((size_t)n + 1, sizeof *r->names);
        if (!r->names)
            return -2;
        r->ncols = n;
        for (int i = 0; i < n; i++)
            if (!(r->names[i] = strdup(names[i])))
                return -2;
    }
    size_t need = (r->nrows + 1) * (size_t)n;
    if (need > r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 64;
        while (cap < need)
            cap *= 2;
        char **c = realloc(r->cells, cap * sizeof *c);
        if (!c)
            return -2;
        r->cells = c;
        unsigned char *t = realloc(r->types, cap);
        if (!t)
            return -2;
        r->types = t;
        r->cap = cap;
    }
    size_t at = r->nrows * (size_t)n;
    memset(&r->cells[at], 0, (size_t)n * sizeof *r->cells);
    for (int i = 0; i < n; i++) {
        r->cells[at + (size_t)i] = values[i] ? strdup(values[i]) : NULL;
        r->types[at + (size_t)i] = types[i];
        if (values[i] && !r->cells[at + (size_t)i]) {
            r->nrows++; /* release what was copied */
            return -2;
        }
    }
    r->nrows++;
    return 0;
}

int ev_sql_query(struct ev_sql *q, const char *sql, struct ev_sql_result *res,
                 char *err, size_t errlen, int *pos)
{
    memset(res, 0, sizeof *res);
    int rc = ev_sql_exec(q, sql, collect, res, err, errlen, pos);
    if (rc == -2)
        log_errf(err, errlen, "out of memory for the query's result");
    if (rc == 0 && !res->names) {
        /* No row: the column names still (from a statement compiled
         * again, which cannot fail now). */
        sqlite3_stmt *st = NULL;
        if (sqlite3_prepare_v2(q->db, sql, -1, &st, NULL) == SQLITE_OK &&
            st) {
            int n = sqlite3_column_count(st);
            res->names = calloc((size_t)n + 1, sizeof *res->names);
            res->ncols = res->names ? n : 0;
            for (int i = 0; i < res->ncols; i++)
                res->names[i] = strdup(sqlite3_column_name(st, i));
        }
        sqlite3_finalize(st);
    }
    return rc == 0 ? 0 : -1;
}

void ev_sql_result_release(struct ev_sql_result *res)
{
    for (size_t i = 0; i < res->nrows * (size_t)res->ncols; i++)
        free(res->cells[i]);
    for (int i = 0; res->names && i < res->ncols; i++)
        free(res->names[i]);
    free(res->names);
    free(res->cells);
    free(res->types);
    memset(res, 0, sizeof *res);
}
