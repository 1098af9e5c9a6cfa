/* corpus: class=order expect=bad np=2 */
/* Rank 0 sends with MPI_Isend and never completes the request; rank 1
 * receives the message.  Breaks MPI 4.0 sec. 3.7.3/11.2.2: every nonblocking
 * request must be completed (or freed) before MPI_Finalize.
 * MPICH does not detect it (exits 0). */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, v[3] = {1, 2, 3};
    MPI_Request req;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        MPI_Isend(v, 3, MPI_INT, 1, 0, MPI_COMM_WORLD, &req);
    else if (rank == 1)
        MPI_Recv(v, 3, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
