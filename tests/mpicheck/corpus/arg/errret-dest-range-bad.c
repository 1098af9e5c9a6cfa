/* corpus: class=arg expect=bad np=3 */
/* With MPI_ERRORS_RETURN on MPI_COMM_WORLD, rank 0 sends to rank "size",
 * ignores the error code and goes on with an MPI_Allreduce.  Breaks MPI 4.0
 * sec. 3.2.3: dest must be a valid rank or MPI_PROC_NULL.
 * MPICH 4.0.2 returns an error code (ignored); exits 0. */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, x = 1, sum;

    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0)
        MPI_Send(&x, 1, MPI_INT, size, 0, MPI_COMM_WORLD);
    MPI_Allreduce(&x, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
