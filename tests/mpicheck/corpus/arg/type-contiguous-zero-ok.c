/* corpus: class=arg expect=ok np=2 */
/* Rank 0 builds, commits and sends a contiguous type with count 0 (legal: an
 * empty type, sec. 5.1.2); rank 1 receives 0 ints into a NULL buffer
 * (twin of type-contiguous-neg-bad.c). */
#include <mpi.h>
#include <stddef.h>

int main(int argc, char **argv)
{
    int rank;
    MPI_Datatype t;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Type_contiguous(0, MPI_INT, &t);
        MPI_Type_commit(&t);
        MPI_Send(NULL, 1, t, 1, 0, MPI_COMM_WORLD);
        MPI_Type_free(&t);
    } else if (rank == 1) {
        MPI_Recv(NULL, 0, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
