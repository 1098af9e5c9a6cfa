/*
 * thr-libc-c11 - libc results of a thread made with C11's thrd_create,
 * which glibc implements without pthread_create: the thread has no
 * deterministic number (it is "unnumbered", util/thread.h), and its
 * stream is the first unnumbered thread's (rank-R.sys.u1). It and the
 * main thread sleep a time that differs in every run, then read the
 * clock and random bytes (MPI_THREAD_FUNNELED: the main thread alone
 * sends them to the next rank). Printed after the join.
 */
#include <mpi.h>
#include <stdio.h>
#include <sys/random.h>
#include <threads.h>

#include "thr-libc.h"

static int rank;
static long long mono[2];
static unsigned long long rnd[2];

/* What thread ID (0 the main one, 1 the C11 one) does. */
static void work(int id)
{
    thr_libc_jitter((unsigned)(rank * 4 + id));
    mono[id] = thr_libc_mono();
    for (int i = 0; i <= 2 * id; i++) {
        unsigned long long b = 0;
        getrandom(&b, sizeof b, 0);
        rnd[id] ^= b;
    }
}

static int start(void *arg)
{
    (void)arg;
    work(1);
    return 0;
}

int main(int argc, char **argv)
{
    int provided, size;
    thrd_t t;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    thrd_create(&t, start, NULL);
    work(0);
    thrd_join(t, NULL);
    long long mine[2] = {mono[0] % 1000003, (long long)(rnd[1] % 1000)}, got[2];
    MPI_Sendrecv(mine, 2, MPI_LONG_LONG, (rank + 1) % size, 0, got, 2,
                 MPI_LONG_LONG, (rank + size - 1) % size, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    for (int i = 0; i < 2; i++)
        printf("rank %d thread %d: mono %lld random %016llx got %lld\n", rank,
               i, mono[i], rnd[i], got[i]);
    MPI_Finalize();
    return 0;
}
