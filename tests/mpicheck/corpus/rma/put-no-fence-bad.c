/* corpus: class=rma expect=bad np=2 */
/* Rank 0 calls MPI_Put to rank 1 before the first MPI_Win_fence, i.e.
 * outside any access epoch (MPI 4.0 sec. 12.5: RMA calls must occur within
 * an access epoch). MPICH 4.0.2: rank 0 aborts in MPI_Put, "Wrong
 * synchronization of RMA calls". */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, buf[4] = {0, 0, 0, 0}, val[4] = {1, 2, 3, 4};
    MPI_Win win;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof(buf), sizeof(int), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &win);
    if (rank == 0)
        MPI_Put(val, 4, MPI_INT, 1, 0, 4, MPI_INT, win);
    MPI_Win_fence(0, win);
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
