/* corpus: class=coll expect=bad np=3 */
/* MPI_Reduce where rank 1 passes MPI_MAX and ranks 0 and 2 pass MPI_SUM:
 * op must be the same at all members (MPI 4.0 section 6.9.1).
 * Completes under MPICH 4.0.2: MPICH does not detect it. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, value, result = 0;
    MPI_Op op;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    value = 3 * rank + 1;
    op = (rank == 1) ? MPI_MAX : MPI_SUM;
    MPI_Reduce(&value, &result, 1, MPI_INT, op, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("result %d\n", result);
    MPI_Finalize();
    return 0;
}
