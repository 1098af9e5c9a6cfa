/* corpus: class=arg expect=bad np=3 */
/* All ranks duplicate MPI_COMM_WORLD, keep a copy of the handle, free the
 * communicator and then broadcast on the stale copy.  Breaks MPI 4.0 sec. 7.4.3
 * (MPI_Comm_free deallocates the communicator; the handle is no longer valid).
 * MPICH 4.0.2 aborts: Invalid communicator. */
#include <mpi.h>

int main(int argc, char **argv)
{
    MPI_Comm dup, copy;
    int rank, v = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    copy = dup;
    if (rank == 0)
        v = 7;
    MPI_Comm_free(&dup);
    MPI_Bcast(&v, 1, MPI_INT, 0, copy);
    MPI_Finalize();
    return 0;
}
