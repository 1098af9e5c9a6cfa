/* corpus: class=coll expect=ok np=3 */
/* Twin of skip-middle-bad: every rank calls the Barrier, the Bcast and
 * the Reduce, in the same order. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, value = 0, sum = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        value = 7;
    MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Reduce(&value, &sum, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("sum %d (expected %d)\n", sum, 7 * size);
    MPI_Finalize();
    return 0;
}
