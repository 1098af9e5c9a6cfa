/* deadlock.cycle through requests, planted: ranks 0 and 1 each post a
 * receive from the other and one from rank 2, then MPI_Waitall on the
 * first alone: neither ever sends. Rank 2 waits in MPI_Barrier for them.
 * The cycle is 0 -> 1 -> 0 (each waits for its first request's peer, not
 * for rank 2: the Waitall does not wait on the second request); rank 2
 * waits for both but is in no cycle. Recorded with drdb record --timeout. */
#include "mpicheck-init.h"

int main(int argc, char **argv)
{
    int a = 0, b = 0;
    MPI_Request r[2];
    MPI_Status st[2];
    int rank = mpicheck_init(&argc, &argv, 3);
    if (rank < 2) {
        MPI_Irecv(&a, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, &r[0]);
        MPI_Irecv(&b, 1, MPI_INT, 2, 0, MPI_COMM_WORLD, &r[1]);
        MPI_Waitall(1, r, st);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
