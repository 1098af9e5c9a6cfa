/* corpus: class=coll expect=bad np=3 */
/* Rank 2 (not the root) never calls the last MPI_Bcast on MPI_COMM_WORLD
 * before MPI_Finalize; every member must call it (MPI 4.0 section 6.14).
 * Completes under MPICH 4.0.2 (the root's message is never received): not
 * detected. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, value = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        value = 99;
    if (rank != 2)
        MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD);
    printf("rank %d: value %d\n", rank, value);
    MPI_Finalize();
    return 0;
}
