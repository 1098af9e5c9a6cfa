/*
 * thr-coll - MPI_THREAD_MULTIPLE: the main thread duplicates
 * MPI_COMM_WORLD once per thread (collectives on one communicator must
 * not run concurrently), then 3 threads run collectives (Allreduce,
 * Bcast, Allgather, Barrier) on their own communicators at the same time,
 * with contributions that depend on MPI_Wtime. Each thread prints its
 * results after the join.
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>

#define THREADS 3
#define ROUNDS 4

static int rank, size;
static MPI_Comm comms[THREADS];
static char out[THREADS][1024];

static void *work(void *arg)
{
    int t = (int)(long)arg, len = 0;
    MPI_Comm c = comms[t];
    for (int i = 0; i < ROUNDS; i++) {
        /* Microseconds of the clock: a value of this run alone. */
        int mine = (int)((long long)(MPI_Wtime() * 1e6) % 1000), sum, root;
        MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, c);
        root = rank == i % size ? mine : -1;
        MPI_Bcast(&root, 1, MPI_INT, i % size, c);
        int all[16];
        MPI_Allgather(&mine, 1, MPI_INT, all, 1, MPI_INT, c);
        MPI_Barrier(c);
        len += snprintf(out[t] + len, sizeof out[t] - len, " [%d %d:", sum,
                        root);
        for (int k = 0; k < size && k < 16; k++)
            len += snprintf(out[t] + len, sizeof out[t] - len, " %d", all[k]);
        len += snprintf(out[t] + len, sizeof out[t] - len, "]");
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    if (provided != MPI_THREAD_MULTIPLE)
        MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int t = 0; t < THREADS; t++)
        MPI_Comm_dup(MPI_COMM_WORLD, &comms[t]);
    pthread_t th[THREADS];
    for (long t = 0; t < THREADS; t++)
        pthread_create(&th[t], NULL, work, (void *)t);
    for (int t = 0; t < THREADS; t++)
        pthread_join(th[t], NULL);
    for (int t = 0; t < THREADS; t++) {
        printf("rank %d thread %d:%s\n", rank, t, out[t]);
        MPI_Comm_free(&comms[t]);
    }
    MPI_Finalize();
    return 0;
}
