/* corpus: class=type expect=bad np=4 */
/* Every rank sums an array of 4 floats to rank 0 with MPI_Reduce, but
 * describes the (float) buffers as 2 MPI_DOUBLE.  Breaks MPI 4.0 sec.
 * 3.3.1 and 6.9.1: the datatype must match the C type of the send and
 * receive buffers (float <-> MPI_FLOAT); pairs of floats are added as
 * doubles.
 * MPICH 4.0.2 does not detect it: completes, rank 0 prints wrong sums. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, i;
    float x[4], sum[4] = {0, 0, 0, 0};

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (i = 0; i < 4; i++)
        x[i] = 1.5f * (rank + i);
    MPI_Reduce(x, sum, 2, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        for (i = 0; i < 4; i++) {
            float want = 1.5f * (size * (size - 1) / 2 + size * i);
            if (sum[i] != want)
                printf("rank 0: sum[%d] = %g, expected %g\n", i, sum[i], want);
        }
    MPI_Finalize();
    return 0;
}
