/* corpus: class=coll expect=ok np=2 */
/* Twin of root-bcast-both-bad: the root is computed the same way at each
 * rank (the last rank), so both ranks pass the same root. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, root, value;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    value = 10 + rank;
    root = size - 1;
    MPI_Bcast(&value, 1, MPI_INT, root, MPI_COMM_WORLD);
    printf("rank %d: value %d\n", rank, value);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
