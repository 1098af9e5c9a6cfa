/* MPI_THREAD_SERIALIZED with calls from several threads: rank 0's two
 * threads take turns at MPI under a mutex of the program's, in an order
 * that changes from run to run (each sleeps a time of its own between
 * receives), and make the same call, MPI_Recv from MPI_ANY_SOURCE; then
 * one thread, whichever comes first, makes a call for both (a barrier
 * under pthread_once, as an omp single would). Each thread prints what it
 * received, in its own order: a replay must give each thread its own
 * recorded messages whatever order the threads come in now. The other
 * ranks send ROUNDS numbered messages each. Run with an odd number of
 * ranks, 3 or more. With THR_SKIP set (in a replay: a divergence),
 * thread 1 leaves out its last receive. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define ROUNDS 6

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int got[2][ROUNDS], np;

static void nap(long us)
{
    struct timespec t = {0, us * 1000};
    nanosleep(&t, NULL);
}

static void barrier_once(void)
{
    MPI_Barrier(MPI_COMM_WORLD);
}

static void *worker(void *arg)
{
    int me = (int)(long)arg, n = ROUNDS * (np - 1) / 2;
    if (me == 1 && getenv("THR_SKIP"))
        n--;
    for (int i = 0; i < n; i++) {
        /* a time that differs from run to run: the clock's nanoseconds */
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        nap(50 + now.tv_nsec % 400);
        pthread_mutex_lock(&lock);
        MPI_Recv(&got[me][i], 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE); /* mark:recv */
        pthread_mutex_unlock(&lock);
    }
    pthread_mutex_lock(&lock);
    pthread_once(&once, barrier_once);
    pthread_mutex_unlock(&lock);
    return NULL;
}

int main(int argc, char **argv)
{
    int rank, provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (provided < MPI_THREAD_SERIALIZED) {
        printf("rank %d: no MPI_THREAD_SERIALIZED\n", rank);
        MPI_Finalize();
        return 0;
    }
    if (rank == 0) {
        pthread_t t[2];
        for (long i = 0; i < 2; i++)
            pthread_create(&t[i], NULL, worker, (void *)i);
        for (int i = 0; i < 2; i++)
            pthread_join(t[i], NULL);
        for (int w = 0; w < 2; w++) {
            printf("thread %d:", w);
            for (int i = 0; i < ROUNDS * (np - 1) / 2; i++)
                printf(" %d", got[w][i]);
            printf("\n");
        }
    } else {
        for (int i = 0; i < ROUNDS; i++) {
            int v = rank * 100 + i;
            MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
