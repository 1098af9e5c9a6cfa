/* corpus: class=order expect=ok np=2 */
/* Ranks gather their ranks to rank 0, which checks them, and every rank
 * calls MPI_Finalize before returning from main
 * (twin of missing-finalize-bad.c). */
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
    MPI_Finalize();
    return 0;
}
