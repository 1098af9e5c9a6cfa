/* corpus: class=coll expect=bad np=3 hang=1 */
/* Rank 0 calls MPI_Barrier while ranks 1 and 2 call MPI_Bcast on
 * MPI_COMM_WORLD: all members must call the same collective
 * (MPI 4.0 sections 6.1 and 6.14). Hangs under MPICH 4.0.2. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, value = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        value = 42;
    if (rank == 0)
        MPI_Barrier(MPI_COMM_WORLD);
    else
        MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD);
    printf("rank %d: value %d\n", rank, value);
    MPI_Finalize();
    return 0;
}
