/* corpus: class=coll expect=ok np=2 */
/* Twin of skip-last-bad: both ranks call the final MPI_Reduce; only
 * the root prints the result. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, value, sum = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    value = rank + 1;
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Reduce(&value, &sum, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("sum %d\n", sum);
    MPI_Finalize();
    return 0;
}
