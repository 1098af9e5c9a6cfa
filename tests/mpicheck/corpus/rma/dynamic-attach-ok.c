/* corpus: class=rma expect=ok np=3 */
/* MPI_Win_create_dynamic: each rank attaches a[], the addresses are
 * exchanged, every rank puts to its right neighbour under lock_all; then a[]
 * is detached, b[] attached, and every rank gets from its left neighbour in
 * a fence epoch before detaching b[] (MPI 4.0 sec. 12.2.4). */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, right, left, a[2] = {0, 0}, b[2] = {0, 0}, val, got;
    MPI_Aint addr[4];
    MPI_Win win;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    right = (rank + 1) % size;
    left = (rank + size - 1) % size;
    val = rank;
    MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_attach(win, a, sizeof(a));
    MPI_Get_address(a, &addr[rank]);
    MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, addr, 1, MPI_AINT,
                  MPI_COMM_WORLD);
    MPI_Win_lock_all(0, win);
    MPI_Put(&val, 1, MPI_INT, right, addr[right], 1, MPI_INT, win);
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_detach(win, a);
    MPI_Win_attach(win, b, sizeof(b));
    MPI_Get_address(b, &addr[rank]);
    MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, addr, 1, MPI_AINT,
                  MPI_COMM_WORLD);
    MPI_Win_fence(0, win);
    MPI_Get(&got, 1, MPI_INT, left, addr[left], 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    MPI_Win_detach(win, b);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
