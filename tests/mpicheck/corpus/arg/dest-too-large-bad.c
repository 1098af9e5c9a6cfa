/* corpus: class=arg expect=bad np=3 */
/* The last rank sends to rank "size" (one past the last valid rank).
 * Breaks MPI 4.0 sec. 3.2.3: dest must be in [0, size-1] or MPI_PROC_NULL.
 * MPICH 4.0.2 aborts: Invalid rank. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, x = 5;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == size - 1)
        MPI_Send(&x, 1, MPI_INT, size, 0, MPI_COMM_WORLD);
    else if (rank == 0)
        MPI_Recv(&x, 1, MPI_INT, size - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (rank == 0 && x != 5)
        printf("rank 0: got %d\n", x);
    MPI_Finalize();
    return 0;
}
