/*
 * libcall - the cost of one libc call the recorder interposes (drdb record
 * logs its result into rank-R.sys): N calls of clock_gettime
 * (CLOCK_MONOTONIC), then N of getpid, after MPI_Init. Prints
 * "clock_gettime_ns NS" and "getpid_ns NS" per call, timed with the
 * process's CPU-time clock (which the recorder passes through unlogged:
 * the switches of an oversubscribed machine do not count).
 *
 *   mpiexec -n 1 ./bench-libcall [N]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000000;
    struct timespec ts;
    long sink = 0;
    MPI_Init(&argc, &argv);
    double t0 = now();
    for (long i = 0; i < n; i++) {
        clock_gettime(CLOCK_MONOTONIC, &ts);
        sink += ts.tv_nsec;
    }
    double t1 = now();
    for (long i = 0; i < n; i++)
        sink += getpid();
    double t2 = now();
    printf("clock_gettime_ns %.1f\ngetpid_ns %.1f\n", (t1 - t0) / (double)n,
           (t2 - t1) / (double)n);
    MPI_Finalize();
    return sink == 42;
}
