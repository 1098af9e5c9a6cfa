/* corpus: class=rma expect=bad np=2 */
/* Dynamic window with one int attached at rank 0; rank 1 does
 * MPI_Compare_and_swap inside lock_all/unlock_all, then another after
 * MPI_Win_unlock_all (MPI 4.0 sec. 12.5, 12.5.3). MPICH 4.0.2: rank 1 aborts
 * in MPI_Compare_and_swap, "Wrong synchronization of RMA calls". */
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
        MPI_Win_unlock_all(win);
        MPI_Compare_and_swap(&cmp, &newv, &old, MPI_INT, 0, addr, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        MPI_Win_detach(win, &x);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
