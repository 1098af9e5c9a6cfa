/* corpus: class=rma expect=bad np=3 */
/* Rank 2 exposes its window to rank 0 with MPI_Win_post; rank 0 puts in a
 * start/complete epoch; rank 2 then calls MPI_Win_free without MPI_Win_wait
 * (MPI 4.0 sec. 12.2.1 MPI_WIN_FREE, 12.5.2). MPICH 4.0.2: rank 2 aborts in
 * MPI_Win_free, "Wrong synchronization of RMA calls". */
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
    }
    MPI_Win_free(&win);
    MPI_Group_free(&grp);
    MPI_Group_free(&world);
    MPI_Finalize();
    return 0;
}
