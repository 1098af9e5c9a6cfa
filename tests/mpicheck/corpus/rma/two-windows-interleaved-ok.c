/* corpus: class=rma expect=ok np=2 */
/* Two windows with overlapping epochs: a fence epoch on window A (create)
 * and, inside it, a lock/unlock epoch of rank 0 on window B (allocate).
 * Epochs of different windows are independent (MPI 4.0 sec. 12.5). */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, abuf[2] = {0, 0}, *bbase, va = 1, vb = 2;
    MPI_Win wa, wb;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(abuf, sizeof(abuf), sizeof(int), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &wa);
    MPI_Win_allocate(2 * sizeof(int), sizeof(int), MPI_INFO_NULL,
                     MPI_COMM_WORLD, &bbase, &wb);
    MPI_Win_fence(0, wa);
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, wb);
        MPI_Put(&vb, 1, MPI_INT, 1, 0, 1, MPI_INT, wb);
        MPI_Put(&va, 1, MPI_INT, 1, 0, 1, MPI_INT, wa);
        MPI_Win_unlock(1, wb);
    } else {
        MPI_Put(&va, 1, MPI_INT, 0, 1, 1, MPI_INT, wa);
    }
    MPI_Win_fence(0, wa);
    MPI_Win_free(&wb);
    MPI_Win_free(&wa);
    MPI_Finalize();
    return 0;
}
