/* corpus: class=arg expect=ok np=2 */
/* Rank 1 reads MPI_TAG_UB with MPI_Comm_get_attr and sends with exactly that
 * tag, which is legal (twin of tag-over-ub-bad.c); rank 0 receives with it. */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, flag, tag, x = 1;
    int *ub;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag);
    tag = *ub;
    if (rank == 1)
        MPI_Send(&x, 1, MPI_INT, 0, tag, MPI_COMM_WORLD);
    else if (rank == 0)
        MPI_Recv(&x, 1, MPI_INT, 1, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
