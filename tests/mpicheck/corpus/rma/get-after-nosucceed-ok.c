/* corpus: class=rma expect=ok np=2 */
/* Two fence epochs on an MPI_Win_allocate window; rank 1's MPI_Get is
 * issued before the closing MPI_Win_fence(MPI_MODE_NOSUCCEED) (twin of
 * get-after-nosucceed-bad). */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, *base, val = 7, got[2];
    MPI_Win win;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL,
                     MPI_COMM_WORLD, &base, &win);
    MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
    if (rank == 1)
        MPI_Put(&val, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    if (rank == 0)
        MPI_Get(&got[0], 1, MPI_INT, 1, 0, 1, MPI_INT, win);
    if (rank == 1)
        MPI_Get(&got[1], 1, MPI_INT, 0, 1, 1, MPI_INT, win);
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
