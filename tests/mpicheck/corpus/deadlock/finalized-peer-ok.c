/* corpus: class=deadlock expect=ok np=2 */
/* Twin of finalized-peer-bad: rank 0 sends its result to rank 1 before it
 * calls MPI_Finalize. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, result = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        result = 6 * 7;
        MPI_Send(&result, 1, MPI_INT, 1, 5, MPI_COMM_WORLD);
        printf("rank 0: done, finalizing\n");
    } else {
        MPI_Recv(&result, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("rank 1: result %d\n", result);
    }
    MPI_Finalize();
    return 0;
}
