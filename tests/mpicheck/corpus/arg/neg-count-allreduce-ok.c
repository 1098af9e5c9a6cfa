/* corpus: class=arg expect=ok np=4 */
/* All ranks sum two ints with MPI_Allreduce (correct twin of
 * neg-count-allreduce-bad.c). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, in[2], out[2] = {0, 0};

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    in[0] = rank;
    in[1] = 2 * rank;
    MPI_Allreduce(in, out, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (out[1] != 2 * out[0])
        printf("rank %d: %d %d\n", rank, out[0], out[1]);
    MPI_Finalize();
    return 0;
}
