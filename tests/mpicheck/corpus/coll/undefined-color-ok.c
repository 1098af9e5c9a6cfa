/* corpus: class=coll expect=ok np=4 */
/* Rank 0 passes MPI_UNDEFINED to MPI_Comm_split, gets MPI_COMM_NULL and
 * takes no part in the collectives on the new communicator; ranks 1-3 do
 * (MPI 4.0 section 7.4.2). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, color, value, max = -1;
    MPI_Comm workers;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    color = (rank == 0) ? MPI_UNDEFINED : 1;
    MPI_Comm_split(MPI_COMM_WORLD, color, rank, &workers);
    if (workers != MPI_COMM_NULL) {
        value = rank * rank;
        MPI_Allreduce(&value, &max, 1, MPI_INT, MPI_MAX, workers);
        MPI_Barrier(workers);
        printf("worker %d: max %d\n", rank, max);
        MPI_Comm_free(&workers);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
