/*
 * thr-poll - MPI_THREAD_MULTIPLE polling (issue 16, classes 11 and 12):
 * a second thread polls for a message from the left neighbour (MPI_Test
 * on its receive, then MPI_Iprobe for a tag no one sends) while the main
 * thread computes, exchanges with both neighbours (MPI_Sendrecv) between
 * its computations, and at last sends the message the right neighbour's
 * poller waits for. Three rounds. The poller prints how many polls failed
 * each round; the last line counts every MPI call the program made
 * (calls=N), which `drdb log info` must count too (test-poll-log.sh).
 * Argument: the computation between two exchanges, in millions of
 * iterations (default 2).
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define ROUNDS 3
#define EXCHANGES 4

static int rank, size;
static long polls[ROUNDS], got[ROUNDS];
static long calls_poller;

static void *poller(void *arg)
{
    (void)arg;
    int left = (rank + size - 1) % size;
    for (int r = 0; r < ROUNDS; r++) {
        MPI_Request req;
        int flag = 0, found;
        MPI_Irecv(&got[r], 1, MPI_LONG, left, 1, MPI_COMM_WORLD, &req);
        calls_poller++;
        for (;;) {
            MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
            calls_poller++;
            if (flag)
                break;
            MPI_Iprobe(MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, &found,
                       MPI_STATUS_IGNORE);
            calls_poller++;
            polls[r]++;
        }
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    long calls = 3, work = argc > 1 ? atol(argv[1]) * 1000000 : 2000000;
    pthread_t t;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    pthread_create(&t, NULL, poller, NULL);
    volatile double x = rank;
    long sum[ROUNDS] = {0};
    for (int r = 0; r < ROUNDS; r++) {
        for (int e = 0; e < EXCHANGES; e++) {
            for (long i = 0; i < work; i++)
                x = x * 0.999 + 1;
            long a = rank * 100 + r * 10 + e, b;
            MPI_Sendrecv(&a, 1, MPI_LONG, right, 2, &b, 1, MPI_LONG, left,
                         2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            sum[r] += b;
            calls++;
        }
        long v = rank * 1000 + r;
        MPI_Send(&v, 1, MPI_LONG, right, 1, MPI_COMM_WORLD);
        calls++;
    }
    pthread_join(t, NULL);
    for (int r = 0; r < ROUNDS; r++)
        printf("rank %d round %d: got %ld after %ld polls, exchanges %ld\n",
               rank, r, got[r], polls[r], sum[r]);
    printf("rank %d calls=%ld\n", rank, calls + calls_poller + 1);
    MPI_Finalize();
    return 0;
}
