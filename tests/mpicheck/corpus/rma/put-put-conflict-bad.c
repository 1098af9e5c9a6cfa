/* corpus: class=rma expect=bad np=3 */
/* In one fence epoch ranks 1 and 2 both MPI_Put an int to element 0 of rank
 * 0's window: two conflicting accesses to the same target location in one
 * epoch (MPI 4.0 sec. 12.7, "Semantics and Correctness"). MPICH 4.0.2: does
 * not detect it, exits 0. */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, buf[4] = {0, 0, 0, 0}, val;
    MPI_Win win;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    val = 10 + rank;
    MPI_Win_create(buf, sizeof(buf), sizeof(int), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    if (rank == 1)
        MPI_Put(&val, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
    else if (rank == 2)
        MPI_Put(&val, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
