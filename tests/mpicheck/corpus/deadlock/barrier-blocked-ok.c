/* corpus: class=deadlock expect=ok np=3 */
/* Twin of barrier-blocked-bad: rank 2 sends to rank 1 before the
 * MPI_Barrier, so rank 1 reaches the barrier too. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, data = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1)
        MPI_Recv(&data, 1, MPI_INT, 2, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (rank == 2) {
        data = 123;
        MPI_Send(&data, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    printf("rank %d: data %d\n", rank, data);
    MPI_Finalize();
    return 0;
}
