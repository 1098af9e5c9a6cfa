/*
 * selfpair - the cost of one small MPI_Send/MPI_Recv pair, without the
 * noise of another process: one rank sends 8 bytes to itself and receives
 * them, N times. The send is an MPI_Bsend: a blocking MPI_Send to oneself
 * before the receive is posted may wait forever (it does with MPICH 4.0.2
 * ch4), a buffered one completes at once. Prints "pair_ns NS" and
 * "time_s S". With "nb", each pair is nonblocking: MPI_Irecv, MPI_Ibsend
 * and one MPI_Waitall (three calls, the Wait family's path). With "pend",
 * the blocking pairs run while an MPI_Irecv that nothing matches is
 * pending (then cancelled): the blocking calls log their buffers'
 * addresses (docs/recording.md).
 *
 *   mpiexec -n 1 ./bench-selfpair [N [nb|pend]]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000000;
    int nb = argc > 2 && strcmp(argv[2], "nb") == 0;
    int pend = argc > 2 && strcmp(argv[2], "pend") == 0;
    double x = 1.0, y = 0.0, z;
    MPI_Request r[2], pr = MPI_REQUEST_NULL;
    MPI_Status st[2];

    MPI_Init(&argc, &argv);
    static char bsend_buf[1024];
    MPI_Buffer_attach(bsend_buf, sizeof bsend_buf);
    for (long i = 0; i < 1000; i++) { /* warm up */
        MPI_Bsend(&x, 1, MPI_DOUBLE, 0, 1, MPI_COMM_SELF);
        MPI_Recv(&y, 1, MPI_DOUBLE, 0, 1, MPI_COMM_SELF, MPI_STATUS_IGNORE);
    }
    if (pend)
        MPI_Irecv(&z, 1, MPI_DOUBLE, 0, 99, MPI_COMM_SELF, &pr);
    double t0 = MPI_Wtime();
    for (long i = 0; i < n; i++) {
        x += 1.0;
        if (nb) {
            MPI_Irecv(&y, 1, MPI_DOUBLE, 0, 1, MPI_COMM_SELF, &r[0]);
            MPI_Ibsend(&x, 1, MPI_DOUBLE, 0, 1, MPI_COMM_SELF, &r[1]);
            MPI_Waitall(2, r, st);
            continue;
        }
        MPI_Bsend(&x, 1, MPI_DOUBLE, 0, 1, MPI_COMM_SELF);
        MPI_Recv(&y, 1, MPI_DOUBLE, 0, 1, MPI_COMM_SELF, MPI_STATUS_IGNORE);
    }
    double t = MPI_Wtime() - t0;
    if (pend) {
        MPI_Cancel(&pr);
        MPI_Wait(&pr, MPI_STATUS_IGNORE);
    }
    if (y != x) {
        fprintf(stderr, "selfpair: received %g, sent %g\n", y, x);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    printf("pair_ns %.1f\ntime_s %.6f\n", n ? t / (double)n * 1e9 : 0.0, t);
    void *b;
    int bsize;
    MPI_Buffer_detach(&b, &bsize);
    MPI_Finalize();
    return 0;
}
