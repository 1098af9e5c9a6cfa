/* corpus: class=deadlock expect=bad np=3 hang=1 */
/* Rank 1 waits in MPI_Recv for a message that rank 2 sends only after an
 * MPI_Barrier, which rank 1 therefore never reaches: the barrier and the
 * receive wait for each other (MPI 4.0 sections 3.5, 6.3). Hangs. */
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
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 2)
        MPI_Send(&data, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    printf("rank %d: data %d\n", rank, data);
    MPI_Finalize();
    return 0;
}
