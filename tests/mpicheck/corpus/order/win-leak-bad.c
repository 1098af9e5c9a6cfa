/* corpus: class=order expect=bad np=2 */
/* Each rank allocates an RMA window of 4 ints with MPI_Win_allocate and opens
 * and closes a fence epoch (no RMA transfers); the window is never freed.
 * Breaks MPI 4.0 sec. 12.2.5/11.2.2: windows must be freed before finalize.
 * MPICH 4.0.2 (UCX) dies with an assertion in MPI_Finalize. */
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
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
