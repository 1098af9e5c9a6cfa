/* The twin of coll-operation-bad.c: both ranks call MPI_Bcast (root 0),
 * rank 1 in its large-count form MPI_Bcast_c (the same operation), then
 * MPI_Barrier. coll.* find nothing.
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
        MPI_Bcast_c(buf, 4, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
