/* corpus: class=rma expect=bad np=2 */
/* Two correct fence epochs on an MPI_Win_allocate window, then rank 1 calls
 * MPI_Get after the closing MPI_Win_fence(MPI_MODE_NOSUCCEED): no access
 * epoch is open (MPI 4.0 sec. 12.5, 12.5.5). MPICH 4.0.2: rank 1 aborts in
 * MPI_Get, "Wrong synchronization of RMA calls". */
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
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    if (rank == 1)
        MPI_Get(&got[1], 1, MPI_INT, 0, 1, 1, MPI_INT, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
