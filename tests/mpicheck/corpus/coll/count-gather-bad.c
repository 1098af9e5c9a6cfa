/* corpus: class=coll expect=bad np=3 */
/* MPI_Gather where rank 2 sends 1 MPI_INT but the root receives 2 MPI_INT
 * from each rank: sendcount/sendtype must match recvcount/recvtype at
 * the root (MPI 4.0 section 6.5). Completes under MPICH
 * 4.0.2 (one gathered element missing): not detected. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, sendcount, mine[2], all[6] = {0, 0, 0, 0, 0, 0};

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    mine[0] = rank;
    mine[1] = rank + 100;
    sendcount = (rank == 2) ? 1 : 2;
    /* the root expects 2 MPI_INT from every rank */
    MPI_Gather(mine, sendcount, MPI_INT, all, 2, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("%d %d | %d %d | %d %d\n", all[0], all[1], all[2], all[3],
               all[4], all[5]);
    MPI_Finalize();
    return 0;
}
