/* corpus: class=arg expect=bad np=4 */
/* Ranks split MPI_COMM_WORLD by parity, but odd ranks pass color -3.
 * Breaks MPI 4.0 sec. 7.4.2: color must be non-negative or MPI_UNDEFINED.
 * MPICH does not detect it (exits 0). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, color, sum;
    MPI_Comm half;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    color = (rank % 2 == 0) ? 0 : -3;
    MPI_Comm_split(MPI_COMM_WORLD, color, rank, &half);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, half);
    if (sum < rank)
        printf("rank %d: sum %d\n", rank, sum);
    MPI_Comm_free(&half);
    MPI_Finalize();
    return 0;
}
