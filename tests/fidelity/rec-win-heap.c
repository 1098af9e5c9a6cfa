/* A window over a small block of malloc's heap, freed (and its bytes
 * reused by malloc) before MPI_Win_free, as MPICH's test suite does: what
 * malloc writes into the block after free is the allocator's, not the
 * window's, and must not become the window's last changes, written by the
 * replay into its own heap. Each round: a window over a 4 KiB block,
 * the neighbours' puts, free, more blocks of that size taken and filled
 * while other freed blocks sit in malloc's lists, then MPI_Win_free;
 * the program then takes and fills more blocks and prints sums. Run with
 * 2 ranks or more. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define SMALL 512 /* doubles: 4 KiB, in malloc's heap */
#define ROUNDS 6

static double sum(const double *a, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += a[i] * (i % 7 + 1);
    return s;
}

int main(int argc, char **argv)
{
    int me, np;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    double *keep[ROUNDS * 3];
    int nkeep = 0;
    for (int round = 0; round < ROUNDS; round++) {
        double *buf = malloc(SMALL * sizeof *buf);
        for (int i = 0; i < SMALL; i++)
            buf[i] = me + i * 0.5 + round;
        MPI_Win win;
        MPI_Win_create(buf, SMALL * sizeof *buf, sizeof *buf, MPI_INFO_NULL,
                       MPI_COMM_WORLD, &win);
        double v[8];
        for (int i = 0; i < 8; i++)
            v[i] = 1000 * me + round * 10 + i;
        MPI_Win_fence(0, win);
        MPI_Put(v, 8, MPI_DOUBLE, (me + 1) % np, 8 * round, 8, MPI_DOUBLE,
                win);
        MPI_Win_fence(0, win);
        printf("rank %d round %d: window sum %.1f\n", me, round,
               sum(buf, SMALL));
        /* given back before the window: malloc's list pointers now lie in
         * the window's first bytes */
        free(buf);
        if (round % 2) { /* odd rounds: the block is taken again */
            keep[nkeep] = malloc(SMALL * sizeof(double));
            for (int i = 0; i < SMALL; i++)
                keep[nkeep][i] = round * 3 + i;
            nkeep++;
        }
        MPI_Win_free(&win);
        for (int k = 0; k < 2; k++) { /* more blocks of the same size */
            keep[nkeep] = malloc(SMALL * sizeof(double));
            for (int i = 0; i < SMALL; i++)
                keep[nkeep][i] = round * 7 + k + i;
            nkeep++;
        }
    }
    double s = 0;
    for (int k = 0; k < nkeep; k++) {
        s += sum(keep[k], SMALL);
        free(keep[k]);
    }
    printf("rank %d: blocks sum %.1f\n", me, s);
    MPI_Finalize();
    return 0;
}
