/* corpus: class=arg expect=ok np=2 */
/* Rank 0 sends two ints; rank 1 receives them with MPI_Irecv + MPI_Wait
 * (correct twin of datatype-null-recv-bad.c). */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, v[2] = {1, 2};
    MPI_Request req;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Send(v, 2, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Irecv(v, 2, MPI_INT, 0, 0, MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
