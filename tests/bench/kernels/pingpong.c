/*
 * pingpong - point-to-point latency and bandwidth.
 *
 * Ranks pair up (0-1, 2-3, ...; an odd last rank only joins the barriers).
 * Latency: for sizes 8 B, then 16 B to 1 MiB in powers of 4 (10 sizes),
 * the even rank sends and
 * the odd rank sends back (MPI_Send/MPI_Recv), REPS(size) round trips;
 * rank 0 prints the one-way time in microseconds for its pair.
 * Bandwidth: for the same sizes, a window of 16 MPI_Isend (even rank) /
 * MPI_Irecv (odd rank) completed with MPI_Waitall, then a 1-byte ack;
 * rank 0 prints MB/s (10^6 bytes per second). The first and last byte of
 * each message are checked.
 *
 *   mpiexec -n 2..4 ./pingpong [ITERS]       (default 300)
 * ITERS is the number of round trips for sizes up to 4 KiB; larger sizes
 * use proportionally fewer (at least 1); the bandwidth test runs
 * ITERS / 4 + 1 windows for the small sizes. Oversubscribed (4 ranks on 2
 * cores) every message costs a scheduler time slice: use ITERS ~ 10.
 */
#include <string.h>

#include "bench.h"

enum { MAXSIZE = 1 << 20, WINDOW = 16 };

static int reps_for(int iters, int size)
{
    long r = (long)iters * 4096 / (size > 4096 ? size : 4096);
    return r < 1 ? 1 : (int)r;
}

int main(int argc, char **argv)
{
    int iters = argc > 1 ? atoi(argv[1]) : 300;
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2)
        bench_fail("needs at least 2 ranks");
    int peer = rank ^ 1, active = peer < size, even = !(rank & 1);
    unsigned char *buf = malloc((size_t)MAXSIZE * WINDOW);
    memset(buf, 0, (size_t)MAXSIZE * WINDOW);
    MPI_Comm w = MPI_COMM_WORLD;

    double t0 = bench_start();
    for (int s = 8; s <= MAXSIZE; s = s == 8 ? 16 : s * 4) {
        int reps = reps_for(iters, s);
        MPI_Barrier(w);
        double start = MPI_Wtime();
        if (active) {
            for (int i = 0; i < reps; i++) {
                if (even) {
                    buf[0] = (unsigned char)i;
                    buf[s - 1] = (unsigned char)(i + 1);
                    MPI_Send(buf, s, MPI_BYTE, peer, 1, w);
                    MPI_Recv(buf, s, MPI_BYTE, peer, 1, w, MPI_STATUS_IGNORE);
                    if (buf[0] != (unsigned char)(i + 7))
                        bench_fail("pingpong size %d rep %d", s, i);
                } else {
                    MPI_Recv(buf, s, MPI_BYTE, peer, 1, w, MPI_STATUS_IGNORE);
                    if (buf[0] != (unsigned char)i ||
                        buf[s - 1] != (unsigned char)(i + 1))
                        bench_fail("pingpong size %d rep %d", s, i);
                    buf[0] = (unsigned char)(i + 7);
                    MPI_Send(buf, s, MPI_BYTE, peer, 1, w);
                }
            }
        }
        double us = (MPI_Wtime() - start) / reps / 2 * 1e6;
        if (rank == 0)
            printf("latency %8d B %10.2f us\n", s, us);
    }
    for (int s = 8; s <= MAXSIZE; s = s == 8 ? 16 : s * 4) {
        int reps = reps_for(iters, s) / 4 + 1;
        MPI_Barrier(w);
        double start = MPI_Wtime();
        if (active) {
            MPI_Request req[WINDOW];
            MPI_Status st[WINDOW];
            char ack = 0;
            for (int i = 0; i < reps; i++) {
                for (int k = 0; k < WINDOW; k++) {
                    unsigned char *b = buf + (size_t)k * s;
                    if (even) {
                        b[0] = (unsigned char)(i + k);
                        b[s - 1] = (unsigned char)(i * k);
                        MPI_Isend(b, s, MPI_BYTE, peer, 2, w, &req[k]);
                    } else {
                        MPI_Irecv(b, s, MPI_BYTE, peer, 2, w, &req[k]);
                    }
                }
                MPI_Waitall(WINDOW, req, st);
                if (even) {
                    MPI_Recv(&ack, 1, MPI_CHAR, peer, 3, w, MPI_STATUS_IGNORE);
                } else {
                    for (int k = 0; k < WINDOW; k++) {
                        unsigned char *b = buf + (size_t)k * s;
                        if (b[0] != (unsigned char)(i + k) ||
                            b[s - 1] != (unsigned char)(i * k))
                            bench_fail("bandwidth size %d rep %d", s, i);
                    }
                    MPI_Send(&ack, 1, MPI_CHAR, peer, 3, w);
                }
            }
        }
        double secs = MPI_Wtime() - start;
        if (rank == 0)
            printf("bandwidth %8d B %10.1f MB/s\n", s,
                   (double)s * WINDOW * reps / secs / 1e6);
    }
    bench_stop(t0);
    free(buf);
    MPI_Finalize();
    return 0;
}
