/* corpus: class=arg expect=bad np=3 */
/* MPI_Reduce_scatter of 2 ints per rank, but every rank passes recvcounts
 * with -2 for the last rank.  Breaks MPI 4.0 sec. 6.10.2: recvcounts entries
 * are non-negative element counts.
 * MPICH 4.0.2 aborts: Invalid count. */
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
    counts[size - 1] = -2;
    MPI_Reduce_scatter(in, out, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
