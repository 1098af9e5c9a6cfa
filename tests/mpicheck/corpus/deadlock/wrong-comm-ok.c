/* corpus: class=deadlock expect=ok np=2 */
/* Twin of wrong-comm-bad: the send and the receive both use the duplicate
 * communicator. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, value = 0;
    MPI_Comm lib;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_dup(MPI_COMM_WORLD, &lib);
    if (rank == 0) {
        value = 77;
        MPI_Send(&value, 1, MPI_INT, 1, 0, lib);
    } else {
        MPI_Recv(&value, 1, MPI_INT, 0, 0, lib, MPI_STATUS_IGNORE);
        printf("rank 1: value %d\n", value);
    }
    MPI_Comm_free(&lib);
    MPI_Finalize();
    return 0;
}
