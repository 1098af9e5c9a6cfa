/*
 * poll - time-bounded polling, as test suites and graph traversals do:
 * rank 1 waits SECONDS by polling MPI_Wtime, then sends one int to rank 0,
 * which polls MPI_Test on its MPI_Irecv until the message came. The
 * recorder logs each run of polls once (a polling cycle); the replay makes
 * every poll again, and should take about the recorded time, not more.
 * Prints "polls N" per rank and "time_s S" (rank 0).
 *
 *   mpiexec -n 2 ./bench-poll [SECONDS]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    double secs = argc > 1 ? atof(argv[1]) : 1.0;
    int rank, v = 0, flag = 0;
    long polls = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    double t0 = MPI_Wtime();
    if (rank == 1) {
        while (MPI_Wtime() - t0 < secs)
            polls++;
        v = 42;
        MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    } else if (rank == 0) {
        MPI_Request r;
        MPI_Irecv(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &r);
        while (!flag) {
            MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
            polls++;
        }
    }
    printf("rank %d polls %ld value %d\n", rank, polls, v);
    if (rank == 0)
        printf("time_s %.6f\n", MPI_Wtime() - t0);
    MPI_Finalize();
    return 0;
}
