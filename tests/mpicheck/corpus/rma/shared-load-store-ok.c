/* corpus: class=rma expect=ok np=3 */
/* MPI_Win_allocate_shared: inside lock_all(MPI_MODE_NOCHECK) each rank
 * stores to its own segment, calls MPI_Win_sync, meets the others in
 * MPI_Barrier, calls MPI_Win_sync again and loads its right neighbour's
 * segment through MPI_Win_shared_query (MPI 4.0 sec. 12.2.3, 12.4, 12.5.4). */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, right, disp, *mine, *theirs;
    volatile int seen;
    MPI_Aint sz;
    MPI_Comm node;
    MPI_Win win;

    MPI_Init(&argc, &argv);
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0,
                        MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &rank);
    MPI_Comm_size(node, &size);
    right = (rank + 1) % size;
    MPI_Win_allocate_shared(sizeof(int), sizeof(int), MPI_INFO_NULL, node,
                            &mine, &win);
    MPI_Win_shared_query(win, right, &sz, &disp, &theirs);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
    *mine = rank;
    MPI_Win_sync(win);
    MPI_Barrier(node);
    MPI_Win_sync(win);
    seen = *theirs;
    (void)seen;
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    MPI_Comm_free(&node);
    MPI_Finalize();
    return 0;
}
