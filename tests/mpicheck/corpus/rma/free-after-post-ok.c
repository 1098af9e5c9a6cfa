/* corpus: class=rma expect=ok np=3 */
/* Rank 2 exposes its window to rank 0 with post/wait; rank 0 puts in a
 * start/complete epoch; rank 2 frees the window after MPI_Win_wait (twin of
 * free-after-post-bad; rank 1 takes part only in create/free). */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, r0 = 0, r2 = 2, *base, val = 3;
    MPI_Group world, grp;
    MPI_Win win;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 1, rank == 0 ? &r2 : &r0, &grp);
    MPI_Win_allocate(2 * sizeof(int), sizeof(int), MPI_INFO_NULL,
                     MPI_COMM_WORLD, &base, &win);
    if (rank == 0) {
        MPI_Win_start(grp, 0, win);
        MPI_Put(&val, 1, MPI_INT, 2, 0, 1, MPI_INT, win);
        MPI_Win_complete(win);
    } else if (rank == 2) {
        MPI_Win_post(grp, 0, win);
        MPI_Win_wait(win);
    }
    MPI_Win_free(&win);
    MPI_Group_free(&grp);
    MPI_Group_free(&world);
    MPI_Finalize();
    return 0;
}
