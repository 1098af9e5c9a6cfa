/* corpus: class=rma expect=ok np=2 */
/* Rank 0 calls MPI_Put to rank 1 between two MPI_Win_fence calls, i.e.
 * inside a fence access epoch (twin of put-no-fence-bad). */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, buf[4] = {0, 0, 0, 0}, val[4] = {1, 2, 3, 4};
    MPI_Win win;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof(buf), sizeof(int), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    if (rank == 0)
        MPI_Put(val, 4, MPI_INT, 1, 0, 4, MPI_INT, win);
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
