/*
 * is - an integer bucket sort in the manner of NAS IS (the paper's worst
 * case for logging: large all-to-all exchanges of key data).
 *
 * ITERS times: every rank generates KEYS pseudo-random keys in [0, 2^20)
 * (seeded by rank and iteration), counts them per destination bucket
 * (rank r owns keys [r * 2^20 / size, (r + 1) * 2^20 / size)), exchanges
 * the counts with MPI_Alltoall and the keys with MPI_Alltoallv, and sorts
 * its keys locally with a counting sort. Verification each iteration: the
 * local keys are sorted and in the rank's range, the largest key of rank r
 * is <= the smallest of rank r + 1 (MPI_Sendrecv), and the global key count
 * and key sum are preserved (MPI_Allreduce).
 *
 *   mpiexec -n 1..4 ./is [KEYS] [ITERS]      (defaults 200000, 10)
 */
#include <stdint.h>
#include <string.h>

#include "bench.h"

enum { KEYBITS = 20, MAXKEY = 1 << KEYBITS };

static uint32_t next(uint64_t *s)
{
    /* xorshift64* */
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return (uint32_t)((*s * 2685821657736338717ULL) >> 32);
}

int main(int argc, char **argv)
{
    int nkeys = argc > 1 ? atoi(argv[1]) : 200000;
    int iters = argc > 2 ? atoi(argv[2]) : 10;
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm w = MPI_COMM_WORLD;

    int *keys = malloc((size_t)nkeys * sizeof(int));
    int *sendbuf = malloc((size_t)nkeys * sizeof(int));
    int *scount = calloc((size_t)size, sizeof(int)), *sdispl = calloc((size_t)size, sizeof(int));
    int *rcount = calloc((size_t)size, sizeof(int)), *rdispl = calloc((size_t)size, sizeof(int));
    int *fill = calloc((size_t)size, sizeof(int));
    int lo = (int)((long)rank * MAXKEY / size);
    int hi = (int)((long)(rank + 1) * MAXKEY / size);
    int *hist = calloc((size_t)(hi - lo), sizeof(int));
    int *recv = NULL, *sorted = NULL, cap = 0, total = 0;
    long long checksum_in = 0, checksum_out = 0;

    double t0 = bench_start();
    for (int it = 0; it < iters; it++) {
        uint64_t seed = 0x9e3779b97f4a7c15ULL * (uint64_t)(rank + 1) +
                        (uint64_t)it * 1315423911ULL;
        long long mysum = 0;
        memset(scount, 0, (size_t)size * sizeof(int));
        for (int i = 0; i < nkeys; i++) {
            /* average of two uniform keys: a bell shape, so buckets are
             * uneven as in IS */
            keys[i] = (int)((next(&seed) % MAXKEY + next(&seed) % MAXKEY) / 2);
            scount[(long)keys[i] * size / MAXKEY]++;
            mysum += keys[i];
        }
        sdispl[0] = 0;
        for (int p = 1; p < size; p++)
            sdispl[p] = sdispl[p - 1] + scount[p - 1];
        memcpy(fill, sdispl, (size_t)size * sizeof(int));
        for (int i = 0; i < nkeys; i++)
            sendbuf[fill[(long)keys[i] * size / MAXKEY]++] = keys[i];

        MPI_Alltoall(scount, 1, MPI_INT, rcount, 1, MPI_INT, w);
        total = 0;
        for (int p = 0; p < size; p++) {
            rdispl[p] = total;
            total += rcount[p];
        }
        if (total > cap) {
            cap = total + total / 4;
            recv = realloc(recv, (size_t)cap * sizeof(int));
            sorted = realloc(sorted, (size_t)cap * sizeof(int));
        }
        MPI_Alltoallv(sendbuf, scount, sdispl, MPI_INT, recv, rcount, rdispl,
                      MPI_INT, w);

        /* counting sort of [lo, hi) */
        memset(hist, 0, (size_t)(hi - lo) * sizeof(int));
        long long got = 0;
        for (int i = 0; i < total; i++) {
            if (recv[i] < lo || recv[i] >= hi)
                bench_fail("key %d outside [%d, %d)", recv[i], lo, hi);
            hist[recv[i] - lo]++;
            got += recv[i];
        }
        for (int k = 0, pos = 0; k < hi - lo; k++)
            for (int c = 0; c < hist[k]; c++)
                sorted[pos++] = lo + k;

        /* verification */
        for (int i = 1; i < total; i++)
            if (sorted[i - 1] > sorted[i])
                bench_fail("not sorted at %d", i);
        int mymax = total ? sorted[total - 1] : lo, leftmax = -1;
        int prev = rank > 0 ? rank - 1 : MPI_PROC_NULL;
        int nextr = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
        MPI_Sendrecv(&mymax, 1, MPI_INT, nextr, 5, &leftmax, 1, MPI_INT, prev,
                     5, w, MPI_STATUS_IGNORE);
        if (total && rank > 0 && leftmax > sorted[0])
            bench_fail("rank %d max %d > my min %d", rank - 1, leftmax,
                       sorted[0]);
        long long in2[2] = {nkeys, mysum}, out2[2] = {total, got}, gin[2],
                  gout[2];
        MPI_Allreduce(in2, gin, 2, MPI_LONG_LONG, MPI_SUM, w);
        MPI_Allreduce(out2, gout, 2, MPI_LONG_LONG, MPI_SUM, w);
        if (gin[0] != gout[0] || gin[1] != gout[1])
            bench_fail("keys lost: %lld/%lld keys, sums %lld/%lld", gin[0],
                       gout[0], gin[1], gout[1]);
        checksum_in += gin[1];
        checksum_out += gout[1];
    }
    if (rank == 0)
        printf("is %d keys/rank x %d ranks, %d iterations, verified (key sum "
               "%lld)\n", nkeys, size, iters, checksum_out);
    bench_stop(t0);
    (void)checksum_in;
    free(keys);
    free(sendbuf);
    free(scount);
    free(sdispl);
    free(rcount);
    free(rdispl);
    free(fill);
    free(hist);
    free(recv);
    free(sorted);
    MPI_Finalize();
    return 0;
}
