/* corpus: class=rma expect=ok np=3 */
/* Every rank is target and origin at once in a ring: it posts an exposure
 * epoch for its left neighbour and starts an access epoch to its right
 * neighbour, puts, completes and waits (overlapping exposure and access
 * epochs of one process are legal, MPI 4.0 sec. 12.5.2). */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, left, right, *buf, val;
    MPI_Group world, lg, rg;
    MPI_Win win;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    left = (rank + size - 1) % size;
    right = (rank + 1) % size;
    val = rank;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 1, &left, &lg);
    MPI_Group_incl(world, 1, &right, &rg);
    MPI_Win_allocate(2 * sizeof(int), sizeof(int), MPI_INFO_NULL,
                     MPI_COMM_WORLD, &buf, &win);
    MPI_Win_post(lg, 0, win);
    MPI_Win_start(rg, 0, win);
    MPI_Put(&val, 1, MPI_INT, right, 0, 1, MPI_INT, win);
    MPI_Win_complete(win);
    MPI_Win_wait(win);
    MPI_Win_free(&win);
    MPI_Group_free(&lg);
    MPI_Group_free(&rg);
    MPI_Group_free(&world);
    MPI_Finalize();
    return 0;
}
