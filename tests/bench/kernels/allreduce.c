/*
 * allreduce - many small and some medium MPI_Allreduce calls.
 *
 * ITERS times: MPI_Allreduce(SUM) of 1 double, then of 16 doubles; every
 * 20th iteration also one of 16384 doubles (128 KiB). Each result is
 * checked against the closed form. Rank 0 prints the mean time per call
 * for each size and the total.
 *
 *   mpiexec -n 1..4 ./allreduce [ITERS]      (default 2000)
 */
#include "bench.h"

enum { MEDIUM = 16384 };

int main(int argc, char **argv)
{
    int iters = argc > 1 ? atoi(argv[1]) : 2000;
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    double *in = malloc(MEDIUM * sizeof(double));
    double *out = malloc(MEDIUM * sizeof(double));
    double t_small = 0, t_16 = 0, t_med = 0;
    int n_med = 0;
    /* sum over ranks of (rank + i) */
    double base = size * (size - 1) / 2.0;

    double t0 = bench_start();
    for (int it = 0; it < iters; it++) {
        double a = rank + it, r, t = MPI_Wtime();
        MPI_Allreduce(&a, &r, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        double t2 = MPI_Wtime();
        t_small += t2 - t;
        if (r != base + (double)size * it)
            bench_fail("allreduce 1: %g", r);

        for (int i = 0; i < 16; i++)
            in[i] = rank + i;
        MPI_Allreduce(in, out, 16, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        double t3 = MPI_Wtime();
        t_16 += t3 - t2;
        if (out[15] != base + 15.0 * size)
            bench_fail("allreduce 16: %g", out[15]);

        if (it % 20 == 0) {
            for (int i = 0; i < MEDIUM; i++)
                in[i] = rank + i;
            MPI_Allreduce(in, out, MEDIUM, MPI_DOUBLE, MPI_SUM,
                          MPI_COMM_WORLD);
            t_med += MPI_Wtime() - t3;
            n_med++;
            for (int i = 0; i < MEDIUM; i += 1021)
                if (out[i] != base + (double)i * size)
                    bench_fail("allreduce medium [%d]: %g", i, out[i]);
        }
    }
    if (rank == 0) {
        printf("allreduce %6d B %10.2f us/call\n", 8, t_small / iters * 1e6);
        printf("allreduce %6d B %10.2f us/call\n", 128, t_16 / iters * 1e6);
        printf("allreduce %6d B %10.2f us/call\n", MEDIUM * 8,
               t_med / (n_med ? n_med : 1) * 1e6);
    }
    bench_stop(t0);
    free(in);
    free(out);
    MPI_Finalize();
    return 0;
}
