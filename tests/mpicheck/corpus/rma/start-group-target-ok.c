/* corpus: class=rma expect=ok np=3 */
/* Rank 0 opens an access epoch with MPI_Win_start on the group {1, 2} and
 * puts to ranks 1 and 2, which both expose their windows to rank 0 with
 * post/wait (twin of start-group-target-bad). */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, r0 = 0, targets[2] = {1, 2}, *base, val = 5;
    MPI_Group world, grp;
    MPI_Win win;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    if (rank == 0)
        MPI_Group_incl(world, 2, targets, &grp);
    else
        MPI_Group_incl(world, 1, &r0, &grp);
    MPI_Win_allocate(2 * sizeof(int), sizeof(int), MPI_INFO_NULL,
                     MPI_COMM_WORLD, &base, &win);
    if (rank == 0) {
        MPI_Win_start(grp, 0, win);
        MPI_Put(&val, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
        MPI_Put(&val, 1, MPI_INT, 2, 0, 1, MPI_INT, win);
        MPI_Win_complete(win);
    } else {
        MPI_Win_post(grp, 0, win);
        MPI_Win_wait(win);
    }
    MPI_Win_free(&win);
    MPI_Group_free(&grp);
    MPI_Group_free(&world);
    MPI_Finalize();
    return 0;
}
