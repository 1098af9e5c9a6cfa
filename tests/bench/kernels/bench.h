/*
 * bench.h - shared helpers of the benchmark kernels in tests/bench/kernels/.
 *
 * Every kernel times its communication-heavy region with MPI_Wtime between
 * two barriers and ends with one line, printed by rank 0,
 *   time_s <seconds>
 * the maximum over ranks, which tests/bench/bench-run.sh collects. A wrong
 * result prints "FAIL ..." on stderr and aborts with MPI_Abort(..., 1).
 */
#ifndef BENCH_H
#define BENCH_H

#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((format(printf, 1, 2), noreturn))
static inline void bench_fail(const char *fmt, ...)
{
    int rank;
    va_list ap;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    fprintf(stderr, "rank %d: FAIL ", rank);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
    exit(1);
}

/* Starts the timed region (all ranks together). */
static inline double bench_start(void)
{
    MPI_Barrier(MPI_COMM_WORLD);
    return MPI_Wtime();
}

/* Ends the timed region and prints "time_s" (max over ranks) at rank 0. */
static inline void bench_stop(double t0)
{
    double mine = MPI_Wtime() - t0, worst;
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Reduce(&mine, &worst, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("time_s %.6f\n", worst);
}

#endif
