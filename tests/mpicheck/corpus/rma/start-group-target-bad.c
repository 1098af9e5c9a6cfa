/* corpus: class=rma expect=bad np=3 */
/* Rank 0 opens an access epoch with MPI_Win_start on the group {1} but puts
 * to rank 1 and to rank 2; rank 2 is not in the start group (MPI 4.0 sec.
 * 12.5.2: only processes of the start group may be targeted). MPICH 4.0.2:
 * rank 0 aborts in MPI_Put, "Wrong synchronization of RMA calls". */
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
        MPI_Group_incl(world, 1, targets, &grp);
    else
        MPI_Group_incl(world, 1, &r0, &grp);
    MPI_Win_allocate(2 * sizeof(int), sizeof(int), MPI_INFO_NULL,
                     MPI_COMM_WORLD, &base, &win);
    if (rank == 0) {
        MPI_Win_start(grp, 0, win);
        MPI_Put(&val, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
        MPI_Put(&val, 1, MPI_INT, 2, 0, 1, MPI_INT, win);
        MPI_Win_complete(win);
    } else if (rank == 1) {
        MPI_Win_post(grp, 0, win);
        MPI_Win_wait(win);
    }
    MPI_Win_free(&win);
    MPI_Group_free(&grp);
    MPI_Group_free(&world);
    MPI_Finalize();
    return 0;
}
