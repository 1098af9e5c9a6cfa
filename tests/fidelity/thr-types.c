/*
 * thr-types - MPI_THREAD_MULTIPLE: 3 threads per rank each build a
 * derived datatype (a vector whose stride is the thread's), exchange a
 * message with it around the ring, duplicate and free communicators and
 * free the type, over and over at the same time: MPI reuses the handles
 * one thread frees for another thread's new ones. Each message carries
 * the sending rank's count of exchanges started by all its threads. Each
 * thread prints what it received after the join.
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>

#define THREADS 3
#define ROUNDS 6

static int rank, size, started;
static char out[THREADS][1024];

static void *work(void *arg)
{
    int t = (int)(long)arg, len = 0;
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    for (int i = 0; i < ROUNDS; i++) {
        MPI_Datatype vec;
        MPI_Type_vector(3, 1, t + 2, MPI_INT, &vec);
        MPI_Type_commit(&vec);
        int sbuf[16] = {0}, rbuf[16] = {0};
        int v = __atomic_fetch_add(&started, 1, __ATOMIC_SEQ_CST);
        for (int k = 0; k < 16; k++)
            sbuf[k] = rank * 1000 + v * 10 + k;
        MPI_Sendrecv(sbuf, 1, vec, right, t, rbuf, 1, vec, left, t,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Type_free(&vec);
        MPI_Group g;
        MPI_Comm_group(MPI_COMM_WORLD, &g);
        MPI_Group_free(&g);
        len += snprintf(out[t] + len, sizeof out[t] - len, " [%d %d %d %d]",
                        rbuf[0], rbuf[t + 2], rbuf[2 * (t + 2)], rbuf[1]);
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
    pthread_t th[THREADS];
    for (long t = 0; t < THREADS; t++)
        pthread_create(&th[t], NULL, work, (void *)t);
    for (int t = 0; t < THREADS; t++)
        pthread_join(th[t], NULL);
    for (int t = 0; t < THREADS; t++)
        printf("rank %d thread %d:%s\n", rank, t, out[t]);
    MPI_Finalize();
    return 0;
}
