/* corpus: class=arg expect=ok np=3 */
/* All ranks broadcast an array from the last rank (root != 0; correct twin
 * of root-out-of-range-bcast-bad.c). */
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
    MPI_Bcast(a, 3, MPI_INT, size - 1, MPI_COMM_WORLD);
    if (a[0] != 9 || a[2] != 9)
        printf("rank %d: got %d\n", rank, a[0]);
    MPI_Finalize();
    return 0;
}
