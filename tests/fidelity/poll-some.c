/*
 * poll-some.c - MPI_Testsome on three receives plus MPI_Iprobe for a
 * control message, in one loop (issue 16, class 11). Ranks 1 to 3 each
 * send a value at their own time; rank 1 later sends the control message
 * (tag 9) that ends the loop. Rank 0 prints each completion (index,
 * source, value) and the polls between them.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "poll.h"

int main(int argc, char **argv)
{
    int rank = poll_start(&argc, &argv, 4, "poll-some");
    if (rank == 0) {
        int vals[3] = {-1, -1, -1}, stop = 0, left = 3;
        long polls = 0;
        MPI_Request reqs[3];
        for (int i = 0; i < 3; i++)
            MPI_Irecv(&vals[i], 1, MPI_INT, i + 1, 3, MPI_COMM_WORLD, &reqs[i]);
        while (!stop) {
            int out, idx[3], flag;
            MPI_Status sts[3], st;
            MPI_Testsome(3, reqs, &out, idx, sts);
            for (int k = 0; out != MPI_UNDEFINED && k < out; k++) {
                left--;
                printf("req %d from %d: %d after %ld polls\n", idx[k],
                       sts[k].MPI_SOURCE, vals[idx[k]], polls);
            }
            MPI_Iprobe(MPI_ANY_SOURCE, 9, MPI_COMM_WORLD, &flag, &st);
            if (flag) {
                MPI_Recv(&stop, 1, MPI_INT, st.MPI_SOURCE, 9, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
                printf("stop %d from %d after %ld polls, %d left\n", stop,
                       st.MPI_SOURCE, polls, left);
            }
            polls++;
        }
        if (left) {
            MPI_Status sts[3];
            MPI_Waitall(3, reqs, sts);
        }
        printf("vals %d %d %d\n", vals[0], vals[1], vals[2]);
    } else if (rank <= 3) {
        int v = rank * 11;
        usleep((useconds_t)(10000 * (4 - rank)));
        MPI_Send(&v, 1, MPI_INT, 0, 3, MPI_COMM_WORLD);
        if (rank == 1) {
            int stop = 1;
            usleep(20000);
            MPI_Send(&stop, 1, MPI_INT, 0, 9, MPI_COMM_WORLD);
        }
    }
    return poll_end();
}
