/* corpus: class=arg expect=bad np=3 */
/* Nonblocking broadcast with MPI_Ibcast; rank 0 passes root = size, the other
 * ranks root 0.  Breaks MPI 4.0 sec. 6.12.2/6.4: root must be a valid rank
 * (and the same value on all processes).
 * MPICH 4.0.2 aborts: Invalid root. */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, buf[8] = {0};
    MPI_Request req;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0)
        buf[0] = 17;
    MPI_Ibcast(buf, 8, MPI_INT, rank == 0 ? size : 0, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
