/* corpus: class=arg expect=ok np=3 */
/* All ranks duplicate MPI_COMM_WORLD, broadcast on the duplicate and free it
 * after its last use (correct twin of freed-comm-bcast-bad.c). */
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
    MPI_Bcast(&v, 1, MPI_INT, 0, copy);
    MPI_Comm_free(&dup);
    MPI_Finalize();
    return 0;
}
