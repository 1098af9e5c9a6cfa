/* corpus: class=deadlock expect=bad np=2 hang=1 */
/* Rank 0 sends on MPI_COMM_WORLD but rank 1 receives on a duplicate of it:
 * messages only match within the same communicator (MPI 4.0 sections
 * 3.2.3, 3.2.4), so the receive never completes. Hangs under MPICH 4.0.2. */
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
        MPI_Send(&value, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else {
        MPI_Recv(&value, 1, MPI_INT, 0, 0, lib, MPI_STATUS_IGNORE);
        printf("rank 1: value %d\n", value);
    }
    MPI_Comm_free(&lib);
    MPI_Finalize();
    return 0;
}
