/* deadlock.cycle, fixed twin: rank 0 sends first, rank 1 receives first:
 * the run completes (recorded with the same --timeout, which it never
 * reaches). */
#include <stdio.h>

#include "mpicheck-init.h"

int main(int argc, char **argv)
{
    int out, in = -1;
    int rank = mpicheck_init(&argc, &argv, 2);
    out = rank;
    if (rank == 0) {
        MPI_Send(&out, 1, MPI_INT, 1, 5, MPI_COMM_WORLD);
        MPI_Recv(&in, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(&in, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&out, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
    }
    printf("rank %d: got %d\n", rank, in);
    MPI_Finalize();
    return 0;
}
