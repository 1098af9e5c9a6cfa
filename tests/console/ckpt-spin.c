/*
 * ckpt-spin - a rank with a second thread that counts as long as it runs:
 * while the rank is stopped in stop_here(), `spins` moves only if the
 * debugger lets the other thread run (test-ckpt-threads.sh).
 *
 *   mpiexec -n 1 ./ckpt-spin
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>

volatile long spins;
static volatile int done;

static void *spin(void *arg)
{
    (void)arg;
    while (!done)
        spins++;
    return NULL;
}

/* A place to stop at while the other thread counts. */
void stop_here(void);
__attribute__((noinline)) void stop_here(void)
{
    __asm__ volatile("" ::: "memory");
}

int main(int argc, char **argv)
{
    int provided, rank;
    pthread_t th;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    pthread_create(&th, NULL, spin, NULL);
    while (spins < 1000)
        ;
    MPI_Barrier(MPI_COMM_WORLD);
    stop_here();
    MPI_Barrier(MPI_COMM_WORLD);
    done = 1;
    pthread_join(th, NULL);
    printf("rank %d: done\n", rank);
    MPI_Finalize();
    return 0;
}
