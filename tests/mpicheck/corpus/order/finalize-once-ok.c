/* corpus: class=order expect=ok np=3 */
/* A cleanup function finalizes MPI only if MPI_Finalized reports it has not
 * been finalized yet (MPI_Finalized is legal after finalize; twin of
 * finalize-twice-bad.c). */
#include <mpi.h>

static void cleanup(void)
{
    int done;

    MPI_Finalized(&done);
    if (!done)
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
