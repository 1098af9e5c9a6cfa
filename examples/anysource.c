/*
 * anysource - a nondeterministic MPI program.
 *
 * Every rank but 0 sends MSGS messages to rank 0, pausing a little between
 * sends; rank 0 receives them with MPI_ANY_SOURCE and prints them in the
 * order they arrive, which changes from run to run. Recording it and
 * replaying rank 0 reproduces one arrival order exactly, every time.
 *
 *   mpiexec -n 4 ./anysource [MSGS]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define TAG_DATA 7

/* Sleeps a pseudo-random 0..200 microseconds (differs per rank and run). */
static void jitter(unsigned *seed)
{
    struct timespec ts = {0, (long)(rand_r(seed) % 200) * 1000};
    nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
    int rank, size, msgs = argc > 1 ? atoi(argv[1]) : 5;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (msgs < 1)
        msgs = 1;

    if (rank == 0) {
        long checksum = 0;
        for (int i = 0; i < msgs * (size - 1); i++) {
            int payload[2];
            MPI_Status status;
            MPI_Recv(payload, 2, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG,
                     MPI_COMM_WORLD, &status);
            printf("message %d: from rank %d, its #%d\n", i,
                   status.MPI_SOURCE, payload[1]);
            /* Order-sensitive: a different arrival order, a different sum. */
            checksum = checksum * 31 + payload[0] * 100 + payload[1];
        }
        printf("arrival checksum %ld\n", checksum);
    } else {
        unsigned seed = (unsigned)time(NULL) ^ (unsigned)(rank * 7919);
        for (int i = 0; i < msgs; i++) {
            int payload[2] = {rank, i};
            jitter(&seed);
            MPI_Send(payload, 2, MPI_INT, 0, TAG_DATA, MPI_COMM_WORLD);
        }
    }
    MPI_Finalize();
    return 0;
}
