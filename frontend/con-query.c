/*
 * Query results drive the console (docs/queries.md, "Queries as
 * arguments"): "@{SELECT rank FROM ...}" is a rank set and
 * "{SELECT rank, seq FROM ...}" events wherever the console takes them,
 * run by the run's SQL engine (events/ev-sql.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "con.h"
#include "ev-sql.h"

size_t con_brace_len(const char *p)
{
    int depth = 0;
    char quote = 0;
    for (const char *s = p; *s; s++) {
        if (quote) {
            if (*s == quote)
                quote = 0;
        } else if (*s == '\'' || *s == '"') {
            quote = *s;
        } else if (*s == '{' || *s == '(') {
            depth++;
        } else if ((*s == '}' || *s == ')') && --depth == 0) {
            return *s == '}' ? (size_t)(s - p + 1) : 0;
        } else if (depth <= 0) {
            return 0;
        }
    }
    return 0;
}

size_t con_word_len(const char *p)
{
    const char *s = p;
    while (*s && *s != ' ' && *s != '\t') {
        size_t b = *s == '{' ? con_brace_len(s) : 0;
        s += b ? b : 1;
    }
    return (size_t)(s - p);
}

int con_query_run(struct con *c, const char *sql, struct ev_sql_result *res)
{
    struct ev_run *x = con_events(c);
    char err[512];
    int pos;
    memset(res, 0, sizeof *res);
    if (!x)
        return -1;
    struct ev_sql *q = ev_sql_get(x, err, sizeof err);
    if (!q) {
        fprintf(stderr, "drdb: %s\n", err);
        return -1;
    }
    /* Ctrl-C and the session's --timeout stop a runaway query */
    ev_sql_limit(q, &con_sigint, c->timeout_ms / 1000.0);
    int rc = ev_sql_query(q, sql, res, err, sizeof err, &pos);
    if (rc < 0 && con_sigint) {
        con_sigint = 0;
        c->interrupted = 1;
    }
    if (rc < 0)
        ev_sql_print_error(stderr, sql, err, pos);
    return rc;
}

/* Runs the query of "{SQL}" [TEXT, TEXT+LEN) into RES, checking it returns
 * NCOLS integer columns (WHAT names them in errors) and ranks of the run in
 * the first. 0, or -1 (reported; RES released). */
static int __query(struct con *c, const char *text, size_t len, int ncols,
                   const char *what, struct ev_sql_result *res)
{
    char *sql = len >= 2 ? strndup(text + 1, len - 2) : NULL;
    if (!sql || con_query_run(c, sql, res) < 0) {
        free(sql);
        ev_sql_result_release(res);
        return -1;
    }
    const char *bad = NULL;
    char cols[256] = "";
    for (int i = 0; i < res->ncols; i++)
        snprintf(cols + strlen(cols), sizeof cols - strlen(cols), "%s%s",
                 i ? ", " : "", res->names[i]);
    if (res->ncols != ncols)
        bad = "columns";
    for (size_t r = 0; !bad && r < res->nrows; r++)
        for (int i = 0; !bad && i < ncols; i++)
            if (res->types[r * (size_t)ncols + (size_t)i] != EV_SQL_INT)
                bad = "values";
    if (bad)
        fprintf(stderr, "drdb: {%s}: returned %d column%s (%s)%s; a %s needs "
                "%s\n", sql, res->ncols, res->ncols == 1 ? "" : "s", cols,
                *bad == 'v' ? " with a value that is not an integer" : "",
                ncols == 1 ? "rank set" : "list of events", what);
    else if (!res->nrows)
        fprintf(stderr, "drdb: {%s}: no rows, so no %s: nothing to run it "
                "on\n", sql, ncols == 1 ? "rank" : "event");
    for (size_t r = 0; !bad && r < res->nrows; r++) {
        long long k = atoll(ev_sql_cell(res, r, 0));
        if (k < 0 || k >= c->nranks) {
            fprintf(stderr, "drdb: {%s}: rank %lld is not in the run (0-%d)\n",
                    sql, k, c->nranks - 1);
            bad = "rank";
        }
    }
    free(sql);
    if (bad || !res->nrows) {
        ev_sql_result_release(res);
        return -1;
    }
    return 0;
}

int con_query_set(struct con *c, const char *text, size_t len,
                  struct rankset *out)
{
    struct ev_sql_result res;
    if (__query(c, text, len, 1, "one integer column, the ranks", &res) < 0)
        return -1;
    rs_clear(out);
    for (size_t r = 0; r < res.nrows; r++)
        rs_add(out, (int)atoll(ev_sql_cell(&res, r, 0)));
    ev_sql_result_release(&res);
    return 0;
}

int con_query_events(struct con *c, const char *text, size_t len,
                     struct rankset *ranks, uint64_t *ev)
{
    struct ev_sql_result res;
    if (__query(c, text, len, 2, "two integer columns, rank and event "
                "number", &res) < 0)
        return -1;
    int rc = 0;
    rs_clear(ranks);
    for (size_t r = 0; rc == 0 && r < res.nrows; r++) {
        int k = (int)atoll(ev_sql_cell(&res, r, 0));
        long long n = atoll(ev_sql_cell(&res, r, 1));
        if (rs_has(ranks, k)) {
            fprintf(stderr, "drdb: %.*s: two rows for rank %d: at most one "
                    "event per rank (GROUP BY rank)\n", (int)len, text, k);
            rc = -1;
        } else if (n < 0) {
            fprintf(stderr, "drdb: %.*s: event %lld of rank %d: event numbers "
                    "start at 0\n", (int)len, text, n, k);
            rc = -1;
        }
        rs_add(ranks, k);
        ev[k] = (uint64_t)n;
    }
    ev_sql_result_release(&res);
    return rc;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

int con_query_seqs(struct con *c, const char *text, size_t len, int rank,
                   uint64_t **seqs, size_t *n)
{
    struct ev_sql_result res;
    *seqs = NULL;
    *n = 0;
    if (__query(c, text, len, 2, "two integer columns, rank and event "
                "number", &res) < 0)
        return -1;
    uint64_t *v = calloc(res.nrows, sizeof *v);
    int rc = v ? 0 : -1;
    for (size_t r = 0; rc == 0 && r < res.nrows; r++) {
        long long k = atoll(ev_sql_cell(&res, r, 0));
        long long s = atoll(ev_sql_cell(&res, r, 1));
        if (k != rank) {
            fprintf(stderr, "drdb: %.*s: a row for rank %lld: only rank %d's "
                    "events (WHERE rank = %d)\n", (int)len, text, k, rank,
                    rank);
            rc = -1;
        } else if (s < 0) {
            fprintf(stderr, "drdb: %.*s: event %lld: event numbers start at "
                    "0\n", (int)len, text, s);
            rc = -1;
        } else {
            v[*n] = (uint64_t)s;
            ++*n;
        }
    }
    ev_sql_result_release(&res);
    if (rc < 0) {
        free(v);
        *n = 0;
        return -1;
    }
    qsort(v, *n, sizeof *v, cmp_u64);
    size_t m = 0;
    for (size_t i = 0; i < *n; i++)
        if (!m || v[i] != v[m - 1])
            v[m++] = v[i];
    *n = m;
    *seqs = v;
    return 0;
}
