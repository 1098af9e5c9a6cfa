/* corpus: class=arg expect=ok np=4 */
/* Rank 0 passes color MPI_UNDEFINED to MPI_Comm_split and gets MPI_COMM_NULL,
 * which it does not use or free; the others sum within the new communicator. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, sum;
    MPI_Comm sub;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_split(MPI_COMM_WORLD, rank == 0 ? MPI_UNDEFINED : 1, -rank, &sub);
    if (sub == MPI_COMM_NULL) {
        if (rank != 0)
            printf("rank %d: unexpected MPI_COMM_NULL\n", rank);
    } else {
        MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, sub);
        MPI_Comm_free(&sub);
    }
    MPI_Finalize();
    return 0;
}
