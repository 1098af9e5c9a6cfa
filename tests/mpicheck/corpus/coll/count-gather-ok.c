/* corpus: class=coll expect=ok np=3 */
/* Twin of count-gather-bad: every rank sends 2 MPI_INT, as the root
 * expects. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, sendcount, mine[2], all[6] = {0, 0, 0, 0, 0, 0};

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    mine[0] = rank;
    mine[1] = rank + 100;
    sendcount = 2;
    /* the root expects 2 MPI_INT from every rank */
    MPI_Gather(mine, sendcount, MPI_INT, all, 2, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("%d %d | %d %d | %d %d\n", all[0], all[1], all[2], all[3],
               all[4], all[5]);
    MPI_Finalize();
    return 0;
}
