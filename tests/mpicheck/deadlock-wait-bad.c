/* deadlock.wait, planted: rank 1 never answers (it loops outside MPI);
 * rank 0 waits in MPI_Recv for rank 1, rank 2 in MPI_Recv for rank 0: no
 * cycle, but both blocked ranks wait, directly or not, for rank 1, whose
 * last logged call is MPI_Comm_size (event 2). Recorded with drdb record
 * --timeout. */
#include <unistd.h>

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
        for (;;) /* the bug: forgets to send */
            sleep(1);
    }
    MPI_Finalize();
    return 0;
}
