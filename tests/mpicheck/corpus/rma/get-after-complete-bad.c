/* corpus: class=rma expect=bad np=3 */
/* Ranks 0 and 1 read rank 2 in start/complete epochs (rank 2 posts/waits);
 * rank 1 issues one more MPI_Get after MPI_Win_complete (MPI 4.0 sec. 12.5,
 * 12.5.2). MPICH 4.0.2: rank 1 aborts in MPI_Get, "Wrong synchronization of
 * RMA calls". */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, two = 2, origins[2] = {0, 1}, buf[4] = {0, 0, 0, 0}, got[2];
    MPI_Group world, grp;
    MPI_Win win;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    if (rank == 2)
        MPI_Group_incl(world, 2, origins, &grp);
    else
        MPI_Group_incl(world, 1, &two, &grp);
    MPI_Win_create(buf, sizeof(buf), sizeof(int), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &win);
    if (rank == 2) {
        MPI_Win_post(grp, 0, win);
        MPI_Win_wait(win);
    } else {
        MPI_Win_start(grp, 0, win);
        MPI_Get(&got[0], 1, MPI_INT, 2, rank, 1, MPI_INT, win);
        MPI_Win_complete(win);
        if (rank == 1)
            MPI_Get(&got[1], 1, MPI_INT, 2, 3, 1, MPI_INT, win);
    }
    MPI_Win_free(&win);
    MPI_Group_free(&grp);
    MPI_Group_free(&world);
    MPI_Finalize();
    return 0;
}
