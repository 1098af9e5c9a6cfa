/* corpus: class=order expect=bad np=2 */
/* Every rank calls MPI_Comm_rank before MPI_Init, then initializes and sums
 * ranks.  Breaks MPI 4.0 sec. 11.2.1/11.4.1: apart from the few listed
 * functions, no MPI routine may be called before MPI_Init.
 * MPICH 4.0.2 aborts: MPI routine used before initializing. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank = -1, sum;

    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (sum < rank)
        printf("rank %d: sum %d\n", rank, sum);
    MPI_Finalize();
    return 0;
}
