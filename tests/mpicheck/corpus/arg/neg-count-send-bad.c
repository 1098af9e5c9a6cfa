/* corpus: class=arg expect=bad np=2 */
/* After a correct exchange, the last rank sends with count -1 to rank 0.
 * Breaks MPI 4.0 sec. 3.2.2: count must be a non-negative integer.
 * MPICH 4.0.2 aborts: Invalid count. */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, buf[4] = {1, 2, 3, 4};

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0)
        MPI_Send(buf, 4, MPI_INT, size - 1, 1, MPI_COMM_WORLD);
    else if (rank == size - 1)
        MPI_Recv(buf, 4, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);

    if (rank == size - 1)
        MPI_Send(buf, -1, MPI_INT, 0, 2, MPI_COMM_WORLD);
    else if (rank == 0)
        MPI_Recv(buf, 4, MPI_INT, size - 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
