/* corpus: class=rma expect=bad np=3 */
/* Rank 1 locks rank 2 and puts to it (correct), then locks rank 2 again but
 * puts to rank 0, which it has not locked (MPI 4.0 sec. 12.5.3: only the
 * window at the locked rank may be accessed in that epoch). MPICH 4.0.2:
 * does not detect it, exits 0. */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, buf[2] = {0, 0}, val[2] = {3, 4};
    MPI_Win win;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof(buf), sizeof(int), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &win);
    if (rank == 1) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 2, 0, win);
        MPI_Put(&val[0], 1, MPI_INT, 2, 0, 1, MPI_INT, win);
        MPI_Win_unlock(2, win);
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 2, 0, win);
        MPI_Put(&val[1], 1, MPI_INT, 0, 1, 1, MPI_INT, win);
        MPI_Win_unlock(2, win);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
