/* corpus: class=coll expect=ok np=3 */
/* Twin of root-gather-bad: every rank passes root 0 to MPI_Gather. */
#include <mpi.h>
#include <stdio.h>

/* every rank contributes one int to the root */

int main(int argc, char **argv)
{
    int rank, root, value, all[3] = {-1, -1, -1};

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    value = 100 * rank;
    root = 0;
    MPI_Gather(&value, 1, MPI_INT, all, 1, MPI_INT, root, MPI_COMM_WORLD);
    if (rank == root)
        printf("rank %d: %d %d %d\n", rank, all[0], all[1], all[2]);
    MPI_Finalize();
    return 0;
}
