/*
 * ev-sql-int.h - what the ev-sql*.c files share (not API; ev-sql.h is).
 * The files are layers, each calling only those below it:
 *
 *   ev-sql.c         the database: opening, the read-only guard, queries
 *   ev-sql-func.c    table-valued functions: pending, causal_past,
 *                    causal_future; the scalar happened_before
 *   ev-sql-vtab.c    events, matches, collectives, requests: virtual
 *                    tables over the index
 *   ev-sql-load.c    procs, comms, comm_members: loaded from the index
 *   ev-sql-print.c   results as a table, CSV, JSON (alone)
 */
#ifndef DRDB_EV_SQL_INT_H
#define DRDB_EV_SQL_INT_H

#include <sqlite3.h>

#include "ev-int.h"
#include "ev-sql.h"

struct ev_sql {
    sqlite3 *db;
    struct ev_run *x;
    double load_s;
    uint64_t run0;             /* the earliest log start (ns): time 0 */
    int loading;               /* the authorizer lets the loader write */
    volatile sig_atomic_t *stop_flag; /* ev_sql_limit */
    double limit_s, deadline;  /* deadline: CLOCK_MONOTONIC seconds */
    int stopped;               /* 1: the flag, 2: the deadline */
    char refused[160];         /* why the authorizer refused the statement
                                * being compiled */
    struct ev__causal *causal; /* the happened-before edges (ev-sql-func.c),
                                * built by the first causal query */
    unsigned char *wild;       /* per message: how its receive was posted
                                * (ev-sql-vtab.c), worked out once */
};

/* The most rows a table lists for ranks without a log (procs' missing
 * ranks, MPI_COMM_WORLD's members): above, a world that a run
 * description claims would cost rows no log backs (docs/queries.md). */
#define EV_SQL_WORLD_ROWS 65536

/* ev-sql-load.c: creates and fills the tables of Q->db from Q->x's index.
 * 0, or -1 with ERR. */
int ev__sql_load(struct ev_sql *q, char *err, size_t errlen);

/* ev-sql-vtab.c: registers the virtual tables in Q->db. 0, or -1 with
 * ERR. */
int ev__sql_vtabs(struct ev_sql *q, char *err, size_t errlen);
/* A virtual table of Q: KIND is the index of its name in NAMES[0..N). */
struct ev__vtab {
    sqlite3_vtab base;
    struct ev_sql *q;
    int kind;
};
/* xConnect for the table NAME (of NAMES[0..N), SCHEMAS alike): declares
 * its schema and makes *OUT (a struct ev__vtab). xDisconnect frees it. */
int ev__vtab_connect(sqlite3 *db, struct ev_sql *q, const char *name,
                     const char *const *names, const char *const *schemas,
                     int n, sqlite3_vtab **out);
int ev__vtab_disconnect(sqlite3_vtab *v);

/* ev-sql-func.c: registers the functions in Q->db. 0, or -1 with ERR. */
int ev__sql_funcs(struct ev_sql *q, char *err, size_t errlen);

#endif
