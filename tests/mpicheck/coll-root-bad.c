/* coll.root planted: each rank names itself the root of one MPI_Bcast
 * (each only sends, so the run completes).
 *
 * Events: 0 MPI_Init, 1 MPI_Comm_rank, 2 MPI_Comm_set_errhandler,
 * 3 MPI_Bcast, 4 MPI_Finalize.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, buf[4] = {0};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Bcast(buf, 4, MPI_INT, rank, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
