/* coll.operation planted: the first collective on MPI_COMM_WORLD is
 * MPI_Bcast (root 0) at rank 0 and MPI_Scatter (root 1) at rank 1. Each
 * rank thinks it is the root and only sends (eager, small), so the run
 * completes; the second collective, MPI_Barrier, agrees.
 *
 * Events: 0 MPI_Init, 1 MPI_Comm_rank, 2 MPI_Comm_set_errhandler,
 * 3 MPI_Bcast / MPI_Scatter, 4 MPI_Barrier, 5 MPI_Finalize.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, buf[8] = {0};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 0)
        MPI_Bcast(buf, 4, MPI_INT, 0, MPI_COMM_WORLD);
    else
        MPI_Scatter(buf, 2, MPI_INT, buf + 4, 2, MPI_INT, 1, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
