/* corpus: class=rma expect=ok np=3 */
/* Rank 1 locks rank 0, puts val and unlocks; only then it receives a
 * message from rank 2 into val (twin of put-origin-recv-bad). */
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
        MPI_Win_unlock(0, win);
        MPI_Recv(&val, 1, MPI_INT, 2, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 2) {
        MPI_Send(&msg, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
