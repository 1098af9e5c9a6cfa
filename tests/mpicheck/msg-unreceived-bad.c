/* msg.unreceived, planted: rank 0 sends rank 1 a message (MPI_Isend, then
 * MPI_Request_free) that rank 1 never receives. The fixed twin receives
 * it. 2 ranks. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, v = 11;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Request r;
        MPI_Isend(&v, 1, MPI_INT, 1, 4, MPI_COMM_WORLD, &r);
        MPI_Request_free(&r);
    }
#ifdef FIXED
    if (rank == 1)
        MPI_Recv(&v, 1, MPI_INT, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#endif
    MPI_Barrier(MPI_COMM_WORLD);
    printf("rank %d: done\n", rank);
    MPI_Finalize();
    return 0;
}
