/* corpus: class=coll expect=ok np=4 */
/* MPI_Gatherv in which every rank sends a different number of elements
 * (rank + 1), matching the root's recvcounts: counts legitimately differ
 * between ranks (MPI 4.0 section 6.5). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, i, mine[4], all[10], counts[4], displs[4];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (i = 0; i <= rank; i++)
        mine[i] = rank;
    for (i = 0; i < size; i++) {
        counts[i] = i + 1;
        displs[i] = i * (i + 1) / 2;
    }
    MPI_Gatherv(mine, rank + 1, MPI_INT, all, counts, displs, MPI_INT, 0,
                MPI_COMM_WORLD);
    if (rank == 0) {
        for (i = 0; i < 10; i++)
            printf("%d ", all[i]);
        printf("\n");
    }
    MPI_Finalize();
    return 0;
}
