/* The twin of p2p-bytes-coincide-bad.c: 4 MPI_INT received as 4 MPI_INT
 * (twice, once as MPI_INT32_T: the same C type in this ABI), 16 MPI_BYTE
 * as 16 MPI_BYTE. p2p.* find nothing.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, ints[4] = {1, 2, 3, 4};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 0) {
        MPI_Send(ints, 4, MPI_INT, 1, 1, MPI_COMM_WORLD);
        MPI_Send(ints, 4, MPI_INT, 1, 2, MPI_COMM_WORLD);
        MPI_Send(ints, 16, MPI_BYTE, 1, 3, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Recv(ints, 4, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(ints, 4, MPI_INT32_T, 0, 2, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        MPI_Recv(ints, 16, MPI_BYTE, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
