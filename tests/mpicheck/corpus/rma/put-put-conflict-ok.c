/* corpus: class=rma expect=ok np=3 */
/* In one fence epoch ranks 1 and 2 MPI_Put an int each to distinct
 * elements (0 and 1) of rank 0's window (twin of put-put-conflict-bad). */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, buf[4] = {0, 0, 0, 0}, val;
    MPI_Win win;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    val = 10 + rank;
    MPI_Win_create(buf, sizeof(buf), sizeof(int), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    if (rank == 1)
        MPI_Put(&val, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
    else if (rank == 2)
        MPI_Put(&val, 1, MPI_INT, 0, 1, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
