/* corpus: class=arg expect=ok np=2 */
/* Persistent send/receive repeated 3 times, freeing the inactive persistent
 * requests at the end (twin of send-init-tag-bad.c). */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, i, v = 0;
    MPI_Request req;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        MPI_Send_init(&v, 1, MPI_INT, 1, 7, MPI_COMM_WORLD, &req);
    else
        MPI_Recv_init(&v, 1, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &req);
    for (i = 0; i < 3; i++) {
        if (rank == 0)
            v = i;
        MPI_Start(&req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
    MPI_Request_free(&req);
    MPI_Finalize();
    return 0;
}
