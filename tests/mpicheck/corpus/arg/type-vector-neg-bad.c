/* corpus: class=arg expect=bad np=3 */
/* All ranks build a vector type with count -1, commit it and broadcast with it.
 * Breaks MPI 4.0 sec. 5.1.2: count of MPI_Type_vector must be non-negative.
 * MPICH 4.0.2 aborts: Invalid count. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, a[12] = {0};
    MPI_Datatype v;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Type_vector(-1, 2, 4, MPI_INT, &v);
    MPI_Type_commit(&v);
    if (rank == 0)
        a[0] = a[5] = 1;
    MPI_Bcast(a, 1, v, 0, MPI_COMM_WORLD);
    if (a[0] != 1 || a[5] != 1)
        printf("rank %d: got %d %d\n", rank, a[0], a[5]);
    MPI_Type_free(&v);
    MPI_Finalize();
    return 0;
}
