/*
 * thr-anysrc - MPI_THREAD_MULTIPLE: on every rank 3 threads receive with
 * MPI_ANY_SOURCE and MPI_ANY_TAG at the same time, while a fourth sends
 * MPI_Isend to every other rank. Which thread gets which message is up to
 * the run: each thread prints the source, tag and value of what it got,
 * in order, after the join.
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>

#define RECEIVERS 3
#define PER_PEER 3 /* messages to each other rank: size - 1 peers */

static int rank, size;
static char out[RECEIVERS][1024];

static void *receiver(void *arg)
{
    int t = (int)(long)arg, len = 0;
    /* (size - 1) * PER_PEER messages come in; receiver t takes its share. */
    int total = (size - 1) * PER_PEER;
    int mine = total / RECEIVERS + (t < total % RECEIVERS);
    for (int i = 0; i < mine; i++) {
        int v;
        MPI_Status st;
        MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD,
                 &st);
        len += snprintf(out[t] + len, sizeof out[t] - len, " %d/%d=%d",
                        st.MPI_SOURCE, st.MPI_TAG, v);
    }
    return NULL;
}

static void *sender(void *arg)
{
    (void)arg;
    MPI_Request req[64];
    int vals[64], n = 0;
    for (int k = 0; k < PER_PEER; k++)
        for (int p = 0; p < size; p++)
            if (p != rank) {
                vals[n] = rank * 100 + k * 10 + p;
                MPI_Isend(&vals[n], 1, MPI_INT, p, k, MPI_COMM_WORLD, &req[n]);
                n++;
            }
    MPI_Status sts[64];
    MPI_Waitall(n, req, sts);
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
    pthread_t th[RECEIVERS + 1];
    for (long t = 0; t < RECEIVERS; t++)
        pthread_create(&th[t], NULL, receiver, (void *)t);
    pthread_create(&th[RECEIVERS], NULL, sender, NULL);
    for (int t = 0; t <= RECEIVERS; t++)
        pthread_join(th[t], NULL);
    for (int t = 0; t < RECEIVERS; t++)
        printf("rank %d receiver %d:%s\n", rank, t, out[t]);
    MPI_Finalize();
    return 0;
}
