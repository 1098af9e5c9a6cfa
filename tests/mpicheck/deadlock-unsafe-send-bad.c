/* deadlock.unsafe-send, planted: the classic exchange, each of two ranks
 * MPI_Send (standard mode) then MPI_Recv. It completes only because MPI
 * buffers the small message (eager protocol); with no buffering (or a
 * message over the eager limit) both wait in MPI_Send forever. Each
 * send is event 3 (after MPI_Init, MPI_Comm_rank, MPI_Comm_size), each
 * receive event 4. */
#include <stdio.h>

#include "mpicheck-init.h"

int main(int argc, char **argv)
{
    int out, in = -1;
    int rank = mpicheck_init(&argc, &argv, 2);
    out = rank;
    MPI_Send(&out, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD);
    MPI_Recv(&in, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("rank %d: got %d\n", rank, in);
    MPI_Finalize();
    return 0;
}
