/* corpus: class=coll expect=ok np=3 */
/* Twin of root-reduce-bad: every rank passes root 0 to MPI_Reduce. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, root, value, sum = -1;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    value = rank + 1;
    root = 0;
    MPI_Reduce(&value, &sum, 1, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD);
    if (rank == root)
        printf("rank %d: sum %d\n", rank, sum);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
