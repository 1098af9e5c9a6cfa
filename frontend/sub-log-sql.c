/* drdb log sql: SQL queries over a run's events (events/ev-sql.h,
 * docs/queries.md). */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "ev-sql.h"
#include "fe.h"
#include "remote.h"

static const char usage[] =
    "usage: drdb log sql RUNDIR [--csv | --json] [--time] 'SELECT ...' "
    "[...]\n"
    "  Runs each query (SQLite's SQL, read-only) over the run's tables:\n"
    "  procs, comms, comm_members, events, matches, collectives, requests,\n"
    "  and the functions pending(RANK, SEQ), causal_past(RANK, SEQ),\n"
    "  causal_future(RANK, SEQ), happened_before(R1, S1, R2, S2)\n"
    "  (docs/queries.md has every column and examples).\n"
    "  --csv     CSV with a header line, instead of an aligned table\n"
    "  --json    a JSON array of objects, one per row\n"
    "  --time    on stderr: the seconds loading the tables and each query "
    "took\n"
    "  Exit status 1 when a query fails (its message and position on "
    "stderr).\n";

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int fe_log_sql(int argc, char **argv, const struct fe_run_opts *o)
{
    static const struct option opts[] = {
        {"csv", no_argument, NULL, 'c'},
        {"json", no_argument, NULL, 'j'},
        {"time", no_argument, NULL, 't'},
        {NULL, 0, NULL, 0},
    };
    enum ev_sql_format fmt = EV_SQL_TABLE;
    int timing = 0, c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'c': fmt = EV_SQL_CSV; break;
        case 'j': fmt = EV_SQL_JSON; break;
        case 't': timing = 1; break;
        default: fputs(usage, stderr); return 2;
        }
    }
    if (argc - optind < 2) {
        fputs(usage, stderr);
        return 2;
    }
    const char *dir = argv[optind];
    struct ev_run x;
    struct fe_run fr;
    char err[512];
    double t0 = now_s();
    if (fe_ev_open(&x, &fr, dir, o, 1, err, sizeof err) < 0)
        return fe_error("%s", err);
    double t_ix = now_s();
    struct ev_sql *q = ev_build(&x, err, sizeof err) == 0
                           ? (t_ix = now_s() - t_ix,
                              ev_sql_get(&x, err, sizeof err))
                           : NULL;
    if (!q) {
        ev_close(&x);
        fe_run_close(&fr);
        return fe_error("%s", err);
    }
    if (timing)
        fprintf(stderr, "load: %.3f s (index %.3f s, tables %.3f s)\n",
                now_s() - t0, t_ix, ev_sql_load_seconds(q));
    int status = 0;
    for (int i = optind + 1; i < argc && !status; i++) {
        struct ev_sql_result res;
        int pos;
        double t1 = now_s();
        if (ev_sql_query(q, argv[i], &res, err, sizeof err, &pos) < 0) {
            ev_sql_print_error(stderr, argv[i], err, pos);
            status = 1;
        } else {
            if (timing)
                fprintf(stderr, "query %d: %.6f s, %zu rows\n",
                        i - optind, now_s() - t1, res.nrows);
            ev_sql_print(stdout, &res, fmt);
        }
        ev_sql_result_release(&res);
    }
    ev_close(&x);
    fe_run_close(&fr);
    return status;
}
