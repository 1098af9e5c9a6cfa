/* deadlock.cycle through requests, fixed twin: ranks 0 and 1 each send to
 * the other (MPI_Isend) before waiting on both requests. */
#include "mpicheck-init.h"

int main(int argc, char **argv)
{
    int a = 0, b = 0;
    MPI_Request r[2];
    MPI_Status st[2];
    int rank = mpicheck_init(&argc, &argv, 3);
    if (rank < 2) {
        b = rank;
        MPI_Irecv(&a, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, &r[0]);
        MPI_Isend(&b, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, &r[1]);
        MPI_Waitall(2, r, st);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
