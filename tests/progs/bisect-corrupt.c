/*
 * bisect-corrupt ITERS BAD [WORK]: a value goes bad at a known MPI event,
 * for `bisect` (tests/console/test-bisect.sh, tests/bench/bench-bisect.sh).
 * WORK: additions rank 0 makes in each iteration (0 by default), to
 * replay it slowly with other arguments than recorded.
 *
 * Two ranks. Rank 1 streams ITERS doubles to rank 0 (each 1.0 to 64.0),
 * but the one of iteration BAD is 1e9. Rank 0, each iteration, receives
 * one (MPI_Recv, the line marked RECV), keeps the largest so far in
 * `peak`, and asks how many it got (MPI_Get_count, the line marked COUNT).
 * So `peak > 1e6` turns true in iteration BAD, right after its MPI_Recv,
 * and stays true.
 *
 * Rank 0's events: MPI_Init 0, MPI_Comm_rank 1, MPI_Comm_size 2; then
 * iteration i's MPI_Recv is event 3 + 2i and its MPI_Get_count 4 + 2i;
 * MPI_Finalize last. The first event before which `peak > 1e6` holds is
 * 4 + 2 BAD (the COUNT line), the last one before which it does not,
 * 3 + 2 BAD (the RECV line).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, size;
    long iters = argc > 1 ? atol(argv[1]) : 2000;
    long bad = argc > 2 ? atol(argv[2]) : 1234;
    long work = argc > 3 ? atol(argv[3]) : 0;
    volatile double spin = 0;
    double x, peak = 0, sum = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "bisect-corrupt: run it on 2 ranks\n");
        MPI_Finalize();
        return 2;
    }
    for (long i = 0; i < iters; i++) {
        if (rank == 1) {
            x = i == bad ? 1e9 : (double)(i % 64 + 1);
            MPI_Send(&x, 1, MPI_DOUBLE, 0, 7, MPI_COMM_WORLD);
            continue;
        }
        MPI_Status st;
        int n;
        MPI_Recv(&x, 1, MPI_DOUBLE, 1, 7, MPI_COMM_WORLD, &st); /* RECV */
        if (x > peak)
            peak = x;
        sum += x;
        MPI_Get_count(&st, MPI_DOUBLE, &n); /* COUNT */
        if (n != 1)
            printf("rank 0: FAIL: count %d\n", n);
        for (long j = 0; j < work; j++)
            spin += 1;
    }
    if (rank == 0)
        printf("rank 0: peak %g sum %.0f\n", peak, sum);
    MPI_Finalize();
    return 0;
}
