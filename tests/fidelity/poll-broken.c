/*
 * poll-broken.c - polling cycles broken irregularly (issue 16, class 11):
 * rank 0 polls two receives (Test, Test) in a loop, and at irregular
 * iterations (a fixed pseudo-random sequence) adds a third poll (an
 * Iprobe), repeats the first Test (a cycle whose body has a call twice in
 * a row: A A B), or makes a call that is not a poll (MPI_Comm_rank). It
 * prints what it saw and a checksum of the iterations' kinds.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "poll.h"

int main(int argc, char **argv)
{
    int rank = poll_start(&argc, &argv, 2, "poll-broken");
    if (rank == 0) {
        int a = -1, b = -1, fa = 0, fb = 0, flag, r;
        unsigned seed = 12345, sum = 0;
        long polls = 0;
        MPI_Request ra, rb;
        MPI_Irecv(&a, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, &ra);
        MPI_Irecv(&b, 1, MPI_INT, 1, 2, MPI_COMM_WORLD, &rb);
        while (!fa || !fb) {
            seed = seed * 1103515245u + 12345u;
            unsigned kind = (seed >> 16) % 16;
            if (!fa)
                MPI_Test(&ra, &fa, MPI_STATUS_IGNORE);
            if (kind < 4 && !fa) /* A A B: the first poll twice */
                MPI_Test(&ra, &fa, MPI_STATUS_IGNORE);
            if (!fb)
                MPI_Test(&rb, &fb, MPI_STATUS_IGNORE);
            if (kind == 5)
                MPI_Iprobe(1, 3, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
            if (kind == 7)
                MPI_Comm_rank(MPI_COMM_WORLD, &r);
            sum = sum * 31 + kind;
            polls++;
            if (fa && a == -1)
                printf("never\n");
        }
        printf("a=%d b=%d polls=%ld sum=%u\n", a, b, polls, sum);
    } else if (rank == 1) {
        int x = 5, y = 6;
        usleep(20000);
        MPI_Send(&x, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
        usleep(20000);
        MPI_Send(&y, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
    }
    return poll_end();
}
