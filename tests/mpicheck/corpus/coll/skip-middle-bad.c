/* corpus: class=coll expect=bad np=3 */
/* Rank 2 skips the second of three collectives (an MPI_Bcast) on
 * MPI_COMM_WORLD; every member must call every collective (MPI 4.0
 * section 6.14). Completes with a wrong sum under MPICH 4.0.2: not detected. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, value = 0, sum = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        value = 7;
    if (rank != 2)
        MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Reduce(&value, &sum, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("sum %d (expected %d)\n", sum, 7 * size);
    MPI_Finalize();
    return 0;
}
