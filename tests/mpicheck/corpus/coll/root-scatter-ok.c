/* corpus: class=coll expect=ok np=3 */
/* Twin of root-scatter-bad: every rank passes root 2 to MPI_Scatter. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, root, value = -1, parts[3];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    parts[0] = 10 + rank;
    parts[1] = 20 + rank;
    parts[2] = 30 + rank;
    root = 2;
    MPI_Scatter(parts, 1, MPI_INT, &value, 1, MPI_INT, root, MPI_COMM_WORLD);
    printf("rank %d: got %d\n", rank, value);
    MPI_Finalize();
    return 0;
}
