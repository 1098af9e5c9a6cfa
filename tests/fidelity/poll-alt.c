/*
 * poll-alt.c - a polling loop that alternates MPI_Testany and MPI_Test on
 * two receives whose messages arrive at different times (issue 16, class
 * 11). Rank 0 receives a from rank 1, which sends it after SECS seconds
 * (argument 1, default 0.03), and b from rank 2, which sends it SECS
 * seconds after rank 0 told it a had arrived; ranks 1 and 2 wait with
 * usleep, outside MPI. Rank 0 prints how many polls each phase took and
 * the data: a replay that does not reproduce every poll prints other
 * numbers. The other ranks (from 3) only take part in the final barrier.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "poll.h"

int main(int argc, char **argv)
{
    double secs = argc > 1 ? atof(argv[1]) : 0.03;
    int rank = poll_start(&argc, &argv, 3, "poll-alt");
    if (rank == 0) {
        int a = -1, b = -1, done_a = 0, done_b = 0, idx, flag;
        long polls = 0, first = -1;
        MPI_Request ra, rb;
        MPI_Status st;
        MPI_Irecv(&a, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, &ra);
        MPI_Irecv(&b, 1, MPI_INT, 2, 6, MPI_COMM_WORLD, &rb);
        while (!done_a || !done_b) {
            MPI_Testany(1, &ra, &idx, &flag, &st);
            if (flag && !done_a) {
                int go = 1;
                done_a = 1;
                first = first < 0 ? 1 : first;
                printf("a arrived after %ld polls from %d tag %d\n", polls,
                       st.MPI_SOURCE, st.MPI_TAG);
                MPI_Send(&go, 1, MPI_INT, 2, 7, MPI_COMM_WORLD);
            }
            MPI_Test(&rb, &flag, &st);
            if (flag && !done_b) {
                done_b = 1;
                first = first < 0 ? 2 : first;
                printf("b arrived after %ld polls from %d tag %d\n", polls,
                       st.MPI_SOURCE, st.MPI_TAG);
            }
            polls++;
        }
        printf("a=%d b=%d first=%ld polls=%ld\n", a, b, first, polls);
    } else if (rank <= 2) {
        int v = 100 * rank + 7, go;
        if (rank == 2) /* b comes after a, even on a loaded machine */
            MPI_Recv(&go, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        usleep((useconds_t)(secs * 1e6));
        MPI_Send(&v, 1, MPI_INT, 0, 4 + rank, MPI_COMM_WORLD);
    }
    return poll_end();
}
