/* corpus: class=rma expect=bad np=3 */
/* In one fence epoch rank 1 calls MPI_Accumulate with MPI_SUM, rank 2 with
 * MPI_MAX on the same int of rank 0: concurrent accumulates to one location
 * must use the same op (MPI 4.0 sec. 12.7.1; accumulate_ops default
 * same_op_no_op, 12.2.1). MPICH 4.0.2: does not detect it, exits 0. */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, buf[2] = {0, 0}, val;
    MPI_Win win;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    val = rank;
    MPI_Win_create(buf, sizeof(buf), sizeof(int), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    if (rank == 1)
        MPI_Accumulate(&val, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, win);
    else if (rank == 2)
        MPI_Accumulate(&val, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_MAX, win);
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
