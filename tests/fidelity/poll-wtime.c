/*
 * poll-wtime.c - polls mixed with MPI_Wtime (issue 16, class 11): the
 * common `while (!flag) { MPI_Test(...); t = MPI_Wtime(); }`, then a
 * loop that polls with a timeout (Iprobe, Wtime, Wtime: the time read
 * twice), then a busy wait on MPI_Wtime alone. Rank 0 prints the polls,
 * and every time value it read, summed bit-exactly (as a hexadecimal
 * float) and the last one: a replay must return the recorded values.
 * Argument 1: the sender's delay in seconds (default 0.03).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "poll.h"

int main(int argc, char **argv)
{
    double secs = argc > 1 ? atof(argv[1]) : 0.03;
    int rank = poll_start(&argc, &argv, 2, "poll-wtime");
    if (rank == 0) {
        int v = -1, flag = 0;
        long polls = 0;
        double t = 0, sum = 0, t0 = MPI_Wtime();
        MPI_Request r;
        MPI_Irecv(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &r);
        while (!flag) {
            MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
            t = MPI_Wtime();
            sum += t - t0;
            polls++;
        }
        printf("v=%d polls=%ld sum=%a last=%a\n", v, polls, sum, t - t0);
        /* A timed poll: Iprobe, then the time twice. */
        flag = 0;
        polls = 0;
        while (!flag) {
            double a, b;
            MPI_Iprobe(1, 1, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
            a = MPI_Wtime();
            b = MPI_Wtime();
            sum += (b - a) + (a - t0);
            polls++;
        }
        MPI_Recv(&v, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("v=%d polls=%ld sum=%a\n", v, polls, sum);
        /* A busy wait on the clock alone. */
        double start = MPI_Wtime(), now;
        polls = 0;
        while ((now = MPI_Wtime()) - start < secs / 3) {
            sum += now - start;
            polls++;
        }
        printf("waited polls=%ld sum=%a tick=%a\n", polls, sum, MPI_Wtick());
    } else if (rank == 1) {
        int x = 42, y = 43;
        usleep((useconds_t)(secs * 1e6));
        MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        usleep((useconds_t)(secs * 1e6));
        MPI_Send(&y, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
    }
    return poll_end();
}
