/* corpus: class=coll expect=ok np=3 */
/* Twin of loop-late-bad: no rank skips any iteration, so every rank
 * calls MPI_Allreduce six times. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, i, local, total = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (i = 0; i < 6; i++) {
        local = rank * i;
        if (i < 0)
            continue; /* nothing to contribute this time */
        MPI_Allreduce(&local, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        if (rank == 0)
            printf("iteration %d: total %d\n", i, total);
    }
    MPI_Finalize();
    return 0;
}
