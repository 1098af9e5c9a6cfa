/* corpus: class=type expect=ok np=4 */
/* Twin of float-double-reduce-bad: every rank sums an array of 4 floats to
 * rank 0 with MPI_Reduce, using 4 MPI_FLOAT (MPI 4.0 sec. 3.3.1, 6.9.1). */
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
    MPI_Reduce(x, sum, 4, MPI_FLOAT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        for (i = 0; i < 4; i++) {
            float want = 1.5f * (size * (size - 1) / 2 + size * i);
            if (sum[i] != want)
                printf("rank 0: sum[%d] = %g, expected %g\n", i, sum[i], want);
        }
    MPI_Finalize();
    return 0;
}
