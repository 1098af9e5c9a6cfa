/*
 * events - many small point-to-point messages and collectives, for the
 * event index's benchmark (tests/bench/bench-events.sh): a run with
 * about (2K + 2) x BATCHES events per rank, of which most are matched
 * messages.
 *
 * Each batch, every rank posts K receives from its left neighbour (every
 * other one with MPI_ANY_SOURCE, the tags cycling through 8 values), sends
 * K messages to its right neighbour, completes all 2K requests with one
 * MPI_Waitall, and joins an MPI_Allreduce. Blocking steps are few (two per
 * batch): oversubscribed, each costs about one scheduler time slice.
 *
 *   mpiexec -n 4 ./bench-events [BATCHES [K]]
 */
#include "bench.h"

int main(int argc, char **argv)
{
    int batches = argc > 1 ? atoi(argv[1]) : 250;
    int k = argc > 2 ? atoi(argv[2]) : 500;
    int rank, size;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (k < 1 || batches < 0)
        bench_fail("bad arguments: BATCHES %d K %d", batches, k);
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    int *in = malloc((size_t)k * sizeof *in);
    int *out = malloc((size_t)k * sizeof *out);
    MPI_Request *req = malloc(2 * (size_t)k * sizeof *req);
    MPI_Status *st = malloc(2 * (size_t)k * sizeof *st);
    if (!in || !out || !req || !st)
        bench_fail("out of memory");

    double t0 = bench_start();
    long sum = 0;
    for (int b = 0; b < batches; b++) {
        for (int i = 0; i < k; i++)
            MPI_Irecv(&in[i], 1, MPI_INT, i % 2 ? MPI_ANY_SOURCE : left,
                      i % 8, MPI_COMM_WORLD, &req[i]);
        for (int i = 0; i < k; i++) {
            out[i] = b * k + i;
            MPI_Isend(&out[i], 1, MPI_INT, right, i % 8, MPI_COMM_WORLD,
                      &req[k + i]);
        }
        MPI_Waitall(2 * k, req, st);
        /* Same-tag messages arrive in send order (non-overtaking). */
        for (int i = 0; i < k; i++)
            if (in[i] != b * k + i)
                bench_fail("batch %d message %d: got %d", b, i, in[i]);
        long mine = in[k - 1], total;
        MPI_Allreduce(&mine, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
        sum += total;
    }
    bench_stop(t0);
    if (rank == 0)
        printf("sum %ld\n", sum);
    free(in);
    free(out);
    free(req);
    free(st);
    MPI_Finalize();
    return 0;
}
