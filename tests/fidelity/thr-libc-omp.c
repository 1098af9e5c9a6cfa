/*
 * thr-libc-omp - libc results of OpenMP threads whose first libc calls
 * race (issue 16, classes 8 and 12). Two parallel regions of 4 threads;
 * in each, every thread sleeps a time that differs in every run, then
 * reads the clock and random bytes (thread t reads t + 1 times). With the
 * argument "multiple" (MPI_THREAD_MULTIPLE) each thread exchanges its
 * values with the same thread of the neighbour ranks inside the region;
 * otherwise (MPI_THREAD_FUNNELED) the master thread sends them all after
 * the region. Printed by the master, in thread order.
 */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>

#include "thr-libc.h"

#define NT 4

int main(int argc, char **argv)
{
    int provided, rank, size;
    int multiple = argc > 1 && strcmp(argv[1], "multiple") == 0;
    MPI_Init_thread(&argc, &argv,
                    multiple ? MPI_THREAD_MULTIPLE : MPI_THREAD_FUNNELED,
                    &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    for (int region = 0; region < 2; region++) {
        long long mono[NT], got[NT];
        unsigned long long rnd[NT];
#pragma omp parallel num_threads(NT)
        {
            int t = omp_get_thread_num();
            thr_libc_jitter((unsigned)(rank * 64 + region * 8 + t));
            mono[t] = thr_libc_mono();
            rnd[t] = 0;
            for (int i = 0; i <= t; i++) {
                unsigned long long b = 0;
                getrandom(&b, sizeof b, 0);
                rnd[t] ^= b;
            }
            long long mine = mono[t] % 1000003 + (long long)(rnd[t] % 1000);
            if (multiple)
                MPI_Sendrecv(&mine, 1, MPI_LONG_LONG, right, t, &got[t], 1,
                             MPI_LONG_LONG, left, t, MPI_COMM_WORLD,
                             MPI_STATUS_IGNORE);
        }
        if (!multiple) {
            long long mine[NT];
            for (int t = 0; t < NT; t++)
                mine[t] = mono[t] % 1000003 + (long long)(rnd[t] % 1000);
            MPI_Sendrecv(mine, NT, MPI_LONG_LONG, right, region, got, NT,
                         MPI_LONG_LONG, left, region, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
        }
        for (int t = 0; t < NT; t++)
            printf("rank %d region %d thread %d: mono %lld random %016llx "
                   "got %lld\n", rank, region, t, mono[t], rnd[t], got[t]);
    }
    MPI_Finalize();
    return 0;
}
