/* p2p.bytes-coincide planted: rank 0 sends 4 MPI_INT three times; rank 1
 * receives them as 2 MPI_DOUBLE, as 16 MPI_CHAR and (the third sent as 16
 * MPI_BYTE) as 4 MPI_INT: the byte counts coincide, the signatures do
 * not. Nothing else is wrong (no p2p.type-mismatch, no p2p.truncate).
 *
 * Events: both 0 MPI_Init, 1 MPI_Comm_rank, 2 MPI_Comm_set_errhandler;
 * rank 0: 3, 4, 5 MPI_Send (tags 1, 2, 3); rank 1: 3, 4, 5 MPI_Recv
 * (tags 1, 2, 3).
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, ints[4] = {1, 2, 3, 4};
    double d[2];
    char c[16];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 0) {
        MPI_Send(ints, 4, MPI_INT, 1, 1, MPI_COMM_WORLD);
        MPI_Send(ints, 4, MPI_INT, 1, 2, MPI_COMM_WORLD);
        MPI_Send(ints, 16, MPI_BYTE, 1, 3, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Recv(d, 2, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(c, 16, MPI_CHAR, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(ints, 4, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
