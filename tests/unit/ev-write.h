/*
 * ev-write.h - writing synthetic runs for the events/ unit tests (one
 * header per test file that includes it: its state is static): a run
 * directory of WS ranks under DIR, records of any function with their
 * by-value arguments, then fields (a status, a handle, members).
 *
 *   run_begin(ws); n = call(r, LOG_FN_MPI_Send, I(count), ...); end();
 *   run_end(ws);
 */
#ifndef DRDB_TEST_EV_WRITE_H
#define DRDB_TEST_EV_WRITE_H

#include <stdarg.h>
#include <sys/stat.h>

#include "check.h"
#include "log-codec.h"
#include "log-writer.h"
#include "log.h"

static char dir[] = "/tmp/drdb-test-ev-XXXXXX"; /* mkdtemp() it first */
static char run[200];
static int nrun;

static struct log_writer w[4];
static uint64_t t[4];
static int cur;                 /* the rank being written */
static struct log_rec rec;
static uint64_t nev[4];         /* events written per rank */

/* A new run directory with WS ranks; every rank's log opened. */
static inline void run_begin(int ws)
{
    char path[300];
    snprintf(run, sizeof run, "%s/run%d", dir, nrun++);
    REQUIRE(mkdir(run, 0700) == 0);
    snprintf(path, sizeof path, "%s/drdb.run", run);
    FILE *f = fopen(path, "w");
    REQUIRE(f);
    fprintf(f, "format drdb-run 1\nworld_size %d\n", ws);
    fclose(f);
    for (int r = 0; r < ws; r++) {
        struct log_file_header h = {0};
        memcpy(h.magic, LOG_MAGIC, 8);
        h.version = LOG_VERSION;
        h.header_size = LOG_HEADER_SIZE;
        h.rank = r;
        h.world_size = ws;
        log_path(path, sizeof path, run, r);
        REQUIRE(log_writer_open(&w[r], path, &h) == 0);
        t[r] = 1000;
        nev[r] = 0;
    }
}

static inline void run_end(int ws)
{
    for (int r = 0; r < ws; r++)
        REQUIRE(log_writer_close(&w[r], 0) == 0);
}

/* Starts a record of FN at rank R with its by-value arguments (in order);
 * returns its event number. Fields follow, then end(). */
static inline uint64_t call(int r, int fn, ...)
{
    const struct log_func_desc *d = log_func_by_id(fn);
    REQUIRE(d);
    cur = r;
    REQUIRE(log_writer_begin(&w[r], &rec, 4096, fn, 0, t[r] += 1000, 100));
    va_list ap;
    va_start(ap, fn);
    for (int i = 0; i < d->nargs; i++)
        if (d->args[i].enc)
            log_put_arg(&rec, d->args[i].enc, va_arg(ap, int64_t));
    va_end(ap);
    return nev[r]++;
}

static inline void end(void)
{
    log_writer_commit(&w[cur], &rec);
}

static inline void f_status(unsigned arg, uint64_t elem, int src, int tag,
                     int bytes, int cancelled)
{
    int32_t st[5] = {bytes, cancelled ? 1 : 0, src, tag, 0};
    log_put_status(&rec, arg, elem, st);
}

static inline void f_handle(unsigned arg, unsigned kind, uint64_t elem,
                            uint32_t h)
{
    log_put_handle(&rec, arg, kind, elem, h);
}

static inline void f_members(uint64_t elem, int n, ...)
{
    va_list ap;
    va_start(ap, n);
    log_put_field(&rec, LOG_ARG_NONE, LOG_F_MEMBERS, elem, 4 * (uint64_t)n);
    for (int i = 0; i < n; i++)
        log_put_u32(&rec, (uint32_t)va_arg(ap, int));
    va_end(ap);
}

#define I(x) ((int64_t)(x))

#endif
