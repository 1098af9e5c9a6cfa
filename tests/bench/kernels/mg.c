/*
 * mg - a multigrid V-cycle for a 3-D Poisson problem in the manner of NAS
 * MG (face exchanges of every size, from the fine grid down to a few
 * cells, and a norm reduction per cycle).
 *
 * -laplace(u) = f on the unit cube, cell-centred N x N x N grid (N a power
 * of two), zero Dirichlet boundary (ghost cells reflect with a sign), f
 * pseudo-random per global z-plane (independent of the number of ranks).
 * The grid is split in z-slabs whose boundaries are those of the coarsest
 * grid (4 planes, up to 4 ranks) scaled up, so restriction and
 * prolongation stay local.
 * ITERS V(2,2) cycles: weighted Jacobi smoothing, 8-cell averaging
 * restriction, trilinear prolongation, 4 sweeps on the coarsest grid.
 * Every ghost fill exchanges the two z-faces (MPI_Irecv/MPI_Isend/
 * MPI_Waitall, (n + 2)^2 doubles each) with the neighbour slabs; after
 * each cycle the residual norm is reduced with MPI_Allreduce.
 * Verification: every cycle reduces the residual norm by at least a factor
 * 0.5 (until it is within 1e-11 of the start, rounding level). Before the
 * timed region a 16^3 grid is solved (3 cycles) by rank 0 alone, then by
 * all ranks: the z-plane sums of u (MPI_Reduce) must agree bit for bit,
 * since no operation depends on the decomposition; so the printed
 * checksum (plane sums added in order) is the same for any number of ranks.
 *
 *   mpiexec -n 1..4 ./mg [N ITERS]           (defaults 128 5)
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "bench.h"

enum { MAXLEV = 16, COARSE = 4, SWEEPS = 2, CSWEEPS = 4 };

typedef struct {
    int n, zlo, nzl; /* global size, first global plane, local planes */
    double *u, *f, *r;
} level;

static level lv[MAXLEV];
static int nlev, down, up;
static MPI_Comm comm;

#define AT(L, a, z, y, x) \
    (a)[((size_t)(z) * ((L)->n + 2) + (y)) * ((L)->n + 2) + (x)]

/* ghost cells of a: reflected in x and y, z-faces from the neighbours */
static void fill(level *L, double *a)
{
    int n = L->n, m = n + 2;
    size_t plane = (size_t)m * m;
    for (int z = 1; z <= L->nzl; z++) {
        for (int y = 1; y <= n; y++) {
            AT(L, a, z, y, 0) = -AT(L, a, z, y, 1);
            AT(L, a, z, y, n + 1) = -AT(L, a, z, y, n);
        }
        for (int x = 0; x < m; x++) {
            AT(L, a, z, 0, x) = -AT(L, a, z, 1, x);
            AT(L, a, z, n + 1, x) = -AT(L, a, z, n, x);
        }
    }
    MPI_Request req[4];
    MPI_Status st[4];
    double *top = a + (size_t)(L->nzl + 1) * plane;
    MPI_Irecv(a, (int)plane, MPI_DOUBLE, down, 0, comm, &req[0]);
    MPI_Irecv(top, (int)plane, MPI_DOUBLE, up, 1, comm, &req[1]);
    MPI_Isend(top - plane, (int)plane, MPI_DOUBLE, up, 0, comm, &req[2]);
    MPI_Isend(a + plane, (int)plane, MPI_DOUBLE, down, 1, comm, &req[3]);
    MPI_Waitall(4, req, st);
    for (size_t i = 0; i < plane; i++) {
        if (down == MPI_PROC_NULL)
            a[i] = -a[plane + i];
        if (up == MPI_PROC_NULL)
            top[i] = -top[i - plane];
    }
}

/* r = f - A u (u's ghosts filled); returns the local sum of r^2 */
static double resid(level *L)
{
    int n = L->n;
    double h2 = (double)n * n, s = 0;
    for (int z = 1; z <= L->nzl; z++)
        for (int y = 1; y <= n; y++)
            for (int x = 1; x <= n; x++) {
                const double *u = L->u;
                double au = h2 * (6 * AT(L, u, z, y, x) -
                                  AT(L, u, z, y, x - 1) - AT(L, u, z, y, x + 1) -
                                  AT(L, u, z, y - 1, x) - AT(L, u, z, y + 1, x) -
                                  AT(L, u, z - 1, y, x) - AT(L, u, z + 1, y, x));
                double r = AT(L, L->f, z, y, x) - au;
                AT(L, L->r, z, y, x) = r;
                s += r * r;
            }
    return s;
}

static void smooth(level *L, int sweeps)
{
    double w = 0.8 / (6.0 * L->n * L->n);
    for (int s = 0; s < sweeps; s++) {
        fill(L, L->u);
        resid(L);
        for (int z = 1; z <= L->nzl; z++)
            for (int y = 1; y <= L->n; y++)
                for (int x = 1; x <= L->n; x++)
                    AT(L, L->u, z, y, x) += w * AT(L, L->r, z, y, x);
    }
}

static void vcycle(int l)
{
    level *L = &lv[l], *C = &lv[l + 1];
    if (l == nlev - 1) {
        smooth(L, CSWEEPS);
        return;
    }
    smooth(L, SWEEPS);
    fill(L, L->u);
    resid(L);
    for (int z = 1; z <= C->nzl; z++)
        for (int y = 1; y <= C->n; y++)
            for (int x = 1; x <= C->n; x++) {
                double s = 0;
                for (int c = 0; c < 8; c++)
                    s += AT(L, L->r, 2 * z - 1 + (c >> 2),
                            2 * y - 1 + (c >> 1 & 1), 2 * x - 1 + (c & 1));
                AT(C, C->f, z, y, x) = s / 8;
            }
    memset(C->u, 0, (size_t)(C->nzl + 2) * (C->n + 2) * (C->n + 2) *
                        sizeof(double));
    vcycle(l + 1);
    fill(C, C->u);
    for (int z = 1; z <= L->nzl; z++)
        for (int y = 1; y <= L->n; y++)
            for (int x = 1; x <= L->n; x++) {
                /* coarse cell and its nearer neighbour in each direction */
                int cz = (z + 1) / 2, cy = (y + 1) / 2, cx = (x + 1) / 2;
                int oz = z & 1 ? -1 : 1, oy = y & 1 ? -1 : 1, ox = x & 1 ? -1 : 1;
                double s = 0;
                for (int c = 0; c < 8; c++) {
                    int a = c >> 2, b = c >> 1 & 1, d = c & 1;
                    s += (a ? 0.25 : 0.75) * (b ? 0.25 : 0.75) *
                         (d ? 0.25 : 0.75) *
                         AT(C, C->u, cz + a * oz, cy + b * oy, cx + d * ox);
                }
                AT(L, L->u, z, y, x) += s;
            }
    smooth(L, SWEEPS);
}

/* the levels of an n^3 grid (none if n = 0), slabs for comm's ranks */
static void setup(int n, int nc)
{
    int parts, part;
    for (int l = 0; l < nlev; l++)
        free(lv[l].u), free(lv[l].f), free(lv[l].r);
    nlev = 0;
    if (n == 0)
        return;
    MPI_Comm_size(comm, &parts);
    MPI_Comm_rank(comm, &part);
    down = part > 0 ? part - 1 : MPI_PROC_NULL;
    up = part < parts - 1 ? part + 1 : MPI_PROC_NULL;
    int clo = part * nc / parts, chi = (part + 1) * nc / parts;
    for (int m = n; m >= nc; m /= 2, nlev++) {
        level *L = &lv[nlev];
        L->n = m;
        L->zlo = clo * (m / nc);
        L->nzl = (chi - clo) * (m / nc);
        size_t cells = (size_t)(L->nzl + 2) * (m + 2) * (m + 2);
        L->u = calloc(cells, sizeof(double));
        L->f = calloc(cells, sizeof(double));
        L->r = calloc(cells, sizeof(double));
    }
    level *F = &lv[0];
    for (int z = 1; z <= F->nzl; z++) {
        uint64_t s = 0x9e3779b97f4a7c15ULL * (uint64_t)(F->zlo + z);
        for (int y = 1; y <= n; y++)
            for (int x = 1; x <= n; x++) {
                s ^= s >> 12, s ^= s << 25, s ^= s >> 27;
                AT(F, F->f, z, y, x) =
                    (double)((s * 2685821657736338717ULL) >> 11) * 0x1p-52 - 1;
            }
    }
}

/*
 * iters V-cycles on the levels of setup() over comm, checking the residual
 * reduction; sums[0..n) at comm's rank 0 gets the z-plane sums of u.
 * Returns |r| / |r0|.
 */
static double run(int iters, double *sums)
{
    level *F = &lv[0];
    double loc, r0, rn, prev;
    fill(F, F->u);
    loc = resid(F);
    MPI_Allreduce(&loc, &r0, 1, MPI_DOUBLE, MPI_SUM, comm);
    r0 = prev = rn = sqrt(r0);
    for (int it = 0; it < iters; it++) {
        vcycle(0);
        fill(F, F->u);
        loc = resid(F);
        MPI_Allreduce(&loc, &rn, 1, MPI_DOUBLE, MPI_SUM, comm);
        rn = sqrt(rn);
        if (!(rn < 0.5 * prev || rn < 1e-11 * r0))
            bench_fail("cycle %d: residual %.3e, was %.3e", it, rn, prev);
        prev = rn;
    }
    /* each plane's sum comes from one rank, the others add exact zeros */
    double *mine = calloc((size_t)F->n, sizeof(double));
    for (int z = 1; z <= F->nzl; z++)
        for (int y = 1; y <= F->n; y++)
            for (int x = 1; x <= F->n; x++)
                mine[F->zlo + z - 1] += AT(F, F->u, z, y, x);
    MPI_Reduce(mine, sums, F->n, MPI_DOUBLE, MPI_SUM, 0, comm);
    free(mine);
    return rn / r0;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 128;
    int iters = argc > 2 ? atoi(argv[2]) : 5, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int nc = COARSE;
    while (nc < size)
        nc *= 2;
    if (n < nc || (n & (n - 1)))
        bench_fail("N = %d must be a power of two >= %d", n, nc);
    int small = 4 * nc;
    double *ref = calloc((size_t)(n > small ? n : small), sizeof(double));
    double *sums = calloc((size_t)(n > small ? n : small), sizeof(double));

    /* a small grid on rank 0 alone, then distributed: same bits */
    if (rank == 0) {
        comm = MPI_COMM_SELF;
        setup(small, nc);
        run(3, ref);
    }
    comm = MPI_COMM_WORLD;
    setup(small, nc);
    run(3, sums);
    for (int z = 0; rank == 0 && z < small; z++)
        if (memcmp(&sums[z], &ref[z], sizeof(double)))
            bench_fail("%d^3 grid, plane %d: sum %.17g, sequential %.17g",
                       small, z, sums[z], ref[z]);
    setup(n, nc);

    double t0 = bench_start();
    double ratio = run(iters, sums);
    if (rank == 0) {
        double chk = 0;
        for (int z = 0; z < n; z++)
            chk += sums[z];
        printf("mg %d^3, %d levels, %d ranks, %d cycles, verified (|r|/|r0| "
               "%.3e, checksum %.17g)\n", n, nlev, size, iters, ratio, chk);
    }
    bench_stop(t0);
    setup(0, nc);
    free(ref), free(sums);
    MPI_Finalize();
    return 0;
}
