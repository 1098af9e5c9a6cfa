/* corpus: class=arg expect=ok np=2 */
/* Rank 0 posts MPI_Isend with tag 0; rank 1 receives with MPI_ANY_TAG
 * (correct twin of tag-negative-isend-bad.c). */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, x = 3;
    MPI_Request req;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Isend(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
        MPI_Recv(&x, 1, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
