/* corpus: class=arg expect=ok np=3 */
/* MPI_Reduce_scatter where every rank but the last gets 2 summed ints and the
 * last gets 0 (count 0 is legal; twin of reduce-scatter-neg-bad.c). */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, i, in[8], out[2], counts[4];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (i = 0; i < 2 * size; i++)
        in[i] = rank + i;
    for (i = 0; i < size; i++)
        counts[i] = 2;
    counts[size - 1] = 0;
    MPI_Reduce_scatter(in, out, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
