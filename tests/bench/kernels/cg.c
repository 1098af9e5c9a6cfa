/*
 * cg - conjugate gradient on a random sparse symmetric positive definite
 * matrix in the manner of NAS CG (a gather of the whole search direction
 * and two scalar reductions per iteration).
 *
 * The N x N matrix has NNZ_PER_ROW / 2 pseudo-random offsets d (the same on
 * all ranks); row i has entries at i + d and i - d (inside the matrix)
 * whose values hash(min(i, j), d) in [-1, 1) make it symmetric, and the
 * diagonal is the row's absolute sum plus 0.1, so its eigenvalues lie in
 * [0.1, 2 R + 0.1] (R the largest absolute row sum, Gershgorin). Rows are
 * distributed in blocks. ITERS CG iterations solve A x = b (b
 * pseudo-random by global row): for the sparse mat-vec every rank sends
 * its part of the search direction to every other (MPI_Irecv/MPI_Isend/
 * MPI_Waitall; MPICH 4.0.2's MPI_Allgatherv is 15 to 150 times slower
 * here, oversubscribed),
 * p.Ap and r.r are reduced with MPI_Allreduce. Verification: every
 * iteration the residual obeys the CG bound
 * 2 sqrt(K) ((sqrt(K) - 1) / (sqrt(K) + 1))^it |r0| (K the condition
 * bound; plus a rounding floor), and each rank's gathered copy has the
 * index-weighted sum of the distributed vector (reduced along with p.Ap);
 * at the end the true residual |b - A x| (one more gather) matches the
 * recurrence.
 *
 *   mpiexec -n 1..4 ./cg [N NNZ_PER_ROW ITERS]   (defaults 250000 16 75)
 */
#include <math.h>
#include <stdint.h>

#include "bench.h"

static uint64_t mix(uint64_t z)
{
    /* splitmix64 finaliser */
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static double value(uint64_t a, uint64_t b)
{
    return (double)(mix(a * 0x100000001b3ULL ^ mix(b)) >> 11) * 0x1p-52 - 1.0;
}

#define SHIFT 0.1

static int n, rank, size, lo, nloc, *counts, *displs, *rowptr, *col;
static double *val;
static MPI_Request *req;
static MPI_Status *st;

static void matvec(const double *full, double *y)
{
    for (int i = 0; i < nloc; i++) {
        double s = 0;
        for (int e = rowptr[i]; e < rowptr[i + 1]; e++)
            s += val[e] * full[col[e]];
        y[i] = s;
    }
}

/* full[] = the distributed v[], by MPI_Irecv/MPI_Isend from/to every rank */
static void gather(const double *v, double *full)
{
    int k = 0;
    for (int p = 0; p < size; p++)
        if (p != rank)
            MPI_Irecv(full + displs[p], counts[p], MPI_DOUBLE, p, 0,
                      MPI_COMM_WORLD, &req[k++]);
    for (int p = 0; p < size; p++)
        if (p != rank)
            MPI_Isend(v, nloc, MPI_DOUBLE, p, 0, MPI_COMM_WORLD, &req[k++]);
    for (int i = 0; i < nloc; i++)
        full[displs[rank] + i] = v[i];
    MPI_Waitall(k, req, st);
}

/*
 * Returns a.b; if v, also checks that full[] is the gathered v[]: its
 * index-weighted sum matches the reduced one (same MPI_Allreduce).
 */
static double dot(const double *a, const double *b, const double *v,
                  const double *full)
{
    double s[3] = {0, 0, 0}, g[3], mine = 0;
    for (int i = 0; i < nloc; i++) {
        s[0] += a[i] * b[i];
        if (v)
            s[1] += (lo + i + 1.0) * v[i], s[2] += (lo + i + 1.0) * fabs(v[i]);
    }
    MPI_Allreduce(s, g, v ? 3 : 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (v) {
        for (int i = 0; i < n; i++)
            mine += (i + 1.0) * full[i];
        if (fabs(mine - g[1]) > 1e-9 * g[2])
            bench_fail("gathered vector: weighted sum %.9e, expected %.9e",
                       mine, g[1]);
    }
    return g[0];
}

int main(int argc, char **argv)
{
    n = argc > 1 ? atoi(argv[1]) : 250000;
    int nnz = argc > 2 ? atoi(argv[2]) : 16;
    int iters = argc > 3 ? atoi(argv[3]) : 75;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int noff = nnz / 2;
    if (n < 2 || noff < 1 || noff > n - 1)
        bench_fail("need N >= 2 and 2 <= NNZ_PER_ROW <= 2 (N - 1)");
    counts = malloc((size_t)size * sizeof(int));
    displs = malloc((size_t)size * sizeof(int));
    for (int p = 0; p < size; p++) {
        displs[p] = (int)((long)p * n / size);
        counts[p] = (int)((long)(p + 1) * n / size) - displs[p];
    }
    lo = displs[rank];
    nloc = counts[rank];

    /* distinct offsets in [1, n) from a fixed seed */
    int *off = malloc((size_t)noff * sizeof(int));
    for (int k = 0, s = 0; k < noff; s++) {
        int d = 1 + (int)(mix(12345 + (uint64_t)s) % (uint64_t)(n - 1)), dup = 0;
        for (int m = 0; m < k; m++)
            dup |= off[m] == d;
        if (!dup)
            off[k++] = d;
    }
    rowptr = malloc((size_t)(nloc + 1) * sizeof(int));
    col = malloc((size_t)nloc * (2 * noff + 1) * sizeof(int));
    val = malloc((size_t)nloc * (2 * noff + 1) * sizeof(double));
    double rmax = 0, grmax;
    int e = 0;
    for (int i = 0; i < nloc; i++) {
        int gi = lo + i, diag = e++;
        double rsum = 0;
        rowptr[i] = diag;
        col[diag] = gi;
        for (int k = 0; k < noff; k++) {
            int d = off[k];
            if (gi + d < n) {
                col[e] = gi + d;
                val[e] = value((uint64_t)gi, (uint64_t)d);
                rsum += fabs(val[e++]);
            }
            if (gi - d >= 0) {
                col[e] = gi - d;
                val[e] = value((uint64_t)(gi - d), (uint64_t)d);
                rsum += fabs(val[e++]);
            }
        }
        val[diag] = rsum + SHIFT;
        rmax = rsum > rmax ? rsum : rmax;
    }
    rowptr[nloc] = e;
    MPI_Allreduce(&rmax, &grmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    double kappa = (2 * grmax + SHIFT) / SHIFT, sk = sqrt(kappa);
    double rho_c = (sk - 1) / (sk + 1);

    double *b = malloc((size_t)nloc * sizeof(double));
    double *x = calloc((size_t)nloc, sizeof(double));
    double *r = malloc((size_t)nloc * sizeof(double));
    double *p = malloc((size_t)nloc * sizeof(double));
    double *q = malloc((size_t)nloc * sizeof(double));
    double *full = malloc((size_t)n * sizeof(double));
    req = malloc(2 * (size_t)size * sizeof(MPI_Request));
    st = malloc(2 * (size_t)size * sizeof(MPI_Status));
    for (int i = 0; i < nloc; i++)
        b[i] = r[i] = p[i] = value(777, (uint64_t)(lo + i));

    double t0 = bench_start();
    double rho = dot(r, r, NULL, NULL), r0 = sqrt(rho), bound = 2 * sk;
    for (int it = 0; it < iters; it++) {
        gather(p, full);
        matvec(full, q);
        double alpha = rho / dot(p, q, p, full);
        for (int i = 0; i < nloc; i++) {
            x[i] += alpha * p[i];
            r[i] -= alpha * q[i];
        }
        double rho_new = dot(r, r, NULL, NULL), beta = rho_new / rho;
        rho = rho_new;
        for (int i = 0; i < nloc; i++)
            p[i] = r[i] + beta * p[i];
        bound *= rho_c;
        if (!(sqrt(rho) <= (bound + 1e-12) * r0))
            bench_fail("iteration %d: residual %.3e above the CG bound %.3e",
                       it, sqrt(rho), (bound + 1e-12) * r0);
    }
    /* true residual */
    gather(x, full);
    matvec(full, q);
    for (int i = 0; i < nloc; i++)
        q[i] = b[i] - q[i];
    double rtrue = sqrt(dot(q, q, x, full));
    if (fabs(rtrue - sqrt(rho)) > 1e-10 * r0)
        bench_fail("true residual %.3e, recurrence %.3e", rtrue, sqrt(rho));
    if (rank == 0)
        printf("cg n %d, %d nonzeros/row, %d ranks, %d iterations, verified "
               "(|r|/|r0| %.3e, condition bound %.1f)\n", n, 2 * noff + 1, size,
               iters, rtrue / r0, kappa);
    bench_stop(t0);
    free(counts), free(displs), free(off), free(rowptr), free(col), free(val);
    free(b), free(x), free(r), free(p), free(q), free(full), free(req), free(st);
    MPI_Finalize();
    return 0;
}
