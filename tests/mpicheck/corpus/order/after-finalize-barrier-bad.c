/* corpus: class=order expect=bad np=2 */
/* All ranks reduce a value, call MPI_Finalize, then call MPI_Barrier.
 * Breaks MPI 4.0 sec. 11.2.2: no MPI communication may be performed after
 * MPI_Finalize.
 * MPICH 4.0.2 aborts: MPI routine used after finalizing. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, max;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Allreduce(&rank, &max, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (max != size - 1)
        printf("rank %d: max %d\n", rank, max);
    MPI_Finalize();
    MPI_Barrier(MPI_COMM_WORLD);
    return 0;
}
