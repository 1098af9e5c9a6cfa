/* corpus: class=arg expect=ok np=4 */
/* Two reductions of a double, one to rank 0 and one to rank 2
 * (correct twin of root-negative-reduce-bad.c). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank;
    double in, out = 0.0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    in = 1.5 * rank;
    MPI_Reduce(&in, &out, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0 && out < 0.0)
        printf("rank 0: sum %g\n", out);
    MPI_Reduce(&in, &out, 1, MPI_DOUBLE, MPI_MAX, 2, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
