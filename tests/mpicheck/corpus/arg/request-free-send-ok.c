/* corpus: class=arg expect=ok np=2 */
/* Rank 0 starts an MPI_Isend and frees the active request with
 * MPI_Request_free (legal for sends, MPI 4.0 sec. 3.7.3); completion is known
 * from rank 1's reply, after which x is reused (twin of freed-request-wait-bad.c). */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, x = 1, ack = 0;
    MPI_Request req;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Isend(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &req);
        MPI_Request_free(&req);
        MPI_Recv(&ack, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        x = 2;
    } else if (rank == 1) {
        MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&x, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
