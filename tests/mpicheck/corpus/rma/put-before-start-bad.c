/* corpus: class=rma expect=bad np=2 */
/* Two post-start-complete-wait rounds; in the second round rank 0 calls
 * MPI_Put before MPI_Win_start, outside any access epoch (MPI 4.0 sec. 12.5,
 * 12.5.2). MPICH 4.0.2: rank 0 aborts in MPI_Put, "Wrong synchronization of
 * RMA calls". */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, peer, buf[2] = {0, 0}, val[2] = {1, 2};
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
        MPI_Put(&val[0], 1, MPI_INT, 1, 0, 1, MPI_INT, win);
        MPI_Win_complete(win);
        MPI_Put(&val[1], 1, MPI_INT, 1, 1, 1, MPI_INT, win);
        MPI_Win_start(pg, 0, win);
        MPI_Win_complete(win);
    } else {
        MPI_Win_post(pg, 0, win);
        MPI_Win_wait(win);
        MPI_Win_post(pg, 0, win);
        MPI_Win_wait(win);
    }
    MPI_Win_free(&win);
    MPI_Group_free(&pg);
    MPI_Group_free(&world);
    MPI_Finalize();
    return 0;
}
