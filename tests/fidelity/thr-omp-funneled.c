/*
 * thr-omp-funneled - MPI_THREAD_FUNNELED with OpenMP: parallel regions
 * compute (no MPI), the master thread alone exchanges the results between
 * ranks (inside the region under omp master, and outside it), with a
 * contribution from MPI_Wtime. Prints what it received.
 */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int provided, rank, size, is_main;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Is_thread_main(&is_main);
    printf("rank %d provided>=funneled %d main %d\n", rank,
           provided >= MPI_THREAD_FUNNELED, is_main);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    for (int it = 0; it < 4; it++) {
        long long part[4] = {0}, in = 0;
#pragma omp parallel num_threads(4)
        {
            int t = omp_get_thread_num();
            for (int i = 0; i < 100000; i++)
                part[t & 3] += (i * (t + 1) + rank + it) % 7;
#pragma omp barrier
#pragma omp master
            {
                long long s = part[0] + part[1] + part[2] + part[3] +
                              (long long)(MPI_Wtime() * 1e6) % 100;
                MPI_Sendrecv(&s, 1, MPI_LONG_LONG, right, it, &in, 1,
                             MPI_LONG_LONG, left, it, MPI_COMM_WORLD,
                             MPI_STATUS_IGNORE);
            }
        }
        long long sum;
        MPI_Allreduce(&in, &sum, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
        printf("rank %d iteration %d received %lld sum %lld\n", rank, it, in,
               sum);
    }
    MPI_Finalize();
    return 0;
}
