/* corpus: class=order expect=ok np=2 */
/* Rank 0 sends with MPI_Isend and completes it with MPI_Wait; rank 1
 * receives it (twin of isend-never-waited-bad.c). */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, v[3] = {1, 2, 3};
    MPI_Request req;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Isend(v, 3, MPI_INT, 1, 0, MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
        MPI_Recv(v, 3, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
