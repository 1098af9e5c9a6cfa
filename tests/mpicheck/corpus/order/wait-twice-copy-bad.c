/* corpus: class=order expect=bad np=2 */
/* Each rank posts an MPI_Irecv, stores a copy of the request handle, waits on
 * the original (which completes and deallocates it) and then waits on the
 * copy.  Breaks MPI 4.0 sec. 3.7.3: the copied handle refers to a freed request.
 * MPICH 4.0.2 dies with an internal assertion (ref_count). */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, other, in = 0;
    MPI_Request req, saved;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    other = 1 - rank;
    MPI_Irecv(&in, 1, MPI_INT, other, 0, MPI_COMM_WORLD, &req);
    saved = req;
    MPI_Send(&rank, 1, MPI_INT, other, 0, MPI_COMM_WORLD);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Wait(&saved, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
