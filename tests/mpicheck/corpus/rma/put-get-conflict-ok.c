/* corpus: class=rma expect=ok np=3 */
/* MPI_Win_allocate window of 4 ints; after a first fence epoch, in the
 * second one rank 1 puts to element 2 of rank 0 while rank 2 gets element 3
 * (twin of put-get-conflict-bad: no location is both written and read). */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, *base, val = 5, got[2];
    MPI_Win win;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL,
                     MPI_COMM_WORLD, &base, &win);
    MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
    if (rank == 2)
        MPI_Get(&got[0], 1, MPI_INT, 0, 2, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    if (rank == 1)
        MPI_Put(&val, 1, MPI_INT, 0, 2, 1, MPI_INT, win);
    else if (rank == 2)
        MPI_Get(&got[1], 1, MPI_INT, 0, 3, 1, MPI_INT, win);
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
