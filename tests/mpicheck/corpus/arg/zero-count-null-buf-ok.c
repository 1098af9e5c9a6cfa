/* corpus: class=arg expect=ok np=3 */
/* Legal unusual usage: count 0 with a NULL buffer in MPI_Send/MPI_Recv,
 * MPI_Bcast and MPI_Allreduce (no element is accessed; sec. 3.2.2). */
#include <mpi.h>
#include <stddef.h>

int main(int argc, char **argv)
{
    int rank, size;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0)
        MPI_Send(NULL, 0, MPI_INT, size - 1, 3, MPI_COMM_WORLD);
    else if (rank == size - 1)
        MPI_Recv(NULL, 0, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Bcast(NULL, 0, MPI_DOUBLE, 1, MPI_COMM_WORLD);
    MPI_Allreduce(NULL, NULL, 0, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
