/*
 * A program that edits its argument strings in place before MPI_Init, as
 * the OSU benchmarks split "-m 1:65536": strtok writes a NUL over the ':'
 * of argv[1], so the bytes exec gave now read as two strings. The
 * recording must keep the arguments the program was started with, and
 * the replay must run with them: a replay started with "1" "65536" would
 * print another argc, other strings and another number of loop rounds
 * (and make other MPI calls).
 *
 * usage: argv-strtok LO:HI [WORD...]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    long lo = 1, hi = 1;
    int given = argc;
    if (argc > 1) {
        char *a = strtok(argv[1], ":");
        char *b = strtok(NULL, ":");
        lo = a ? atol(a) : 1;
        hi = b ? atol(b) : lo;
    }
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    printf("rank %d: argc %d, pieces %ld %ld\n", rank, given, lo, hi);
    for (int i = 1; i < argc; i++)
        printf("rank %d: argv[%d] '%s'\n", rank, i, argv[i]);
    /* Sizes doubling from LO to HI, one reduction each: the number of MPI
     * calls depends on the arguments too. */
    long rounds = 0, sum = 0;
    for (long n = lo; n > 0 && n <= hi; n *= 2) {
        long mine = n + rank, all = 0;
        MPI_Allreduce(&mine, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
        sum += all;
        rounds++;
    }
    printf("rank %d: %ld rounds, sum %ld\n", rank, rounds, sum);
    MPI_Finalize();
    return 0;
}
