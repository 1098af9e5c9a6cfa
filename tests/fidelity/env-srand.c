/*
 * Nondeterminism outside MPI (issue 16, class 8): the tutorial pattern.
 * Each rank seeds rand() from the clock (time(NULL), before MPI_Init, and
 * its pid), rank 0 sends each other rank a random amount of random data;
 * every rank prints its seed and what it sent or received. A replay that
 * ran time() or getpid() live would seed differently and diverge.
 * test-env-replay.sh replays it with ENV_SRAND_EXTRA set (one more time()
 * call than recorded) or ENV_SRAND_PID_FIRST (getpid() where the record
 * has time()): the replay must stop and name the call.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, size;
    if (getenv("ENV_SRAND_PID_FIRST"))
        (void)getpid();
    unsigned seed = (unsigned)time(NULL);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    seed ^= (unsigned)getpid() << 8;
    srand(seed);
    printf("rank %d: seed %u\n", rank, seed);
    if (rank == 0) {
        for (int r = 1; r < size; r++) {
            int n = 1 + rand() % 1000, *buf = malloc((size_t)n * sizeof *buf);
            for (int i = 0; i < n; i++)
                buf[i] = rand();
            MPI_Send(buf, n, MPI_INT, r, 0, MPI_COMM_WORLD);
            printf("rank 0: sent %d ints to %d, first %d\n", n, r, buf[0]);
            free(buf);
        }
    } else {
        MPI_Status st;
        int n;
        MPI_Probe(0, 0, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_INT, &n);
        int *buf = malloc((size_t)n * sizeof *buf);
        MPI_Recv(buf, n, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        long sum = 0;
        for (int i = 0; i < n; i++)
            sum += buf[i] % 1000;
        /* My own random choice, from my own seed. */
        printf("rank %d: got %d ints (sum mod %ld), my draw %d\n", rank, n,
               sum, rand() % 100);
        free(buf);
    }
    MPI_Finalize();
    printf("rank %d: done at %ld\n", rank, (long)time(NULL));
    if (getenv("ENV_SRAND_EXTRA"))
        printf("rank %d: and at %ld\n", rank, (long)time(NULL));
    return 0;
}
