/* corpus: class=deadlock expect=bad np=2 hang=1 */
/* Rank 0 computes a result and goes on to MPI_Finalize without sending
 * it, while rank 1 blocks in MPI_Recv from rank 0: the receive can never
 * complete (MPI 4.0 sections 3.5, 11.2.2). Hangs under
 * MPICH 4.0.2. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, result = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        result = 6 * 7;
        /* the result is never sent to rank 1 */
        printf("rank 0: done, finalizing\n");
    } else {
        MPI_Recv(&result, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("rank 1: result %d\n", result);
    }
    MPI_Finalize();
    return 0;
}
