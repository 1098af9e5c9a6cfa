/* corpus: class=arg expect=ok np=4 */
/* Shift along a line with MPI_Sendrecv, using MPI_PROC_NULL as source and
 * dest at the ends (legal; twin of sendrecv-dest-range-bad.c). */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, left, right, out, in = -1;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    left = (rank == 0) ? MPI_PROC_NULL : rank - 1;
    right = (rank == size - 1) ? MPI_PROC_NULL : rank + 1;
    out = rank;
    MPI_Sendrecv(&out, 1, MPI_INT, right, 0, &in, 1, MPI_INT, left, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
