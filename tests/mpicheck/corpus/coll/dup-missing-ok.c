/* corpus: class=coll expect=ok np=3 */
/* Twin of dup-missing-bad: every rank calls MPI_Comm_dup before the
 * MPI_Bcast and frees the duplicate at the end. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, value = 0;
    MPI_Comm lib = MPI_COMM_NULL;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank >= 0)
        MPI_Comm_dup(MPI_COMM_WORLD, &lib);
    if (rank == 0)
        value = 5;
    MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD);
    printf("rank %d: value %d\n", rank, value);
    if (lib != MPI_COMM_NULL)
        MPI_Comm_free(&lib);
    MPI_Finalize();
    return 0;
}
