/* deadlock.cycle, planted: each of two ranks MPI_Recv from the other
 * first: neither ever sends, the run hangs (recorded with drdb record
 * --timeout). Each is blocked in its MPI_Recv from the other (source
 * 1 - rank, tag 5, MPI_COMM_WORLD): the cycle 0 -> 1 -> 0. */
#include <stdio.h>

#include "mpicheck-init.h"

int main(int argc, char **argv)
{
    int out, in = -1;
    int rank = mpicheck_init(&argc, &argv, 2);
    out = rank;
    MPI_Recv(&in, 1, MPI_INT, 1 - rank, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(&out, 1, MPI_INT, 1 - rank, 5, MPI_COMM_WORLD);
    printf("rank %d: got %d\n", rank, in);
    MPI_Finalize();
    return 0;
}
