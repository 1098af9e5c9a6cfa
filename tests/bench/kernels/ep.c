/*
 * ep - Gaussian pairs in the manner of NAS EP (embarrassingly parallel:
 * compute only, one reduction at the end; the recorder's floor).
 *
 * 2^LOG2_PAIRS pairs of uniform numbers in [-1, 1), pair k made of the
 * counter-based generator's values 2k and 2k + 1 (splitmix64 of the global
 * index), so rank r takes the block of pairs [r * 2^M / size, (r + 1) *
 * 2^M / size) and the results do not depend on the number of ranks. The
 * Marsaglia polar method accepts the pairs inside the unit disc and turns
 * them into two Gaussian deviates X, Y; accepted pairs are counted in the
 * annuli l <= max(|X|, |Y|) < l + 1 (l = 0..9), and X and Y are summed in
 * fixed point (units of 2^-24, so the sums are exact integers). One
 * MPI_Allreduce of 13 integers combines the counts.
 * Verification: the annulus counts add up to the accepted pairs, the
 * acceptance rate is pi/4, the annulus counts match their probabilities
 * (erf((l + 1) / sqrt 2)^2 - erf(l / sqrt 2)^2) and the means of X and Y
 * are 0, all within 6 standard deviations; the printed integers are the
 * same for any number of ranks.
 *
 *   mpiexec -n 1..4 ./ep [LOG2_PAIRS]        (default 26)
 */
#include <math.h>
#include <stdint.h>

#include "bench.h"

enum { NQ = 10, NV = NQ + 3 };

static double uniform(uint64_t i)
{
    /* splitmix64 of the index, 53 bits to [-1, 1) */
    uint64_t z = i * 0x9e3779b97f4a7c15ULL + 0x2545f4914f6cdd1dULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1p-52 - 1.0;
}

int main(int argc, char **argv)
{
    int m = argc > 1 ? atoi(argv[1]) : 26, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (m < 10 || m > 40)
        bench_fail("LOG2_PAIRS = %d outside 10..40", m);
    uint64_t total = (uint64_t)1 << m;
    uint64_t lo = total / (uint64_t)size * (uint64_t)rank +
                  total % (uint64_t)size * (uint64_t)rank / (uint64_t)size;
    uint64_t hi = total / (uint64_t)size * (uint64_t)(rank + 1) +
                  total % (uint64_t)size * (uint64_t)(rank + 1) / (uint64_t)size;

    double t0 = bench_start();
    /* v: counts of annuli 0..9, accepted pairs, fixed-point sums of X, Y */
    long long v[NV] = {0}, g[NV];
    for (uint64_t k = lo; k < hi; k++) {
        double x = uniform(2 * k), y = uniform(2 * k + 1);
        double t = x * x + y * y;
        if (t > 1.0 || t == 0.0)
            continue;
        double f = sqrt(-2.0 * log(t) / t), gx = x * f, gy = y * f;
        double a = fmax(fabs(gx), fabs(gy));
        if (a < NQ)
            v[(int)a]++;
        v[NQ]++;
        v[NQ + 1] += llround(ldexp(gx, 24));
        v[NQ + 2] += llround(ldexp(gy, 24));
    }
    MPI_Allreduce(v, g, NV, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);

    double n = (double)total, acc = (double)g[NQ], p = M_PI / 4;
    long long qsum = 0;
    for (int l = 0; l < NQ; l++)
        qsum += g[l];
    if (qsum != g[NQ])
        bench_fail("annuli hold %lld pairs, %lld accepted", qsum, g[NQ]);
    if (fabs(acc - n * p) > 6 * sqrt(n * p * (1 - p)) + 1)
        bench_fail("%lld of %.0f pairs accepted, expected %.0f", g[NQ], n,
                   n * p);
    for (int l = 0; l < NQ; l++) {
        double e1 = erf((l + 1) / M_SQRT2), e0 = erf(l / M_SQRT2);
        double q = e1 * e1 - e0 * e0;
        if (fabs((double)g[l] - acc * q) > 6 * sqrt(acc * q * (1 - q)) + 1)
            bench_fail("annulus %d holds %lld, expected %.1f", l, g[l], acc * q);
    }
    for (int c = 0; c < 2; c++) {
        double mean = ldexp((double)g[NQ + 1 + c], -24) / acc;
        if (fabs(mean) > 6 / sqrt(acc))
            bench_fail("mean of %c is %g", "XY"[c], mean);
    }
    if (rank == 0) {
        printf("ep 2^%d pairs, %d ranks, verified: %lld accepted, sums "
               "%lld %lld, annuli", m, size, g[NQ], g[NQ + 1], g[NQ + 2]);
        for (int l = 0; l < NQ; l++)
            printf(" %lld", g[l]);
        printf("\n");
    }
    bench_stop(t0);
    MPI_Finalize();
    return 0;
}
