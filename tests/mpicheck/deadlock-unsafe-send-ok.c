/* deadlock.unsafe-send, fixed twin: the same exchange with MPI_Sendrecv,
 * which MPI completes with no buffering at all. A blocking MPI_Send
 * answered by a receive posted before it (rank 1 receives first, then
 * replies) is safe too. */
#include <stdio.h>

#include "mpicheck-init.h"

int main(int argc, char **argv)
{
    int out, in = -1;
    int rank = mpicheck_init(&argc, &argv, 2);
    out = rank;
    MPI_Sendrecv(&out, 1, MPI_INT, 1 - rank, 0, &in, 1, MPI_INT, 1 - rank, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (rank == 0) {
        MPI_Send(&out, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
        MPI_Recv(&in, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(&in, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&out, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
    }
    printf("rank %d: got %d\n", rank, in);
    MPI_Finalize();
    return 0;
}
