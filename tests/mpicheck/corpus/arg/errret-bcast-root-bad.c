/* corpus: class=arg expect=bad np=4 */
/* With MPI_ERRORS_RETURN on MPI_COMM_WORLD, after a correct broadcast all
 * ranks broadcast with root -2, ignore the error and meet in a barrier.
 * Breaks MPI 4.0 sec. 6.4: root must be a valid rank of the communicator.
 * MPICH 4.0.2 returns an error code (ignored); exits 0. */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, v[2] = {0, 0};

    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        v[0] = v[1] = 1;
    MPI_Bcast(v, 2, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Bcast(v, 2, MPI_INT, -2, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
