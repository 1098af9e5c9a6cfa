/* corpus: class=arg expect=ok np=3 */
/* All ranks multiply an int into root 1 with the predefined MPI_PROD
 * operation; root 1 checks the product is positive
 * (correct twin of op-null-reduce-bad.c). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, in, out = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    in = rank + 1;
    MPI_Reduce(&in, &out, 1, MPI_INT, MPI_PROD, 1, MPI_COMM_WORLD);
    if (rank == 1 && out <= 0)
        printf("rank 1: got %d\n", out);
    MPI_Finalize();
    return 0;
}
