/* corpus: class=rma expect=ok np=3 */
/* Rank 2 exposes its window to ranks 0 and 1 (post/wait); both read it
 * with MPI_Get between start and complete, rank 1 twice (twin of
 * get-after-complete-bad). */
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
        if (rank == 1)
            MPI_Get(&got[1], 1, MPI_INT, 2, 3, 1, MPI_INT, win);
        MPI_Win_complete(win);
    }
    MPI_Win_free(&win);
    MPI_Group_free(&grp);
    MPI_Group_free(&world);
    MPI_Finalize();
    return 0;
}
