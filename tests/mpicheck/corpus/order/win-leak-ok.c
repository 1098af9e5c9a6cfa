/* corpus: class=order expect=ok np=2 */
/* Each rank allocates an RMA window of 4 ints, opens and closes a fence epoch
 * (no RMA transfers) and frees the window (twin of win-leak-bad.c). */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, i, *base;
    MPI_Win win;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL,
                     MPI_COMM_WORLD, &base, &win);
    MPI_Win_fence(0, win);
    for (i = 0; i < 4; i++)
        base[i] = rank + i;
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
