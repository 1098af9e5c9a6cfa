/* corpus: class=order expect=bad np=2 */
/* A helper initializes MPI unconditionally although main already did.
 * Breaks MPI 4.0 sec. 11.2.1: MPI_Init may be called at most once
 * (MPI_Initialized should be used to test).
 * MPICH 4.0.2 aborts: Cannot call MPI_INIT more than once. */
#include <mpi.h>

static void setup(int *argc, char ***argv)
{
    MPI_Init(argc, argv);
}

int main(int argc, char **argv)
{
    int rank;

    MPI_Init(&argc, &argv);
    setup(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
