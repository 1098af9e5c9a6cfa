/* corpus: class=arg expect=ok np=3 */
/* All ranks build a 3x2-int vector type (stride 4) and broadcast with it
 * (correct twin of type-vector-neg-bad.c). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, a[12] = {0};
    MPI_Datatype v;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Type_vector(3, 2, 4, MPI_INT, &v);
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
