/*
 * spin - a loop of MPI_Barrier calls with WORK units of computation between
 * them, for the console's tests of long operations (Ctrl-C during a goto).
 * Recorded with WORK 0 (fast) and replayed with a large WORK (the MPI calls
 * are the same, so the replay follows the log, only slowly).
 *
 *   mpiexec -n N ./spin ITERS WORK
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int iters = argc > 1 ? atoi(argv[1]) : 100;
    long work = argc > 2 ? atol(argv[2]) : 0;
    volatile unsigned long sum = 0;

    MPI_Init(&argc, &argv);
    for (int it = 0; it < iters; it++) {
        for (long i = 0; i < work; i++)
            sum += (unsigned long)i;
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Finalize();
    printf("spin: %d iterations\n", iters);
    return 0;
}
