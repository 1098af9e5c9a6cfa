/* corpus: class=arg expect=bad np=2 */
/* Rank 0 sends two ints; rank 1 posts MPI_Irecv with MPI_DATATYPE_NULL.
 * Breaks MPI 4.0 sec. 3.2.2/3.2.4: datatype must be a valid datatype handle.
 * MPICH 4.0.2 aborts: Invalid datatype. */
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
        MPI_Irecv(v, 2, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
