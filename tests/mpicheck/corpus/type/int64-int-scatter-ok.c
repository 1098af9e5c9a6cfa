/* corpus: class=type expect=ok np=4 */
/* Twin of int64-int-scatter-bad: rank 0 scatters an array of 8 int64_t, 2
 * per rank, as MPI_INT64_T on both sides (MPI 4.0 sec. 3.2.2, 3.3.1,
 * 6.6). */
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
    MPI_Scatter(src, 2, MPI_INT64_T, mine, 2, MPI_INT64_T, 0, MPI_COMM_WORLD);
    for (i = 0; i < 2; i++)
        if (mine[i] != 1000 + 2 * rank + i)
            printf("rank %d: mine[%d] = %lld, expected %d\n", rank, i,
                   (long long)mine[i], 1000 + 2 * rank + i);
    MPI_Finalize();
    return 0;
}
