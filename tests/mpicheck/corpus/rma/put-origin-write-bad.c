/* corpus: class=rma expect=bad np=2 */
/* In a fence epoch rank 0 puts val[] to rank 1 and then overwrites val[0]
 * before the closing fence (MPI 4.0 sec. 12.3: the origin buffer must not be
 * updated until the operation completes at the origin). MPICH 4.0.2: does
 * not detect it, exits 0. */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, *base, val[2] = {1, 2};
    MPI_Win win;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_allocate(2 * sizeof(int), sizeof(int), MPI_INFO_NULL,
                     MPI_COMM_WORLD, &base, &win);
    MPI_Win_fence(0, win);
    if (rank == 0) {
        MPI_Put(val, 2, MPI_INT, 1, 0, 2, MPI_INT, win);
        val[0] = 99;
    }
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
