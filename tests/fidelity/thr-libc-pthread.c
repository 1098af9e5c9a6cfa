/*
 * thr-libc-pthread - libc results of threads whose first libc calls race
 * (issue 16, classes 8 and 12), under MPI_THREAD_MULTIPLE. The main
 * thread starts 4 threads, and thread 1 one of its own; each of them and
 * the main thread sleeps a time that differs in every run, then reads the
 * clocks, the pid and random bytes (thread i reads i + 1 times), and
 * exchanges what it got with the same thread of the neighbour ranks. In a
 * replay the threads make their first calls in another order: each must
 * still get its own recorded values. Printed after the joins.
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/random.h>
#include <sys/time.h>

#include "thr-libc.h"

#define NT 5 /* 4 threads of the main thread, 1 of thread 1 */

static int rank, size;
static struct result {
    long long mono, real, sec, got;
    unsigned long long rnd;
    int pid_same;
} res[NT + 1]; /* [NT]: the main thread */

/* What thread ID does: sleep, libc calls, one exchange (tag ID). */
static void work(int id)
{
    struct result *r = &res[id];
    thr_libc_jitter((unsigned)(rank * 16 + id));
    r->mono = thr_libc_mono();
    for (int i = 0; i <= id % NT; i++) {
        unsigned long long b = 0;
        getrandom(&b, sizeof b, 0);
        r->rnd ^= b;
    }
    struct timeval tv;
    gettimeofday(&tv, NULL);
    r->real = tv.tv_usec;
    r->sec = (long long)time(NULL) % 1000;
    r->pid_same = getpid() == getpid();
    long long mine = r->mono % 1000003 + (long long)(r->rnd % 1000);
    MPI_Sendrecv(&mine, 1, MPI_LONG_LONG, (rank + 1) % size, id, &r->got, 1,
                 MPI_LONG_LONG, (rank + size - 1) % size, id, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
}

static void *start(void *p)
{
    int id = (int)(long)p;
    pthread_t child;
    if (id == 1) /* a grandchild of the main thread: thread 1.1 */
        pthread_create(&child, NULL, start, (void *)(long)4);
    work(id);
    if (id == 1)
        pthread_join(child, NULL);
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    pthread_t t[4];
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 0; i < 4; i++)
        pthread_create(&t[i], NULL, start, (void *)(long)i);
    work(NT);
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], NULL);
    printf("rank %d provided %d\n", rank, provided == MPI_THREAD_MULTIPLE);
    for (int i = 0; i <= NT; i++)
        printf("rank %d thread %d: mono %lld usec %lld sec %lld random "
               "%016llx pid %d got %lld\n", rank, i, res[i].mono,
               res[i].real, res[i].sec, res[i].rnd, res[i].pid_same,
               res[i].got);
    MPI_Finalize();
    return 0;
}
