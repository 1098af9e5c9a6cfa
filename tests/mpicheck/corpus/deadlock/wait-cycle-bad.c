/* corpus: class=deadlock expect=bad np=2 hang=1 */
/* Each rank posts MPI_Irecv, then MPI_Wait on it, and only then sends: the
 * wait comes before the send that would complete the peer request, so
 * both waits block (MPI 4.0 sections 3.5, 3.7.3). Hangs under MPICH 4.0.2. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, other, out, in = -1;
    MPI_Request req;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    other = 1 - rank;
    out = 500 + rank;
    MPI_Irecv(&in, 1, MPI_INT, other, 4, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Send(&out, 1, MPI_INT, other, 4, MPI_COMM_WORLD);
    printf("rank %d: got %d\n", rank, in);
    MPI_Finalize();
    return 0;
}
