/*
 * selfpair - the cost of one small MPI_Send/MPI_Recv pair, without the
 * noise of another process: one rank sends 8 bytes to itself (eager,
 * buffered) and receives them, N times. Prints "pair_ns NS" and "time_s S".
 *
 *   mpiexec -n 1 ./bench-selfpair [N]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000000;
    double x = 1.0, y = 0.0;

    MPI_Init(&argc, &argv);
    for (long i = 0; i < 1000; i++) { /* warm up */
        MPI_Send(&x, 1, MPI_DOUBLE, 0, 1, MPI_COMM_SELF);
        MPI_Recv(&y, 1, MPI_DOUBLE, 0, 1, MPI_COMM_SELF, MPI_STATUS_IGNORE);
    }
    double t0 = MPI_Wtime();
    for (long i = 0; i < n; i++) {
        x += 1.0;
        MPI_Send(&x, 1, MPI_DOUBLE, 0, 1, MPI_COMM_SELF);
        MPI_Recv(&y, 1, MPI_DOUBLE, 0, 1, MPI_COMM_SELF, MPI_STATUS_IGNORE);
    }
    double t = MPI_Wtime() - t0;
    if (y != x) {
        fprintf(stderr, "selfpair: received %g, sent %g\n", y, x);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    printf("pair_ns %.1f\ntime_s %.6f\n", t / (double)n * 1e9, t);
    MPI_Finalize();
    return 0;
}
