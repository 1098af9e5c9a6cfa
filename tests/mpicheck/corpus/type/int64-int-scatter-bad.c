/* corpus: class=type expect=bad np=4 */
/* Rank 0 scatters an array of 8 int64_t, 2 per rank, but both the send
 * and the receive (int64_t) buffers are described as MPI_INT.  Breaks MPI
 * 4.0 sec. 3.3.1 and 6.6: int64_t must be sent as MPI_INT64_T (sec.
 * 3.2.2); each rank gets 8 bytes, i.e. src[rank] into mine[0], and mine[1]
 * is not written.
 * MPICH 4.0.2 does not detect it: completes, ranks print wrong values. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, i;
    int64_t src[8], mine[2] = {-1, -1};

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (i = 0; i < 8; i++)
        src[i] = 1000 + i;
    MPI_Scatter(src, 2, MPI_INT, mine, 2, MPI_INT, 0, MPI_COMM_WORLD);
    for (i = 0; i < 2; i++)
        if (mine[i] != 1000 + 2 * rank + i)
            printf("rank %d: mine[%d] = %lld, expected %d\n", rank, i,
                   (long long)mine[i], 1000 + 2 * rank + i);
    MPI_Finalize();
    return 0;
}
