/*
 * lu - pipelined SSOR wavefronts in the manner of NAS LU (many small
 * point-to-point messages on a dependency chain through all ranks).
 *
 * (4 + s) u - (sum of the 4 neighbours) = b on an N x N grid with zero
 * boundary, b pseudo-random by global cell, solved by ITERS SSOR
 * iterations (omega 1.2, s 0.5). The grid is split in row blocks. The
 * forward Gauss-Seidel sweep visits the columns in blocks of BLOCK: for each
 * block a rank receives its northern neighbour's last row segment
 * (MPI_Recv), relaxes its rows, and sends its own last row segment south
 * (MPI_Send); the backward sweep runs the other way (blocks right to left,
 * segments from the south, sent north). This is exactly the sequential
 * lexicographic SSOR, whatever the number of ranks.
 * Verification: rank 0 recomputes the SSOR sequentially (before the timed
 * region) for a 47 x 47 grid, run distributed first (3 iterations, blocks
 * of 5), and for the real grid when N^2 ITERS <= 2^23; every row sum
 * gathered with MPI_Gatherv must equal the sequential one bit for bit. So
 * the printed checksum does not depend on the number of ranks. The
 * residual norm (one MPI_Sendrecv of the boundary row, MPI_Allreduce)
 * must have dropped below half of |b|.
 *
 *   mpiexec -n 1..4 ./lu [N ITERS [BLOCK]]  (defaults 1024 40 32)
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "bench.h"

#define OMEGA 1.2
#define SHIFT 0.5

enum { SMALL = 47 };

static double rhs(long i, long j)
{
    uint64_t z = (uint64_t)(i * 1000003 + j) * 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1p-52 - 1.0;
}

/* one relaxation; the same function for the parallel and sequential run */
static inline double relax(double u, double b, double n, double w, double s,
                           double e)
{
    return (1 - OMEGA) * u + OMEGA * (b + n + w + s + e) / (4 + SHIFT);
}

/* rows 1..nl of the (nl + 2) x (n + 2) arrays u and b */
static void sweep_block(double *u, const double *b, int nl, int n, int c0,
                        int c1, int forward)
{
    long m = n + 2;
    for (int k = 0; k < nl; k++) {
        long i = forward ? 1 + k : nl - k;
        for (int c = 0; c < c1 - c0; c++) {
            long j = forward ? c0 + 1 + c : c1 - c;
            u[i * m + j] = relax(u[i * m + j], b[i * m + j], u[(i - 1) * m + j],
                                 u[i * m + j - 1], u[(i + 1) * m + j],
                                 u[i * m + j + 1]);
        }
    }
}

static int rank, size;

/* the sequential SSOR at rank 0: row sums of u in ref[0..n) */
static void reference(int n, int iters, double *ref)
{
    long m = n + 2;
    double *u = calloc((size_t)(n + 2) * m, sizeof(double));
    double *b = calloc((size_t)(n + 2) * m, sizeof(double));
    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= n; j++)
            b[i * m + j] = rhs(i, j);
    for (int it = 0; it < iters; it++) {
        sweep_block(u, b, n, n, 0, n, 1);
        sweep_block(u, b, n, n, 0, n, 0);
    }
    for (int i = 1; i <= n; i++) {
        ref[i - 1] = 0;
        for (int j = 1; j <= n; j++)
            ref[i - 1] += u[i * m + j];
    }
    free(u);
    free(b);
}

/*
 * The distributed SSOR; rank 0 gets the row sums in rows[0..n) and
 * compares them with ref[] if not NULL. Returns |b - A u| / |b|.
 */
static double pipeline(int n, int iters, int bw, double *rows,
                       const double *ref)
{
    int *counts = malloc((size_t)size * sizeof(int));
    int *displs = malloc((size_t)size * sizeof(int));
    for (int p = 0; p < size; p++) {
        displs[p] = (int)((long)p * n / size);
        counts[p] = (int)((long)(p + 1) * n / size) - displs[p];
    }
    int r0 = displs[rank], nl = counts[rank], nb = (n + bw - 1) / bw;
    int north = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    int south = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
    long m = n + 2;
    double *u = calloc((size_t)(nl + 2) * m, sizeof(double));
    double *b = calloc((size_t)(nl + 2) * m, sizeof(double));
    double *mine = calloc((size_t)nl, sizeof(double));
    for (int i = 1; i <= nl; i++)
        for (int j = 1; j <= n; j++)
            b[i * m + j] = rhs(r0 + i, j);

    MPI_Status st;
    for (int it = 0; it < iters; it++) {
        for (int k = 0; k < nb; k++) {
            int c0 = k * bw, c1 = c0 + bw < n ? c0 + bw : n;
            MPI_Recv(&u[c0 + 1], c1 - c0, MPI_DOUBLE, north, 0,
                     MPI_COMM_WORLD, &st);
            sweep_block(u, b, nl, n, c0, c1, 1);
            MPI_Send(&u[nl * m + c0 + 1], c1 - c0, MPI_DOUBLE, south, 0,
                     MPI_COMM_WORLD);
        }
        for (int k = nb - 1; k >= 0; k--) {
            int c0 = k * bw, c1 = c0 + bw < n ? c0 + bw : n;
            MPI_Recv(&u[(nl + 1) * m + c0 + 1], c1 - c0, MPI_DOUBLE, south, 1,
                     MPI_COMM_WORLD, &st);
            sweep_block(u, b, nl, n, c0, c1, 0);
            MPI_Send(&u[m + c0 + 1], c1 - c0, MPI_DOUBLE, north, 1,
                     MPI_COMM_WORLD);
        }
    }

    /* residual: the northern ghost row is stale after the backward sweep */
    MPI_Sendrecv(&u[nl * m + 1], n, MPI_DOUBLE, south, 2, &u[1], n, MPI_DOUBLE,
                 north, 2, MPI_COMM_WORLD, &st);
    double loc[2] = {0, 0}, glob[2];
    for (int i = 1; i <= nl; i++)
        for (int j = 1; j <= n; j++) {
            long x = i * m + j;
            double r = b[x] - (4 + SHIFT) * u[x] + u[x - m] + u[x + m] +
                       u[x - 1] + u[x + 1];
            loc[0] += r * r;
            loc[1] += b[x] * b[x];
            mine[i - 1] += u[x];
        }
    MPI_Allreduce(loc, glob, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Gatherv(mine, nl, MPI_DOUBLE, rows, counts, displs, MPI_DOUBLE, 0,
                MPI_COMM_WORLD);
    for (int i = 0; rank == 0 && ref && i < n; i++)
        if (memcmp(&rows[i], &ref[i], sizeof(double)))
            bench_fail("%dx%d grid, row %d: sum %.17g, sequential %.17g", n, n,
                       i, rows[i], ref[i]);
    free(counts), free(displs), free(u), free(b), free(mine);
    return sqrt(glob[0] / glob[1]);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1024;
    int iters = argc > 2 ? atoi(argv[2]) : 40;
    int bw = argc > 3 ? atoi(argv[3]) : 32;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (n < size || bw < 1)
        bench_fail("need N >= ranks and BLOCK >= 1");
    double *rows = calloc((size_t)(n > SMALL ? n : SMALL), sizeof(double));
    double *ref = calloc((size_t)(n > SMALL ? n : SMALL), sizeof(double));

    /* a small grid against the sequential run, then the real one if cheap */
    if (rank == 0)
        reference(SMALL, 3, ref);
    pipeline(SMALL, 3, 5, rows, ref);
    int full = (double)n * n * iters <= 1 << 23;
    if (rank == 0 && full)
        reference(n, iters, ref);

    double t0 = bench_start();
    double ratio = pipeline(n, iters, bw, rows, full ? ref : NULL);
    if (!(ratio < 0.5))
        bench_fail("residual %.3e of |b| after %d iterations", ratio, iters);
    if (rank == 0) {
        double sum = 0;
        for (int i = 0; i < n; i++)
            sum += rows[i];
        printf("lu %dx%d, %d ranks, %d iterations, %d-column blocks, verified"
               "%s (checksum %.17g)\n", n, n, size, iters, bw,
               full ? " against sequential" : "", sum);
    }
    bench_stop(t0);
    free(rows), free(ref);
    MPI_Finalize();
    return 0;
}
