/* coll.missing-member planted: of 3 ranks, 0 and 1 call MPI_Bcast (root
 * 0) and rank 2 never does (the root's sends are eager: the call
 * completes at ranks 0 and 1).
 *
 * Events: 0 MPI_Init, 1 MPI_Comm_rank, 2 MPI_Comm_set_errhandler; ranks 0
 * and 1: 3 MPI_Bcast, 4 MPI_Finalize; rank 2: 3 MPI_Finalize.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, buf[4] = {1, 2, 3, 4};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank != 2)
        MPI_Bcast(buf, 4, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
