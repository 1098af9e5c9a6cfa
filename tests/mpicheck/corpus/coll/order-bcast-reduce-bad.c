/* corpus: class=coll expect=bad np=2 */
/* Rank 0 calls MPI_Bcast then MPI_Reduce, rank 1 calls MPI_Reduce then
 * MPI_Bcast on the same communicator: collectives must be called in the
 * same order by all members (MPI 4.0 section 6.14). Completes under
 * MPICH 4.0.2 (rank 1 is left with sum 0): MPICH does not detect it. */
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
        MPI_Reduce(&contrib, &sum, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
        MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD);
    }
    printf("rank %d: value %d sum %d\n", rank, value, sum);
    MPI_Finalize();
    return 0;
}
