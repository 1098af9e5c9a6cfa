/* corpus: class=coll expect=ok np=3 */
/* Twin of barrier-bcast-bad: every rank, root included, calls
 * MPI_Bcast on MPI_COMM_WORLD. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, value = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        value = 42;
    if (rank == 0)
        MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD);
    else
        MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD);
    printf("rank %d: value %d\n", rank, value);
    MPI_Finalize();
    return 0;
}
