/* corpus: class=arg expect=bad np=3 */
/* All ranks broadcast an array with root = size (no such rank).
 * Breaks MPI 4.0 sec. 6.4: root must be a valid rank of the communicator.
 * MPICH 4.0.2 aborts: Invalid root. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, a[3] = {0, 0, 0};

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == size - 1)
        a[0] = a[1] = a[2] = 9;
    MPI_Bcast(a, 3, MPI_INT, size, MPI_COMM_WORLD);
    if (a[0] != 9 || a[2] != 9)
        printf("rank %d: got %d\n", rank, a[0]);
    MPI_Finalize();
    return 0;
}
