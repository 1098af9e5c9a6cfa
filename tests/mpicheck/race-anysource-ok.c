/* race.any-source, fixed twin: rank 0 still receives with MPI_ANY_SOURCE,
 * but rank 2 sends only once rank 0, having taken rank 1's message, tells
 * it to: its message is caused by that receive and cannot be taken by it.
 * Ranks 1 and 2 also send one message each (tag 9) that rank 0 takes by
 * naming the source: no wildcard, no race. */
#include "mpicheck-init.h"

int main(int argc, char **argv)
{
    int v = 0;
    int rank = mpicheck_init(&argc, &argv, 3);
    if (rank == 0) {
        MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        MPI_Send(&v, 1, MPI_INT, 2, 8, MPI_COMM_WORLD);
        MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        MPI_Recv(&v, 1, MPI_INT, 2, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&v, 1, MPI_INT, 1, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        v = rank;
        if (rank == 2)
            MPI_Recv(&v, 1, MPI_INT, 0, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&v, 1, MPI_INT, 0, 7, MPI_COMM_WORLD);
        MPI_Send(&v, 1, MPI_INT, 0, 9, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
