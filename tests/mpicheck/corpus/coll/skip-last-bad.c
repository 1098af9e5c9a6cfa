/* corpus: class=coll expect=bad np=2 hang=1 */
/* Rank 1 never calls the final MPI_Reduce that rank 0 (the root) calls
 * on MPI_COMM_WORLD; every member must call it (MPI 4.0 section 6.14).
 * It is the last collective before MPI_Finalize. Hangs under MPICH 4.0.2
 * (rank 0 waits in MPI_Reduce). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, value, sum = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    value = rank + 1;
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        MPI_Reduce(&value, &sum, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
        printf("sum %d\n", sum);
    }
    MPI_Finalize();
    return 0;
}
