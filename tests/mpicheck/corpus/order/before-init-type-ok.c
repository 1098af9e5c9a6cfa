/* corpus: class=order expect=ok np=2 */
/* Each rank creates and commits a contiguous datatype right after MPI_Init
 * and broadcasts with it (twin of before-init-type-bad.c). */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, pair[2] = {0, 0};
    MPI_Datatype t;

    MPI_Init(&argc, &argv);
    MPI_Type_contiguous(2, MPI_INT, &t);
    MPI_Type_commit(&t);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        pair[0] = pair[1] = 6;
    MPI_Bcast(pair, 1, t, 0, MPI_COMM_WORLD);
    MPI_Type_free(&t);
    MPI_Finalize();
    return 0;
}
