/* corpus: class=arg expect=ok np=2 */
/* Rank 0 sends one int to rank 1 on MPI_COMM_WORLD (correct twin of
 * comm-null-send-bad.c). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, x = 42;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    else if (rank == 1)
        MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (rank == 1 && x != 42)
        printf("rank 1: got %d\n", x);
    MPI_Finalize();
    return 0;
}
