/* corpus: class=arg expect=bad np=2 */
/* Rank 1 sends with dest = MPI_ANY_SOURCE; rank 0 receives from MPI_ANY_SOURCE.
 * Breaks MPI 4.0 sec. 3.2.3: MPI_ANY_SOURCE is only valid as a receive source.
 * MPICH 4.0.2 aborts: Invalid rank. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank;
    double d = 2.5;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1)
        MPI_Ssend(&d, 1, MPI_DOUBLE, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD);
    else if (rank == 0)
        MPI_Recv(&d, 1, MPI_DOUBLE, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (rank == 0 && d != 2.5)
        printf("rank 0: got %g\n", d);
    MPI_Finalize();
    return 0;
}
