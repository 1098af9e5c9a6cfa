/* corpus: class=order expect=bad np=3 */
/* An atexit-style cleanup function calls MPI_Finalize although main already
 * finalized.  Breaks MPI 4.0 sec. 11.2.2: MPI_Finalize may be called only once
 * (no MPI call other than the listed queries is allowed after it).
 * MPICH 4.0.2 aborts: MPI routine used after finalizing. */
#include <mpi.h>

static void cleanup(void)
{
    MPI_Finalize();
}

int main(int argc, char **argv)
{
    int rank, size;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Bcast(&size, 1, MPI_INT, size - 1, MPI_COMM_WORLD);
    MPI_Finalize();
    cleanup();
    return 0;
}
