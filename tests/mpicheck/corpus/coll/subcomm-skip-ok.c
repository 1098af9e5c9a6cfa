/* corpus: class=coll expect=ok np=4 */
/* Twin of subcomm-skip-bad: every member of each half calls the
 * MPI_Allreduce on its half. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, subrank, value, sum = 0;
    MPI_Comm half;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    /* {0, 2} and {1, 3} */
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    MPI_Comm_rank(half, &subrank);
    value = rank + 1;
    if (rank >= 0)
        MPI_Allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, half);
    printf("rank %d (sub %d): sum %d\n", rank, subrank, sum);
    MPI_Comm_free(&half);
    MPI_Finalize();
    return 0;
}
