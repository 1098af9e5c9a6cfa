/*
 * test-sql-api: the query API the console's scripts call (ev-sql.h) on a
 * recorded run of tests/events/sql-pattern.c (expected values from its
 * header): the rows, names, types and text of a result, an empty one, a
 * row callback that stops early, an error's position, a stopped query.
 *
 * usage: test-sql-api RUNDIR. Prints "ok NAME" / "not ok NAME" lines
 * (test-sql.sh numbers them).
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "ev-sql.h"
#include "events.h"

static int nfail;

static void check(int cond, const char *name)
{
    printf("%sok %s\n", cond ? "" : "not ", name);
    nfail += !cond;
}

static int count_two(void *ud, int n, const char *const *names,
                     const char *const *values, const unsigned char *types)
{
    int *rows = ud;
    (void)n;
    (void)names;
    (void)values;
    (void)types;
    return ++*rows == 2 ? 7 : 0;
}

int main(int argc, char **argv)
{
    struct ev_run x;
    char err[512];
    int pos;
    if (argc != 2 || ev_open(&x, argv[1], err, sizeof err) < 0) {
        printf("not ok open the run\n");
        return 1;
    }
    struct ev_sql *q = ev_sql_get(&x, err, sizeof err);
    check(q != NULL, "ev_sql_get");
    if (!q)
        return 1;
    check(ev_sql_get(&x, err, sizeof err) == q, "ev_sql_get: one per run");

    /* rank 1: Init (0), Comm_rank, Comm_size, Recv from 0 (3, 4 bytes) */
    struct ev_sql_result r;
    int rc = ev_sql_query(q, "SELECT seq, call, peer, duration >= 0 AS d, "
                          "root FROM events WHERE rank = 1 AND seq IN (0, 3) "
                          "ORDER BY seq;", &r, err, sizeof err, &pos);
    check(rc == 0 && r.ncols == 5 && r.nrows == 2, "rows and columns");
    if (rc == 0 && r.nrows == 2) {
        check(strcmp(r.names[1], "call") == 0 &&
                  strcmp(r.names[3], "d") == 0, "column names");
        check(strcmp(ev_sql_cell(&r, 0, 1), "MPI_Init") == 0 &&
                  strcmp(ev_sql_cell(&r, 1, 0), "3") == 0 &&
                  strcmp(ev_sql_cell(&r, 1, 2), "0") == 0 &&
                  strcmp(ev_sql_cell(&r, 1, 3), "1") == 0,
              "values as text");
        check(ev_sql_cell(&r, 0, 2) == NULL && ev_sql_cell(&r, 1, 4) == NULL,
              "NULL is a NULL pointer");
        check(r.types[0] == EV_SQL_INT && r.types[1] == EV_SQL_TEXT &&
                  r.types[2] == EV_SQL_NULL && r.types[5 + 2] == EV_SQL_INT,
              "types");
    }
    ev_sql_result_release(&r);

    rc = ev_sql_query(q, "SELECT rank, seq FROM events WHERE rank = 7", &r,
                      err, sizeof err, &pos);
    check(rc == 0 && r.nrows == 0 && r.ncols == 2 &&
              strcmp(r.names[1], "seq") == 0,
          "an empty result keeps its column names");
    ev_sql_result_release(&r);

    int rows = 0;
    rc = ev_sql_exec(q, "SELECT * FROM events", count_two, &rows, err,
                     sizeof err, &pos);
    check(rc == 7 && rows == 2, "a row callback stops the query");

    rc = ev_sql_query(q, "SELECT seq FROM events WHERE", &r, err, sizeof err,
                      &pos);
    check(rc == -1 && strstr(err, "incomplete input") && pos == 28,
          "incomplete input: at its end");
    ev_sql_result_release(&r);
    rc = ev_sql_query(q, "SELECT sqe FROM events", &r, err, sizeof err, &pos);
    check(rc == -1 && strcmp(err, "no such column: sqe") == 0 && pos == 7,
          "an unknown column: its position");
    ev_sql_result_release(&r);

    volatile sig_atomic_t stop = 1;
    ev_sql_limit(q, &stop, 0);
    rc = ev_sql_query(q, "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL "
                      "SELECT n + 1 FROM c) SELECT count(*) FROM c", &r, err,
                      sizeof err, &pos);
    check(rc == -1 && strcmp(err, "query interrupted") == 0,
          "a flag stops a query");
    ev_sql_result_release(&r);
    ev_sql_limit(q, NULL, 0);
    rc = ev_sql_query(q, "SELECT count(*) FROM procs", &r, err, sizeof err,
                      &pos);
    check(rc == 0 && r.nrows == 1 && strcmp(ev_sql_cell(&r, 0, 0), "4") == 0,
          "queries go on after one was stopped");
    ev_sql_result_release(&r);
    ev_close(&x);
    return nfail != 0;
}
