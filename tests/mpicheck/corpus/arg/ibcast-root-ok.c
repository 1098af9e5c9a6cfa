/* corpus: class=arg expect=ok np=3 */
/* Nonblocking broadcast of 8 ints from rank 0 with MPI_Ibcast + MPI_Wait
 * (correct twin of ibcast-root-bad.c). */
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
    MPI_Ibcast(buf, 8, MPI_INT, 0, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
