/* corpus: class=rma expect=bad np=2 */
/* Rank 0 gets into buf from rank 1 in a start/complete epoch and, before
 * MPI_Win_complete, receives an MPI_Bcast from rank 1 into the same buf, the
 * origin buffer of the pending get (MPI 4.0 sec. 12.3). MPICH 4.0.2: does
 * not detect it, exits 0. */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, peer, win_buf[2] = {0, 0}, buf[2] = {0, 0};
    MPI_Group world, pg;
    MPI_Win win;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    peer = 1 - rank;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 1, &peer, &pg);
    MPI_Win_create(win_buf, sizeof(win_buf), sizeof(int), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &win);
    if (rank == 0) {
        MPI_Win_start(pg, 0, win);
        MPI_Get(buf, 2, MPI_INT, 1, 0, 2, MPI_INT, win);
        MPI_Bcast(buf, 2, MPI_INT, 1, MPI_COMM_WORLD);
        MPI_Win_complete(win);
    } else {
        MPI_Win_post(pg, 0, win);
        MPI_Bcast(buf, 2, MPI_INT, 1, MPI_COMM_WORLD);
        MPI_Win_wait(win);
    }
    MPI_Win_free(&win);
    MPI_Group_free(&pg);
    MPI_Group_free(&world);
    MPI_Finalize();
    return 0;
}
