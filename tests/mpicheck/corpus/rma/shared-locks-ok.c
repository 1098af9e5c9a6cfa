/* corpus: class=rma expect=ok np=4 */
/* Ranks 1, 2 and 3 hold shared locks on rank 0 at the same time; all read
 * element 0 and each writes its own element (concurrent reads of one
 * location and writes to distinct locations are allowed, MPI 4.0 sec.
 * 12.5.3, 12.7). */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, *base, got, val;
    MPI_Win win;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL,
                     MPI_COMM_WORLD, &base, &win);
    val = rank;
    if (rank > 0) {
        MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
        MPI_Get(&got, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
        MPI_Put(&val, 1, MPI_INT, 0, rank, 1, MPI_INT, win);
        MPI_Win_unlock(0, win);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
