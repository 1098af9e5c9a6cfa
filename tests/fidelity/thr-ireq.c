/*
 * thr-ireq - MPI_THREAD_MULTIPLE: 3 threads per rank each post
 * MPI_Irecv (MPI_ANY_SOURCE, their own tag) and MPI_Isend to the other
 * ranks, then complete them with MPI_Wait, MPI_Waitall or MPI_Test in a
 * loop, at the same time: request handles are freed and reused across
 * threads all the time. Each message carries the sending rank's count of
 * messages sent by all its threads (different in every run). Each thread
 * prints what it received after the join.
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>

#define THREADS 3
#define ROUNDS 8

static int rank, size, sent;
static char out[THREADS][2048];

static void *work(void *arg)
{
    int t = (int)(long)arg, len = 0;
    for (int i = 0; i < ROUNDS; i++) {
        int in[16], msg[16];
        MPI_Request rr[16], sr[16];
        MPI_Status st[16];
        int n = 0;
        for (int p = 0; p < size && n < 16; p++) {
            if (p == rank)
                continue;
            MPI_Irecv(&in[n], 1, MPI_INT, MPI_ANY_SOURCE, t, MPI_COMM_WORLD,
                      &rr[n]);
            msg[n] = rank * 1000 + __atomic_fetch_add(&sent, 1, __ATOMIC_SEQ_CST);
            MPI_Isend(&msg[n], 1, MPI_INT, p, t, MPI_COMM_WORLD, &sr[n]);
            n++;
        }
        for (int k = 0; k < n; k++) {
            if ((i + t) % 3 == 0) {
                MPI_Wait(&rr[k], &st[k]);
            } else if ((i + t) % 3 == 1) {
                int flag = 0;
                while (!flag)
                    MPI_Test(&rr[k], &flag, &st[k]);
            }
        }
        if ((i + t) % 3 == 2)
            MPI_Waitall(n, rr, st);
        MPI_Status sst[16];
        MPI_Waitall(n, sr, sst);
        for (int k = 0; k < n; k++)
            len += snprintf(out[t] + len, sizeof out[t] - len, " %d:%d",
                            st[k].MPI_SOURCE, in[k]);
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
