/* corpus: class=arg expect=bad np=2 */
/* Rank 0 starts an MPI_Isend, keeps a copy of the request, frees the request
 * with MPI_Request_free and then waits on the copy.  Breaks MPI 4.0 sec. 3.7.3:
 * after MPI_Request_free the request handle is no longer valid.
 * MPICH does not detect it (exits 0). */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, x = 1;
    MPI_Request req, copy;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Isend(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &req);
        copy = req;
        MPI_Request_free(&req);
        MPI_Wait(&copy, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
        MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
