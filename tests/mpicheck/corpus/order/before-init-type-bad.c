/* corpus: class=order expect=bad np=2 */
/* Each rank creates a contiguous datatype before MPI_Init and uses it after
 * initialization.  Breaks MPI 4.0 sec. 11.2.1/11.4.1: MPI_Type_contiguous and
 * MPI_Type_commit may not be called before MPI_Init.
 * MPICH 4.0.2 aborts: MPI routine used before initializing. */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, pair[2] = {0, 0};
    MPI_Datatype t;

    MPI_Type_contiguous(2, MPI_INT, &t);
    MPI_Init(&argc, &argv);
    MPI_Type_commit(&t);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        pair[0] = pair[1] = 6;
    MPI_Bcast(pair, 1, t, 0, MPI_COMM_WORLD);
    MPI_Type_free(&t);
    MPI_Finalize();
    return 0;
}
