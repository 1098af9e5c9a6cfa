/* corpus: class=arg expect=bad np=2 */
/* Rank 0 sends one int to rank 1 but passes MPI_COMM_NULL as the communicator.
 * Breaks MPI 4.0 sec. 3.2.3/3.2.4: comm must be a valid communicator handle
 * (MPI_COMM_NULL is not valid in point-to-point calls).
 * MPICH 4.0.2 aborts: Invalid communicator. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, x = 42;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_NULL);
    else if (rank == 1)
        MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (rank == 1 && x != 42)
        printf("rank 1: got %d\n", x);
    MPI_Finalize();
    return 0;
}
