/*
 * thr-diverge - a MPI_THREAD_MULTIPLE program whose replay can be made to
 * diverge between threads (tests/fidelity/test-thr-replay.sh): threads 1
 * and 2 each run a ring MPI_Sendrecv on their own tag; the main thread
 * joins thread 1, calls MPI_Comm_size, lets thread 2 start its calls
 * (so the log's order is the same in every run), then joins it. With
 * THR_DIVERGE=skip thread 1 makes no MPI call, so its recorded calls never
 * come: the others wait for them in MPI. With THR_DIVERGE=join the main
 * thread joins thread 2 first, which then waits for its turn in MPI while
 * the main thread waits in pthread_join, outside MPI. (Thread 2 does not
 * wait for the main thread in either mode.)
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size;
static const char *mode = "";
static int go;

static void *work(void *arg)
{
    int t = (int)(long)arg;
    if (t == 1 && !strcmp(mode, "skip"))
        return NULL;
    if (t == 2 && !*mode)
        while (!__atomic_load_n(&go, __ATOMIC_SEQ_CST))
            ;
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    for (int i = 0; i < 3; i++) {
        int v = rank * 10 + t, in;
        MPI_Sendrecv(&v, 1, MPI_INT, right, t, &in, 1, MPI_INT, left, t,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("rank %d thread %d got %d\n", rank, t, in); /* mark:got */
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided, n;
    if (getenv("THR_DIVERGE"))
        mode = getenv("THR_DIVERGE");
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    pthread_t a, b;
    pthread_create(&a, NULL, work, (void *)1L);
    pthread_create(&b, NULL, work, (void *)2L);
    if (!strcmp(mode, "join")) {
        pthread_join(b, NULL);
        pthread_join(a, NULL);
        MPI_Comm_size(MPI_COMM_WORLD, &n);
    } else {
        pthread_join(a, NULL);
        MPI_Comm_size(MPI_COMM_WORLD, &n);
        __atomic_store_n(&go, 1, __ATOMIC_SEQ_CST);
        pthread_join(b, NULL);
    }
    printf("rank %d size %d\n", rank, n); /* mark:end */
    MPI_Finalize();
    return 0;
}
