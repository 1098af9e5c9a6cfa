/* corpus: class=rma expect=bad np=2 */
/* Inside lock_all, rank 0 issues two MPI_Rput to rank 1; it waits for the
 * first request but never for the second one, which is still allocated when
 * the window is freed (MPI 4.0 sec. 12.3.5: the request of MPI_Rput must be
 * completed with a test or wait). MPICH 4.0.2: does not detect it, exits 0. */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, *base, val[2] = {1, 2};
    MPI_Request req[2];
    MPI_Win win;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_allocate(2 * sizeof(int), sizeof(int), MPI_INFO_NULL,
                     MPI_COMM_WORLD, &base, &win);
    if (rank == 0) {
        MPI_Win_lock_all(0, win);
        MPI_Rput(&val[0], 1, MPI_INT, 1, 0, 1, MPI_INT, win, &req[0]);
        MPI_Rput(&val[1], 1, MPI_INT, 1, 1, 1, MPI_INT, win, &req[1]);
        MPI_Wait(&req[0], MPI_STATUS_IGNORE);
        MPI_Win_unlock_all(win);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
