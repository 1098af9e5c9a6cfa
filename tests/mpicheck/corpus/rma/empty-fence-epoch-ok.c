/* corpus: class=rma expect=ok np=2 */
/* Fence epochs without any RMA operation (legal) around one epoch in which
 * rank 1 puts to rank 0, on an MPI_Win_allocate window. */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, *base, val = 3;
    MPI_Win win;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_allocate(2 * sizeof(int), sizeof(int), MPI_INFO_NULL,
                     MPI_COMM_WORLD, &base, &win);
    MPI_Win_fence(0, win);
    MPI_Win_fence(0, win);
    if (rank == 1)
        MPI_Put(&val, 1, MPI_INT, 0, 1, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
