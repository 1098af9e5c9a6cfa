/* corpus: class=rma expect=bad np=2 */
/* Rank 0 reads rank 1 inside lock_all/unlock_all (correct); rank 1 calls
 * MPI_Win_unlock_all without having called MPI_Win_lock_all (MPI 4.0 sec.
 * 12.5.3). MPICH 4.0.2: rank 1 aborts in MPI_Win_unlock_all, "Wrong
 * synchronization of RMA calls". */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, buf[2] = {0, 0}, got;
    MPI_Win win;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof(buf), sizeof(int), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &win);
    if (rank == 0) {
        MPI_Win_lock_all(0, win);
        MPI_Get(&got, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
        MPI_Win_unlock_all(win);
    } else {
        MPI_Win_unlock_all(win);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
