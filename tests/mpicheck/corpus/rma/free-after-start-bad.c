/* corpus: class=rma expect=bad np=2 */
/* Rank 0 opens an access epoch with MPI_Win_start, gets from rank 1, and
 * calls MPI_Win_free without MPI_Win_complete; rank 1 posts and waits (MPI
 * 4.0 sec. 12.2.1 MPI_WIN_FREE, 12.5.2). MPICH 4.0.2: rank 0 aborts in
 * MPI_Win_free, "Wrong synchronization of RMA calls". */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, peer, buf[2] = {0, 0}, got;
    MPI_Group world, pg;
    MPI_Win win;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    peer = 1 - rank;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 1, &peer, &pg);
    MPI_Win_create(buf, sizeof(buf), sizeof(int), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &win);
    if (rank == 0) {
        MPI_Win_start(pg, 0, win);
        MPI_Get(&got, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
    } else {
        MPI_Win_post(pg, 0, win);
        MPI_Win_wait(win);
    }
    MPI_Win_free(&win);
    MPI_Group_free(&pg);
    MPI_Group_free(&world);
    MPI_Finalize();
    return 0;
}
