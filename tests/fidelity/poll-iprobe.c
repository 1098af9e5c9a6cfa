/*
 * poll-iprobe.c - MPI_Iprobe on two tags in turn, the messages arriving at
 * different times (issue 16, class 11). Rank 1 sends tag 2 after SECS
 * seconds and tag 1 after 2 * SECS (argument 1, default 0.03); rank 0
 * probes tag 1, then tag 2, until it has received both, each with
 * MPI_Recv once its probe found it. It prints the order and the polls
 * each took. Other ranks take part in the final barrier only.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "poll.h"

int main(int argc, char **argv)
{
    double secs = argc > 1 ? atof(argv[1]) : 0.03;
    int rank = poll_start(&argc, &argv, 2, "poll-iprobe");
    if (rank == 0) {
        int got[3] = {0, 0, 0}, n = 0;
        long polls = 0;
        while (n < 2) {
            for (int tag = 1; tag <= 2; tag++) {
                int flag;
                MPI_Status st;
                if (got[tag])
                    continue;
                MPI_Iprobe(1, tag, MPI_COMM_WORLD, &flag, &st);
                if (flag) {
                    int v, count;
                    MPI_Get_count(&st, MPI_INT, &count);
                    MPI_Recv(&v, 1, MPI_INT, 1, tag, MPI_COMM_WORLD, &st);
                    got[tag] = v;
                    n++;
                    printf("tag %d: %d (count %d) after %ld polls\n", tag, v,
                           count, polls);
                }
            }
            polls++;
        }
        printf("polls=%ld\n", polls);
    } else if (rank == 1) {
        int v2 = 22, v1 = 11;
        usleep((useconds_t)(secs * 1e6));
        MPI_Send(&v2, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
        usleep((useconds_t)(secs * 1e6));
        MPI_Send(&v1, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
    }
    return poll_end();
}
