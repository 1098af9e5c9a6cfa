/* corpus: class=rma expect=ok np=2 */
/* Rank 0 locks rank 1 and issues MPI_Rput, MPI_Rget and MPI_Raccumulate to
 * three distinct elements, completes them with MPI_Wait inside the
 * passive-target epoch, then unlocks (MPI 4.0 sec. 12.3.5). */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, *base, val = 4, got, one = 1;
    MPI_Request req[3];
    MPI_Win win;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_allocate(3 * sizeof(int), sizeof(int), MPI_INFO_NULL,
                     MPI_COMM_WORLD, &base, &win);
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
        MPI_Rput(&val, 1, MPI_INT, 1, 0, 1, MPI_INT, win, &req[0]);
        MPI_Rget(&got, 1, MPI_INT, 1, 1, 1, MPI_INT, win, &req[1]);
        MPI_Raccumulate(&one, 1, MPI_INT, 1, 2, 1, MPI_INT, MPI_SUM, win,
                        &req[2]);
        MPI_Wait(&req[0], MPI_STATUS_IGNORE);
        MPI_Wait(&req[1], MPI_STATUS_IGNORE);
        MPI_Wait(&req[2], MPI_STATUS_IGNORE);
        MPI_Win_unlock(1, win);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
