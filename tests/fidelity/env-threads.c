/*
 * Nondeterminism outside MPI (issue 16, class 8): clock reads from several
 * threads. Two threads (numbered by their first read, which is ordered
 * here) then read the clock concurrently while the main thread makes the
 * MPI calls; each thread's values replay in its own order. Every value
 * and the number of reads is printed after the threads end.
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>

#define READS 2000

struct worker {
    pthread_t t;
    int id;
    long long first, last, sum;
};

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int started;

static void *work(void *p)
{
    struct worker *w = p;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts); /* the first read: in order */
    w->first = ts.tv_sec * 1000000000LL + ts.tv_nsec;
    pthread_mutex_lock(&mu);
    started++;
    pthread_cond_broadcast(&cv);
    pthread_mutex_unlock(&mu);
    for (int i = 0; i < READS; i++) {
        clock_gettime(CLOCK_REALTIME, &ts);
        w->sum += ts.tv_nsec % 1000;
    }
    w->last = (long long)time(NULL);
    return NULL;
}

int main(int argc, char **argv)
{
    int rank, size;
    struct worker w[2] = {{0}, {0}};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 0; i < 2; i++) {
        w[i].id = i;
        pthread_create(&w[i].t, NULL, work, &w[i]);
        pthread_mutex_lock(&mu);
        while (started <= i)
            pthread_cond_wait(&cv, &mu);
        pthread_mutex_unlock(&mu);
    }
    long long mine = 0, left;
    for (int i = 0; i < 50; i++) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        mine += ts.tv_nsec % 100;
        MPI_Sendrecv(&mine, 1, MPI_LONG_LONG, (rank + 1) % size, 0, &left, 1,
                     MPI_LONG_LONG, (rank + size - 1) % size, 0,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    for (int i = 0; i < 2; i++)
        pthread_join(w[i].t, NULL);
    printf("rank %d: main %lld, left %lld\n", rank, mine, left);
    for (int i = 0; i < 2; i++)
        printf("rank %d: thread %d first %lld sum %lld time %lld\n", rank, i,
               w[i].first, w[i].sum, w[i].last);
    MPI_Finalize();
    return 0;
}
