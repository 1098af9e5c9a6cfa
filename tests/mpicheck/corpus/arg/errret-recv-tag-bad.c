/* corpus: class=arg expect=bad np=2 */
/* With MPI_ERRORS_RETURN on MPI_COMM_WORLD, rank 1 first calls MPI_Recv with
 * tag -4 (error ignored), then receives rank 0's message correctly.  Breaks
 * MPI 4.0 sec. 3.2.4: a receive tag must be in [0, MPI_TAG_UB] or MPI_ANY_TAG.
 * MPICH 4.0.2 returns an error code (ignored); exits 0. */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, a = 0, b = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        a = 8;
        MPI_Send(&a, 1, MPI_INT, 1, 4, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Recv(&b, 1, MPI_INT, 0, -4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&a, 1, MPI_INT, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
