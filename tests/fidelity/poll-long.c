/*
 * poll-long.c - a polling cycle longer than the recorder's bound (issue
 * 16, class 11): rank 0 tests 12 receives in turn, one MPI_Test each, until
 * all completed; then a cycle of 3 (Test, Test, Iprobe) with the third
 * poll on a tag that never comes. Ranks 1 to 3 each send 4 messages at
 * their own times. Rank 0 prints the order of completions and the polls.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "poll.h"

#define N 12

int main(int argc, char **argv)
{
    int rank = poll_start(&argc, &argv, 4, "poll-long");
    if (rank == 0) {
        int v[N], done[N] = {0}, left = N;
        long polls = 0;
        MPI_Request r[N];
        for (int i = 0; i < N; i++)
            MPI_Irecv(&v[i], 1, MPI_INT, 1 + i % 3, i / 3, MPI_COMM_WORLD,
                      &r[i]);
        while (left) {
            for (int i = 0; i < N; i++) {
                int flag;
                if (done[i])
                    continue;
                MPI_Test(&r[i], &flag, MPI_STATUS_IGNORE);
                if (flag) {
                    done[i] = 1;
                    left--;
                    printf("req %d: %d after %ld polls\n", i, v[i], polls);
                }
                polls++;
            }
        }
        int x = 0, y = 0, fx = 0, fy = 0, flag;
        MPI_Request rx, ry;
        MPI_Irecv(&x, 1, MPI_INT, 1, 20, MPI_COMM_WORLD, &rx);
        MPI_Irecv(&y, 1, MPI_INT, 2, 20, MPI_COMM_WORLD, &ry);
        polls = 0;
        while (!fx || !fy) {
            if (!fx)
                MPI_Test(&rx, &fx, MPI_STATUS_IGNORE);
            if (!fy)
                MPI_Test(&ry, &fy, MPI_STATUS_IGNORE);
            MPI_Iprobe(3, 99, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
            polls++;
        }
        printf("x=%d y=%d polls=%ld\n", x, y, polls);
    } else if (rank <= 3) {
        for (int k = 0; k < 4; k++) {
            int val = rank * 100 + k;
            usleep((useconds_t)(3000 * rank + 4000 * k));
            MPI_Send(&val, 1, MPI_INT, 0, k, MPI_COMM_WORLD);
        }
        if (rank <= 2) {
            int val = rank;
            usleep((useconds_t)(30000 + 15000 * rank));
            MPI_Send(&val, 1, MPI_INT, 0, 20, MPI_COMM_WORLD);
        }
    }
    return poll_end();
}
