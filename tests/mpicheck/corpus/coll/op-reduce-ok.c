/* corpus: class=coll expect=ok np=3 */
/* Twin of op-reduce-bad: every rank passes MPI_SUM to MPI_Reduce. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, value, result = 0;
    MPI_Op op;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    value = 3 * rank + 1;
    op = MPI_SUM;
    MPI_Reduce(&value, &result, 1, MPI_INT, op, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("result %d\n", result);
    MPI_Finalize();
    return 0;
}
