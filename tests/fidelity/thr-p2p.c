/*
 * thr-p2p - MPI_THREAD_MULTIPLE: 3 threads per rank, each a ring exchange
 * of blocking MPI_Send/MPI_Recv on its own tag, at the same time. Each
 * message carries the sending rank's count of messages sent so far by all
 * its threads (which interleave differently in every run), so what each
 * thread receives depends on the threads' order on the other rank. Each
 * thread's receptions are printed after the join, thread by thread.
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define THREADS 3
#define ROUNDS 6

static int rank, size, sent;
static char out[THREADS][512];

static void *work(void *arg)
{
    int t = (int)(long)arg, len = 0;
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    for (int i = 0; i < ROUNDS; i++) {
        int msg[2] = {t, __atomic_fetch_add(&sent, 1, __ATOMIC_SEQ_CST)}, in[2];
        MPI_Status st;
        if (rank % 2 == 0) {
            MPI_Send(msg, 2, MPI_INT, right, 10 + t, MPI_COMM_WORLD);
            MPI_Recv(in, 2, MPI_INT, left, 10 + t, MPI_COMM_WORLD, &st);
        } else {
            MPI_Recv(in, 2, MPI_INT, left, 10 + t, MPI_COMM_WORLD, &st);
            MPI_Send(msg, 2, MPI_INT, right, 10 + t, MPI_COMM_WORLD);
        }
        len += snprintf(out[t] + len, sizeof out[t] - len, " %d:%d/%d",
                        st.MPI_SOURCE, in[0], in[1]);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    if (provided != MPI_THREAD_MULTIPLE) {
        printf("no MPI_THREAD_MULTIPLE\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    pthread_t th[THREADS];
    for (long t = 0; t < THREADS; t++)
        pthread_create(&th[t], NULL, work, (void *)t);
    for (int t = 0; t < THREADS; t++)
        pthread_join(th[t], NULL);
    for (int t = 0; t < THREADS; t++)
        printf("rank %d thread %d received%s\n", rank, t, out[t]);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
