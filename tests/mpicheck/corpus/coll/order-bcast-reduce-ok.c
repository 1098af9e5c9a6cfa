/* corpus: class=coll expect=ok np=2 */
/* Twin of order-bcast-reduce-bad: both ranks call MPI_Bcast then
 * MPI_Reduce (the branches remain, but in the same order). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, value = 0, contrib, sum = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    contrib = 10 * (rank + 1);
    if (rank == 0)
        value = 5;
    if (rank == 0) {
        MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD);
        MPI_Reduce(&contrib, &sum, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    } else {
        MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD);
        MPI_Reduce(&contrib, &sum, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    }
    printf("rank %d: value %d sum %d\n", rank, value, sum);
    MPI_Finalize();
    return 0;
}
