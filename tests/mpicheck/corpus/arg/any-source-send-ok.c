/* corpus: class=arg expect=ok np=2 */
/* Rank 1 synchronously sends to rank 0, which receives from MPI_ANY_SOURCE
 * (correct twin of any-source-send-bad.c). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank;
    double d = 2.5;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1)
        MPI_Ssend(&d, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
    else if (rank == 0)
        MPI_Recv(&d, 1, MPI_DOUBLE, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (rank == 0 && d != 2.5)
        printf("rank 0: got %g\n", d);
    MPI_Finalize();
    return 0;
}
