/* corpus: class=arg expect=bad np=2 */
/* Rank 1 reads MPI_TAG_UB with MPI_Comm_get_attr and sends with tag UB+1.
 * Breaks MPI 4.0 sec. 3.2.3 / 9.1.2: tags must not exceed the MPI_TAG_UB value.
 * MPICH 4.0.2 aborts: Invalid tag. */
#include <mpi.h>
#include <limits.h>

int main(int argc, char **argv)
{
    int rank, flag, tag, x = 1;
    int *ub;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag);
    tag = (*ub < INT_MAX) ? *ub + 1 : -1;
    if (rank == 1)
        MPI_Send(&x, 1, MPI_INT, 0, tag, MPI_COMM_WORLD);
    else if (rank == 0)
        MPI_Recv(&x, 1, MPI_INT, 1, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
