/* corpus: class=order expect=bad np=2 */
/* Ranks gather their ranks to rank 0 and main returns without MPI_Finalize.
 * Breaks MPI 4.0 sec. 11.2.2: every process must call MPI_Finalize before it
 * exits.
 * MPICH/hydra do not detect it (exits 0). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, all[4];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Gather(&rank, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0 && (all[0] != 0 || all[size - 1] != size - 1))
        printf("rank 0: %d %d\n", all[0], all[size - 1]);
    return 0;
}
