/* corpus: class=coll expect=ok np=3 */
/* Twin of count-allreduce-bad: every rank passes count 4. */
#include <mpi.h>
#include <stdio.h>

/* reduction of a vector of 4 ints */

int main(int argc, char **argv)
{
    int rank, count, i, in[4], out[4] = {0, 0, 0, 0};

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (i = 0; i < 4; i++)
        in[i] = rank * 10 + i;
    count = 4;
    MPI_Allreduce(in, out, count, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    printf("rank %d: %d %d %d %d\n", rank, out[0], out[1], out[2], out[3]);
    MPI_Finalize();
    return 0;
}
