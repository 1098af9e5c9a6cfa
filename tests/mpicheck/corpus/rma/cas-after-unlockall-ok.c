/* corpus: class=rma expect=ok np=2 */
/* Dynamic window: rank 0 attaches an int and broadcasts its address; rank 1
 * does two MPI_Compare_and_swap calls inside lock_all/unlock_all (twin of
 * cas-after-unlockall-bad). */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, x = 0, cmp = 0, newv = 1, old;
    MPI_Aint addr = 0;
    MPI_Win win;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    if (rank == 0) {
        MPI_Win_attach(win, &x, sizeof(x));
        MPI_Get_address(&x, &addr);
    }
    MPI_Bcast(&addr, 1, MPI_AINT, 0, MPI_COMM_WORLD);
    if (rank == 1) {
        MPI_Win_lock_all(0, win);
        MPI_Compare_and_swap(&newv, &cmp, &old, MPI_INT, 0, addr, win);
        MPI_Compare_and_swap(&cmp, &newv, &old, MPI_INT, 0, addr, win);
        MPI_Win_unlock_all(win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        MPI_Win_detach(win, &x);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
