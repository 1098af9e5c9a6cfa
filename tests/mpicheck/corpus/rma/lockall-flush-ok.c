/* corpus: class=rma expect=ok np=3 */
/* Inside one lock_all epoch each rank puts to its right neighbour,
 * MPI_Win_flush_local and reuses the origin buffer, MPI_Win_flush and then
 * reads back the same element, and finally MPI_Win_flush_all (MPI 4.0 sec.
 * 12.5.4: flushes complete operations inside a passive-target epoch). */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, right, *buf, val, got;
    MPI_Win win;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    right = (rank + 1) % size;
    MPI_Win_allocate(2 * sizeof(int), sizeof(int), MPI_INFO_NULL,
                     MPI_COMM_WORLD, &buf, &win);
    MPI_Win_lock_all(0, win);
    val = rank;
    MPI_Put(&val, 1, MPI_INT, right, 0, 1, MPI_INT, win);
    MPI_Win_flush_local(right, win);
    val = rank + 100;
    MPI_Put(&val, 1, MPI_INT, right, 1, 1, MPI_INT, win);
    MPI_Win_flush(right, win);
    MPI_Get(&got, 1, MPI_INT, right, 0, 1, MPI_INT, win);
    MPI_Win_flush_all(win);
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
