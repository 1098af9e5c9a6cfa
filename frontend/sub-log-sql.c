/* drdb log sql: SQL queries over a run's events (events/ev-sql.h,
 * docs/queries.md). */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "ev-sql.h"
#include "fe.h"
#include "remote.h"

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

struct sql_opts {
    int csv, json, timing;
    struct fe_run_opts run;
};

#define OFF(f) offsetof(struct sql_opts, f)
static const struct fe_opt sql_opts[] = {
    FE_FLAG(0, "csv", OFF(csv), "CSV with a header line, instead of an "
     "aligned table"),
    FE_FLAG(0, "json", OFF(json), "a JSON array of objects, one per row"),
    FE_FLAG(0, "time", OFF(timing), "on stderr: the seconds loading the "
     "tables and each query took"),
    FE_GROUP(OFF(run), fe_run_opt_table),
    FE_END,
};
#undef OFF

static int cmd_sql(int argc, char **argv)
{
    static struct sql_opts so;
    struct fe_pos pos;
    fe_run_opts_init(&so.run);
    /* RUNDIR and the queries: every word that is not an option */
    if (fe_subcmd_parse(&fe_sub_log_sql, argc, argv, &so, FE_POS_ALL,
                        &pos) < 0)
        return 2;
    if (pos.n < 2 || pos.rest < argc) {
        fe_pos_release(&pos);
        return fe_subcmd_misuse(&fe_sub_log_sql);
    }
    enum ev_sql_format fmt = so.json ? EV_SQL_JSON
                             : so.csv ? EV_SQL_CSV : EV_SQL_TABLE;
    int timing = so.timing;
    const char *dir = pos.v[0];
    struct ev_run x;
    struct fe_run fr;
    char err[512];
    double t0 = now_s();
    if (fe_run_opts_done(&so.run, &dir, err, sizeof err) < 0 ||
        fe_ev_open(&x, &fr, dir, &so.run, 1, err, sizeof err) < 0) {
        fe_pos_release(&pos);
        return fe_error("%s", err);
    }
    double t_ix = now_s();
    struct ev_sql *q = ev_build(&x, err, sizeof err) == 0
                           ? (t_ix = now_s() - t_ix,
                              ev_sql_get(&x, err, sizeof err))
                           : NULL;
    if (!q) {
        ev_close(&x);
        fe_run_close(&fr);
        fe_pos_release(&pos);
        return fe_error("%s", err);
    }
    if (timing)
        fprintf(stderr, "load: %.3f s (index %.3f s, tables %.3f s)\n",
                now_s() - t0, t_ix, ev_sql_load_seconds(q));
    int status = 0;
    for (int i = 1; i < pos.n && !status; i++) {
        struct ev_sql_result res;
        int at;
        double t1 = now_s();
        if (ev_sql_query(q, pos.v[i], &res, err, sizeof err, &at) < 0) {
            ev_sql_print_error(stderr, pos.v[i], err, at);
            status = 1;
        } else {
            if (timing)
                fprintf(stderr, "query %d: %.6f s, %zu rows\n", i,
                        now_s() - t1, res.nrows);
            ev_sql_print(stdout, &res, fmt);
        }
        ev_sql_result_release(&res);
    }
    ev_close(&x);
    fe_run_close(&fr);
    fe_pos_release(&pos);
    return status;
}

const struct fe_subcmd fe_sub_log_sql = {
    .name = "sql",
    .args = "RUNDIR 'SELECT ...' [...]",
    .summary = "each query (SQLite, read-only) over the run's events: an "
               "aligned table, CSV or JSON (docs/queries.md)",
    .help = "Runs each query (SQLite's SQL, read-only) over the run's "
            "tables: procs, comms,\ncomm_members, events, matches, "
            "collectives, requests, and the functions\npending(RANK, SEQ), "
            "causal_past(RANK, SEQ), causal_future(RANK, SEQ),\n"
            "happened_before(R1, S1, R2, S2) (docs/queries.md has every "
            "column and\nexamples).\n",
    .opts = sql_opts,
    .more = "Exit status 1 when a query fails (its message and position on "
            "stderr).\n",
    .parent = &fe_sub_log,
    .run = cmd_sql,
};
