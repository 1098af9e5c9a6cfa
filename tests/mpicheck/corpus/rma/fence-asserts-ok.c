/* corpus: class=rma expect=ok np=3 */
/* Fence epochs with correct assertions: MPI_MODE_NOPRECEDE on the first
 * fence, MPI_MODE_NOSTORE | MPI_MODE_NOPUT before an epoch with gets only,
 * MPI_MODE_NOSUCCEED on the last fence (MPI 4.0 sec. 12.5.5). */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, buf[4] = {0, 0, 0, 0}, val, got[4];
    MPI_Win win;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    val = rank;
    MPI_Win_create(buf, sizeof(buf), sizeof(int), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &win);
    MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
    if (rank > 0)
        MPI_Put(&val, 1, MPI_INT, 0, rank, 1, MPI_INT, win);
    MPI_Win_fence(MPI_MODE_NOSTORE | MPI_MODE_NOPUT, win);
    MPI_Get(got, 4, MPI_INT, 0, 0, 4, MPI_INT, win);
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
