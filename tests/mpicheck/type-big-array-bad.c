/*
 * type.buffer on an array of more than 127 elements (its DWARF upper
 * bound, 199, in a 1-byte form that libdw reads as signed): int a[200]
 * sent and received as 100 x MPI_DOUBLE. Events of each rank: 0
 * MPI_Init, 1 MPI_Comm_rank, 2 the send or receive, 3 MPI_Finalize.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int a[200] = {0}, rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        MPI_Send(a, 100, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
    else if (rank == 1)
        MPI_Recv(a, 100, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
