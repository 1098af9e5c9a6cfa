/* corpus: class=order expect=ok np=2 */
/* Each rank posts an MPI_Irecv and calls MPI_Wait twice on the same variable:
 * the first wait sets it to MPI_REQUEST_NULL, so the second is a legal no-op
 * (sec. 3.7.3; twin of wait-twice-copy-bad.c). */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, other, in = 0;
    MPI_Request req;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    other = 1 - rank;
    MPI_Irecv(&in, 1, MPI_INT, other, 0, MPI_COMM_WORLD, &req);
    MPI_Send(&rank, 1, MPI_INT, other, 0, MPI_COMM_WORLD);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
