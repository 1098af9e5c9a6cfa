/*
 * poll-status.c - the other polls (issue 16, class 11): a loop of
 * MPI_Request_get_status on a receive and MPI_Improbe on another tag, then
 * a loop of MPI_Testall on two receives and MPI_Iprobe. Rank 1 sends at
 * its own times. Rank 0 prints what arrived (the message Improbe took is
 * received with MPI_Mrecv) and the polls each took.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "poll.h"

int main(int argc, char **argv)
{
    int rank = poll_start(&argc, &argv, 2, "poll-status");
    if (rank == 0) {
        int a = -1, m = -1, fa = 0, fm = 0;
        long polls = 0;
        MPI_Request ra;
        MPI_Status st;
        MPI_Irecv(&a, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, &ra);
        while (!fa || !fm) {
            if (!fa) {
                MPI_Request_get_status(ra, &fa, &st);
                if (fa) {
                    MPI_Wait(&ra, MPI_STATUS_IGNORE);
                    printf("a=%d after %ld polls\n", a, polls);
                }
            }
            if (!fm) {
                MPI_Message msg;
                MPI_Improbe(1, 2, MPI_COMM_WORLD, &fm, &msg, &st);
                if (fm) {
                    MPI_Mrecv(&m, 1, MPI_INT, &msg, &st);
                    printf("m=%d from %d after %ld polls\n", m, st.MPI_SOURCE,
                           polls);
                }
            }
            polls++;
        }
        int x[2] = {-1, -1}, all = 0, flag;
        MPI_Request r[2];
        MPI_Status sts[2];
        MPI_Irecv(&x[0], 1, MPI_INT, 1, 3, MPI_COMM_WORLD, &r[0]);
        MPI_Irecv(&x[1], 1, MPI_INT, 1, 4, MPI_COMM_WORLD, &r[1]);
        polls = 0;
        while (!all) {
            MPI_Testall(2, r, &all, sts);
            MPI_Iprobe(1, 5, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
            polls++;
        }
        printf("x=%d,%d polls=%ld\n", x[0], x[1], polls);
    } else if (rank == 1) {
        int v[4] = {10, 20, 30, 40};
        usleep(15000);
        MPI_Send(&v[1], 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
        usleep(15000);
        MPI_Send(&v[0], 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
        usleep(15000);
        MPI_Send(&v[2], 1, MPI_INT, 0, 3, MPI_COMM_WORLD);
        usleep(15000);
        MPI_Send(&v[3], 1, MPI_INT, 0, 4, MPI_COMM_WORLD);
    }
    return poll_end();
}
