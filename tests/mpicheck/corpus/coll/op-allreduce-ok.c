/* corpus: class=coll expect=ok np=4 */
/* Twin of op-allreduce-bad: every rank passes MPI_MAX to MPI_Allreduce. */
#include <mpi.h>
#include <stdio.h>

/* reduction of a vector of 2 doubles */

int main(int argc, char **argv)
{
    int rank;
    double in[2], out[2] = {0.0, 0.0};

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    in[0] = rank + 0.5;
    in[1] = 2.0 * rank;
    MPI_Allreduce(in, out, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    printf("rank %d: %g %g\n", rank, out[0], out[1]);
    MPI_Finalize();
    return 0;
}
