/*
 * gen-run - writes a synthetic recorded run for the picture benchmarks
 * (bench-graph.sh): NRANKS rank logs of about EVENTS events each, as the
 * recorder would have logged a ring program: Init, Comm_rank, Comm_size,
 * then rounds of MPI_Send to the right neighbour and MPI_Recv from the
 * left (tag = round % 100), an MPI_Allreduce every 8 rounds, Finalize.
 * Recording 64 real ranks on a 2-core machine would take minutes; the logs
 * are what matters to `drdb log graph` and `drdb log trace`.
 *
 *   gen-run DIR NRANKS EVENTS
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "log-codec.h"
#include "log-writer.h"
#include "log.h"

#define WORLD 0x44000000u
#define INT_T 0x4c000405u
#define SUM 0x58000003u

static struct log_writer *w;
static uint64_t *t;
static struct log_rec rec;

/* Starts a record of FN at rank R: its by-value arguments from VALS (N of
 * them, in order; the rest 0). */
static void begin(int r, int fn, int n, const int64_t *vals)
{
    const struct log_func_desc *d = log_func_by_id(fn);
    if (!d || !log_writer_begin(&w[r], &rec, 4096, fn, 0, t[r] += 1000,
                                300)) {
        fprintf(stderr, "gen-run: cannot write function %d\n", fn);
        exit(1);
    }
    for (int i = 0, k = 0; i < d->nargs; i++)
        if (d->args[i].enc)
            log_put_arg(&rec, d->args[i].enc, k < n ? vals[k++] : 0);
}

static void simple(int r, int fn)
{
    begin(r, fn, 0, NULL);
    log_writer_commit(&w[r], &rec);
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: gen-run DIR NRANKS EVENTS\n");
        return 2;
    }
    const char *dir = argv[1];
    int ws = atoi(argv[2]);
    long events = atol(argv[3]);
    if (ws < 2 || events < 10 || mkdir(dir, 0755) < 0) {
        fprintf(stderr, "gen-run: bad arguments, or '%s' exists\n", dir);
        return 2;
    }
    char path[4200];
    snprintf(path, sizeof path, "%s/drdb.run", dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return 1;
    fprintf(f, "format drdb-run 1\nworld_size %d\n", ws);
    fclose(f);
    w = calloc((size_t)ws, sizeof *w);
    t = calloc((size_t)ws, sizeof *t);
    if (!w || !t)
        return 1;
    for (int r = 0; r < ws; r++) {
        struct log_file_header h = {0};
        memcpy(h.magic, LOG_MAGIC, 8);
        h.version = LOG_VERSION;
        h.header_size = LOG_HEADER_SIZE;
        h.rank = r;
        h.world_size = ws;
        h.start_ns = 1700000000000000000ULL;
        log_path(path, sizeof path, dir, r);
        if (log_writer_open(&w[r], path, &h) != 0) {
            fprintf(stderr, "gen-run: cannot write %s\n", path);
            return 1;
        }
    }
    /* 2 events a round, 1 more every 8th */
    long rounds = (events - 4) * 8 / 17;
    for (int r = 0; r < ws; r++) {
        simple(r, LOG_FN_MPI_Init);
        int64_t world = WORLD;
        begin(r, LOG_FN_MPI_Comm_rank, 1, &world);
        log_writer_commit(&w[r], &rec);
        begin(r, LOG_FN_MPI_Comm_size, 1, &world);
        log_writer_commit(&w[r], &rec);
    }
    for (long i = 0; i < rounds; i++) {
        int tag = (int)(i % 100);
        for (int r = 0; r < ws; r++) {
            int64_t s[] = {1, INT_T, (r + 1) % ws, tag, WORLD};
            begin(r, LOG_FN_MPI_Send, 5, s);
            log_writer_commit(&w[r], &rec);
            int left = (r + ws - 1) % ws;
            int64_t v[] = {1, INT_T, left, tag, WORLD};
            begin(r, LOG_FN_MPI_Recv, 5, v);
            int32_t st[5] = {4, 0, left, tag, 0};
            log_put_status(&rec, 6, 0, st);
            log_writer_commit(&w[r], &rec);
            if (i % 8 == 7) {
                int64_t a[] = {1, INT_T, SUM, WORLD};
                begin(r, LOG_FN_MPI_Allreduce, 4, a);
                log_writer_commit(&w[r], &rec);
            }
        }
    }
    for (int r = 0; r < ws; r++) {
        simple(r, LOG_FN_MPI_Finalize);
        if (log_writer_close(&w[r], 0) != 0)
            return 1;
    }
    return 0;
}
