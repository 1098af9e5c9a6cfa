/* corpus: class=rma expect=bad np=3 */
/* Rank 1 locks rank 0 and puts val to it; before MPI_Win_unlock it receives
 * a message from rank 2 into val, the origin buffer of the pending put (MPI
 * 4.0 sec. 12.3: the origin buffer must not be updated until the put
 * completes at the origin). MPICH 4.0.2: does not detect it, exits 0. */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, buf[2] = {0, 0}, val = 1, msg = 7;
    MPI_Win win;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof(buf), sizeof(int), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &win);
    if (rank == 1) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
        MPI_Put(&val, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
        MPI_Recv(&val, 1, MPI_INT, 2, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Win_unlock(0, win);
    } else if (rank == 2) {
        MPI_Send(&msg, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
