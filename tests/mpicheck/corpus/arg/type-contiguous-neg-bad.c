/* corpus: class=arg expect=bad np=2 */
/* Rank 0 builds a contiguous type with count -3.
 * Breaks MPI 4.0 sec. 5.1.2: count of MPI_Type_contiguous must be non-negative.
 * MPICH 4.0.2 aborts: Invalid count. */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank;
    MPI_Datatype t;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Type_contiguous(-3, MPI_INT, &t);
        MPI_Type_commit(&t);
        MPI_Type_free(&t);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
