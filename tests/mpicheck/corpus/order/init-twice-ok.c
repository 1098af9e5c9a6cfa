/* corpus: class=order expect=ok np=2 */
/* A helper initializes MPI only if MPI_Initialized says it is not yet
 * initialized, so MPI_Init runs once (twin of init-twice-bad.c). */
#include <mpi.h>

static void setup(int *argc, char ***argv)
{
    int flag;

    MPI_Initialized(&flag);
    if (!flag)
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
