/*
 * ev-sql.h - SQL over a run's events (SQLite): the event index as tables
 * (procs, comms, comm_members, events, matches, collectives, requests) and
 * table-valued functions (pending, causal_past, causal_future), described
 * column by column in docs/queries.md.
 *
 * The database is made on first use (ev_sql_get), after the index: the
 * small tables are loaded into it, the big ones (events, matches,
 * collectives, requests) are virtual tables that read the index and the
 * logs as a query asks for rows. The database is read-only to its user: an authorizer refuses any statement
 * but a read (no INSERT/UPDATE/DELETE/CREATE/DROP, ATTACH, DETACH, PRAGMA
 * other than the read-only introspection ones, VACUUM, transactions,
 * load_extension()), extension loading is off, and it never touches a
 * file (temporary storage in memory). One statement per query.
 *
 * For the console and the scripts that drive it: ev_sql_query() runs one
 * statement and hands back every row, as text (NULL for SQL NULL).
 */
#ifndef DRDB_EV_SQL_H
#define DRDB_EV_SQL_H

#include <signal.h>
#include <stddef.h>
#include <stdio.h>

#include "events.h"

struct ev_sql;

/* The query database of run X, loaded on the first call (building the
 * index first) and kept in X until ev_close(): NULL with ERR when it
 * cannot be (out of memory, a damaged index). */
struct ev_sql *ev_sql_get(struct ev_run *x, char *err, size_t errlen);
/* Seconds the loading took (0 before it). */
double ev_sql_load_seconds(const struct ev_sql *q);

/* Bounds the queries of Q from now on: one stops when *FLAG (NULL: none)
 * becomes nonzero (Ctrl-C: "query interrupted") or after SECONDS of its
 * own (0: no limit; "query stopped after N s"). */
void ev_sql_limit(struct ev_sql *q, volatile sig_atomic_t *flag,
                  double seconds);

/* Column types of a result (SQLite's fundamental types). */
enum ev_sql_type { EV_SQL_NULL, EV_SQL_INT, EV_SQL_REAL, EV_SQL_TEXT };

/* A query's result, every value as text (NULL: SQL NULL). */
struct ev_sql_result {
    int ncols;
    char **names;          /* ncols column names */
    size_t nrows;
    char **cells;          /* nrows x ncols, row by row */
    unsigned char *types;  /* enum ev_sql_type, parallel to cells */
    size_t cap;            /* (storage) */
};
/* Cell (ROW, COL) of R: its text or NULL. */
static inline const char *ev_sql_cell(const struct ev_sql_result *r,
                                      size_t row, int col)
{
    return r->cells[row * (size_t)r->ncols + (size_t)col];
}

/* Called for each row: N columns, their NAMES, VALUES (NULL: SQL NULL) and
 * TYPES. Nonzero stops the query (ev_sql_exec then returns it). */
typedef int ev_sql_row_fn(void *ud, int n, const char *const *names,
                          const char *const *values,
                          const unsigned char *types);

/* Runs the one statement SQL (a trailing ';' allowed), calling FN for each
 * row. 0 (or what FN returned to stop), or -1 with ERR: SQLite's message,
 * or why the statement is refused; *POS (when not NULL) then gets the
 * byte offset in SQL the error is at, -1 when SQLite names none. */
int ev_sql_exec(struct ev_sql *q, const char *sql, ev_sql_row_fn *fn,
                void *ud, char *err, size_t errlen, int *pos);
/* ev_sql_exec collecting every row into *RES (released by the caller with
 * ev_sql_result_release, also after an error). 0, or -1 as ev_sql_exec. */
int ev_sql_query(struct ev_sql *q, const char *sql, struct ev_sql_result *res,
                 char *err, size_t errlen, int *pos);
void ev_sql_result_release(struct ev_sql_result *res);

/* How ev_sql_print shows a result. */
enum ev_sql_format { EV_SQL_TABLE, EV_SQL_CSV, EV_SQL_JSON };
/* Prints RES: an aligned table with a header line (numbers to the right,
 * NULL as an empty cell, "(no rows)" for none), CSV (RFC 4180, a header
 * line) or JSON (an array of objects, numbers as numbers, NULL as null). */
void ev_sql_print(FILE *out, const struct ev_sql_result *res,
                  enum ev_sql_format fmt);
/* ERR of a failed query as the user sees it: "drdb: ERR", then, when POS
 * is known, the query with a caret under the error's position. */
void ev_sql_print_error(FILE *out, const char *sql, const char *err, int pos);

#endif
