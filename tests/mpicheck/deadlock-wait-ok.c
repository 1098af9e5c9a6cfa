/* deadlock.wait, fixed twin: rank 1 sends to rank 0, which passes it on
 * to rank 2; the run completes. */
#include "mpicheck-init.h"

int main(int argc, char **argv)
{
    int v = 0;
    int rank = mpicheck_init(&argc, &argv, 3);
    if (rank == 0) {
        MPI_Recv(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&v, 1, MPI_INT, 2, 0, MPI_COMM_WORLD);
    } else if (rank == 2) {
        MPI_Recv(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        v = 1;
        MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
