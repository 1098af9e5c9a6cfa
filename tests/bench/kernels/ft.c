/*
 * ft - a 3-D FFT solver of the heat equation in the manner of NAS FT (the
 * large all-to-all transposes of floating-point data that do not compress).
 *
 * A complex NX x NY x NZ field of pseudo-random values (seeded by global
 * z-plane, so it does not depend on the number of ranks) is distributed in
 * z-slabs. A forward 3-D FFT does radix-2 FFTs along x and y, a global
 * transpose to y-slabs (MPI_Alltoall of equal, zero-padded blocks) and FFTs
 * along z. ITERS times the spectrum is multiplied by exp(-4 pi^2 a |k|^2)
 * and transformed back (z FFTs, MPI_Alltoall, y and x FFTs); a checksum of
 * 1024 points, the field sum, the Parseval defect and one point computed
 * directly from the spectrum are reduced with one MPI_Allreduce.
 * Verification: two spectral values of the forward FFT equal a direct DFT
 * sum; each iteration the direct point matches the inverse FFT, the field
 * sum is conserved (k = 0 does not decay) and Parseval's identity holds.
 *
 *   mpiexec -n 1..4 ./ft [NX NY NZ ITERS]    (defaults 128 128 128 10;
 *   each dimension a power of two)
 */
#include <complex.h>
#include <math.h>
#include <stdint.h>

#include "bench.h"

typedef double complex cplx;

static double uniform(uint64_t *s)
{
    /* xorshift64*, 53 bits to [-1, 1) */
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return (double)((*s * 2685821657736338717ULL) >> 11) * 0x1p-52 - 1.0;
}

/* In-place radix-2 FFT of v[0..n); w[k] = exp(-2 pi i k / n); inv: conj. */
static void fft(cplx *v, int n, const cplx *w, int inv)
{
    for (int i = 1, j = 0; i < n; i++) {
        int bit = n >> 1;
        for (; j & bit; bit >>= 1)
            j ^= bit;
        j |= bit;
        if (i < j) {
            cplx t = v[i];
            v[i] = v[j];
            v[j] = t;
        }
    }
    for (int len = 2; len <= n; len <<= 1) {
        int step = n / len;
        for (int i = 0; i < n; i += len)
            for (int k = 0; k < len / 2; k++) {
                cplx tw = inv ? conj(w[k * step]) : w[k * step];
                cplx a = v[i + k], b = v[i + k + len / 2] * tw;
                v[i + k] = a + b;
                v[i + k + len / 2] = a - b;
            }
    }
}

static cplx *roots(int n, int sign)
{
    cplx *w = malloc((size_t)n * sizeof(cplx));
    for (int k = 0; k < n; k++)
        w[k] = cexp(sign * 2.0 * M_PI * I * k / n);
    return w;
}

static int nx, ny, nz, size, lz, ly, nzl, nyl, z0, y0_;
static cplx *wx, *wy, *wz, *line;

/* x and y FFTs of the z-slab a[zl][y][x] */
static void fft_xy(cplx *a, int inv)
{
    for (int zl = 0; zl < nzl; zl++) {
        cplx *p = a + (size_t)zl * ny * nx;
        for (int y = 0; y < ny; y++)
            fft(p + (size_t)y * nx, nx, wx, inv);
        for (int x = 0; x < nx; x++) {
            for (int y = 0; y < ny; y++)
                line[y] = p[(size_t)y * nx + x];
            fft(line, ny, wy, inv);
            for (int y = 0; y < ny; y++)
                p[(size_t)y * nx + x] = line[y];
        }
    }
}

/* z FFTs of the y-slab b[yl][x][z] */
static void fft_z(cplx *b, int inv)
{
    for (size_t l = 0; l < (size_t)nyl * nx; l++)
        fft(b + l * nz, nz, wz, inv);
}

/* Global transpose; blocks are [yl < ly][x][zl < lz], zero-padded. */
static void transpose(cplx *a, cplx *b, cplx *sbuf, cplx *rbuf, int to_y)
{
    size_t blk = (size_t)ly * nx * lz;
    for (int p = 0; p < size; p++)
        for (int yl = 0; yl < ly; yl++)
            for (int x = 0; x < nx; x++)
                for (int zl = 0; zl < lz; zl++) {
                    cplx *s = &sbuf[p * blk + ((size_t)yl * nx + x) * lz + zl];
                    int y = to_y ? p * ly + yl : y0_ + yl;
                    int z = to_y ? z0 + zl : p * lz + zl;
                    int ok = to_y ? (y < ny && zl < nzl) : (yl < nyl && z < nz);
                    *s = !ok ? 0
                         : to_y ? a[((size_t)zl * ny + y) * nx + x]
                                : b[((size_t)yl * nx + x) * nz + z];
                }
    MPI_Alltoall(sbuf, (int)(2 * blk), MPI_DOUBLE, rbuf, (int)(2 * blk),
                 MPI_DOUBLE, MPI_COMM_WORLD);
    for (int q = 0; q < size; q++)
        for (int yl = 0; yl < ly; yl++)
            for (int x = 0; x < nx; x++)
                for (int zl = 0; zl < lz; zl++) {
                    cplx r = rbuf[q * blk + ((size_t)yl * nx + x) * lz + zl];
                    int y = to_y ? y0_ + yl : q * ly + yl;
                    int z = to_y ? q * lz + zl : z0 + zl;
                    if (to_y && yl < nyl && z < nz)
                        b[((size_t)yl * nx + x) * nz + z] = r;
                    else if (!to_y && y < ny && zl < nzl)
                        a[((size_t)zl * ny + y) * nx + x] = r;
                }
}

int main(int argc, char **argv)
{
    nx = argc > 1 ? atoi(argv[1]) : 128;
    ny = argc > 2 ? atoi(argv[2]) : 128;
    nz = argc > 3 ? atoi(argv[3]) : 128;
    int iters = argc > 4 ? atoi(argv[4]) : 10, rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (nx < 2 || ny < 2 || nz < 2 || (nx & (nx - 1)) || (ny & (ny - 1)) ||
        (nz & (nz - 1)))
        bench_fail("dimensions %d %d %d must be powers of two", nx, ny, nz);
    lz = (nz + size - 1) / size;
    ly = (ny + size - 1) / size;
    z0 = rank * lz;
    y0_ = rank * ly;
    nzl = z0 >= nz ? 0 : (nz - z0 < lz ? nz - z0 : lz);
    nyl = y0_ >= ny ? 0 : (ny - y0_ < ly ? ny - y0_ : ly);
    size_t na = (size_t)lz * ny * nx, nb = (size_t)ly * nx * nz;
    size_t nbuf = (size_t)size * ly * nx * lz;
    double ntot = (double)nx * ny * nz;
    cplx *a = calloc(na, sizeof(cplx)), *b = calloc(nb, sizeof(cplx));
    cplx *uhat = calloc(nb, sizeof(cplx));
    double *decay = calloc(nb, sizeof(double));
    cplx *sbuf = malloc(nbuf * sizeof(cplx)), *rbuf = malloc(nbuf * sizeof(cplx));
    line = malloc((size_t)ny * sizeof(cplx));
    wx = roots(nx, -1), wy = roots(ny, -1), wz = roots(nz, -1);

    /* initial field; its sum and a direct DFT at two wave vectors */
    static const int kv[2][3] = {{1, 2, 3}, {5, 7, 11}};
    cplx dft[3] = {0}, gdft[3];
    for (int zl = 0; zl < nzl; zl++) {
        uint64_t s = 0x9e3779b97f4a7c15ULL * (uint64_t)(z0 + zl + 1);
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++) {
                cplx u = uniform(&s) + I * uniform(&s);
                a[((size_t)zl * ny + y) * nx + x] = u;
                dft[2] += u;
                for (int m = 0; m < 2; m++)
                    dft[m] += u * wx[kv[m][0] * x % nx] * wy[kv[m][1] * y % ny] *
                              wz[kv[m][2] * (z0 + zl) % nz];
            }
    }
    MPI_Allreduce(dft, gdft, 6, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);

    double t0 = bench_start();
    fft_xy(a, 0);
    transpose(a, b, sbuf, rbuf, 1);
    fft_z(b, 0);
    for (int m = 0; m < 2; m++) {
        int kx = kv[m][0] % nx, ky = kv[m][1] % ny, kz = kv[m][2] % nz;
        if (ky >= y0_ && ky < y0_ + nyl &&
            cabs(b[((size_t)(ky - y0_) * nx + kx) * nz + kz] - gdft[m]) >
                1e-9 * sqrt(ntot))
            bench_fail("FFT at (%d,%d,%d) differs from the direct sum", kx,
                       ky, kz);
    }
    for (int yl = 0; yl < nyl; yl++)
        for (int x = 0; x < nx; x++)
            for (int z = 0; z < nz; z++) {
                size_t i = ((size_t)yl * nx + x) * nz + z;
                int kx = x < nx / 2 ? x : x - nx, ky = y0_ + yl, kz;
                ky = ky < ny / 2 ? ky : ky - ny;
                kz = z < nz / 2 ? z : z - nz;
                decay[i] = exp(-4.0 * M_PI * M_PI * 1e-6 *
                               (double)(kx * kx + ky * ky + kz * kz));
                uhat[i] = b[i];
            }

    cplx chk = 0;
    for (int it = 0; it < iters; it++) {
        /* evolve; direct inverse DFT at one point; energy of the spectrum */
        int px = (3 * it + 1) % nx, py = (5 * it + 2) % ny, pz = (7 * it + 3) % nz;
        /* field sum, checksum, direct value, FFT value, Parseval defect */
        cplx loc[5] = {0}, glob[5];
        for (int yl = 0; yl < nyl; yl++)
            for (int x = 0; x < nx; x++) {
                cplx wxy = conj(wx[(size_t)x * px % nx] *
                                wy[(size_t)(y0_ + yl) * py % ny]) / ntot;
                for (int z = 0; z < nz; z++) {
                    size_t i = ((size_t)yl * nx + x) * nz + z;
                    b[i] = uhat[i] *= decay[i];
                    loc[2] += b[i] * wxy * conj(wz[(size_t)z * pz % nz]);
                    loc[4] += creal(b[i] * conj(b[i])) / ntot;
                }
            }
        fft_z(b, 1);
        transpose(a, b, sbuf, rbuf, 0);
        fft_xy(a, 1);
        for (size_t i = 0; i < (size_t)nzl * ny * nx; i++) {
            a[i] /= ntot;
            loc[0] += a[i];
            loc[4] -= creal(a[i] * conj(a[i]));
        }
        for (int j = 1; j <= 1024; j++) {
            int x = j % nx, y = 3 * j % ny, z = 5 * j % nz;
            if (z >= z0 && z < z0 + nzl)
                loc[1] += a[((size_t)(z - z0) * ny + y) * nx + x];
        }
        if (pz >= z0 && pz < z0 + nzl)
            loc[3] = a[((size_t)(pz - z0) * ny + py) * nx + px];
        MPI_Allreduce(loc, glob, 10, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        chk += glob[1];
        if (cabs(glob[0] - gdft[2]) > 1e-9 * sqrt(ntot))
            bench_fail("iteration %d: field sum %g%+gi, expected %g%+gi", it,
                       creal(glob[0]), cimag(glob[0]), creal(gdft[2]),
                       cimag(gdft[2]));
        if (fabs(creal(glob[4])) > 1e-9 * ntot)
            bench_fail("iteration %d: Parseval defect %g", it, creal(glob[4]));
        if (cabs(glob[2] - glob[3]) > 1e-9)
            bench_fail("iteration %d: u(%d,%d,%d) = %g%+gi, direct %g%+gi", it,
                       px, py, pz, creal(glob[3]), cimag(glob[3]),
                       creal(glob[2]), cimag(glob[2]));
    }
    if (rank == 0)
        printf("ft %dx%dx%d, %d ranks, %d iterations, verified (checksum "
               "%.9e %+.9e)\n", nx, ny, nz, size, iters, creal(chk), cimag(chk));
    bench_stop(t0);
    free(a), free(b), free(uhat), free(decay), free(sbuf), free(rbuf);
    free(line), free(wx), free(wy), free(wz);
    MPI_Finalize();
    return 0;
}
