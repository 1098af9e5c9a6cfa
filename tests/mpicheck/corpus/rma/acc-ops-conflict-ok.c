/* corpus: class=rma expect=ok np=3 */
/* In one fence epoch ranks 1 and 2 both MPI_Accumulate with MPI_SUM on the
 * same int of rank 0 (twin of acc-ops-conflict-bad: concurrent accumulates
 * with the same op and datatype are allowed, MPI 4.0 sec. 12.7.1). */
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
        MPI_Accumulate(&val, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, win);
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
