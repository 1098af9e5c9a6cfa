/* corpus: class=rma expect=ok np=2 */
/* Dynamic window: rank 0 attaches an array of 4 ints and broadcasts its
 * address; rank 1 locks rank 0 and gets the 4 attached ints (twin of
 * get-out-of-range-dyn-bad). */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, mem[4] = {0, 0, 0, 0}, got[8];
    MPI_Aint addr = 0;
    MPI_Win win;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    if (rank == 0) {
        MPI_Win_attach(win, mem, sizeof(mem));
        MPI_Get_address(mem, &addr);
    }
    MPI_Bcast(&addr, 1, MPI_AINT, 0, MPI_COMM_WORLD);
    if (rank == 1) {
        MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
        MPI_Get(got, 4, MPI_INT, 0, addr, 4, MPI_INT, win);
        MPI_Win_unlock(0, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        MPI_Win_detach(win, mem);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
