/*
 * thr-omp - MPI_THREAD_MULTIPLE with OpenMP: in each of 3 parallel regions
 * of 3 threads, every OpenMP thread runs a ring MPI_Sendrecv on its own
 * tag, sending how many exchanges the rank's threads had started (an
 * order that differs in every run), and an MPI_Iprobe for a message that
 * is not there. Each OpenMP thread's receptions are printed after the
 * regions, thread by thread.
 */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>

#define THREADS 3
#define REGIONS 3

int main(int argc, char **argv)
{
    int provided, rank, size, started = 0;
    static char out[THREADS][1024];
    int len[THREADS] = {0};
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    if (provided != MPI_THREAD_MULTIPLE)
        MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    for (int r = 0; r < REGIONS; r++) {
#pragma omp parallel num_threads(THREADS)
        {
            int t = omp_get_thread_num(), in, flag;
            int v = __atomic_fetch_add(&started, 1, __ATOMIC_SEQ_CST);
            MPI_Sendrecv(&v, 1, MPI_INT, right, t, &in, 1, MPI_INT, left, t,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Iprobe(MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, &flag,
                       MPI_STATUS_IGNORE);
            if (t < THREADS)
                len[t] += snprintf(out[t] + len[t], sizeof out[t] - len[t],
                                   " %d%s", in, flag ? "!" : "");
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    for (int t = 0; t < THREADS; t++)
        printf("rank %d omp thread %d:%s\n", rank, t, out[t]);
    MPI_Finalize();
    return 0;
}
