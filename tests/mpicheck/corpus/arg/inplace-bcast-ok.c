/* corpus: class=arg expect=ok np=3 */
/* All ranks broadcast one int from rank 0 with an ordinary buffer argument
 * (correct twin of inplace-bcast-bad.c). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, v = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        v = 11;
    MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (v != 11)
        printf("rank %d: got %d\n", rank, v);
    MPI_Finalize();
    return 0;
}
