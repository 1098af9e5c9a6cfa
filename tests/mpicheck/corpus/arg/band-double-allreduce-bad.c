/* corpus: class=arg expect=bad np=4 */
/* All ranks apply MPI_BAND to MPI_DOUBLE values in MPI_Allreduce.
 * Breaks MPI 4.0 sec. 6.9.2: MPI_BAND is only defined for C integer and
 * byte types, not for floating point.
 * MPICH 4.0.2 aborts: Invalid MPI_Op. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank;
    double in, out;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    in = (double)(rank | 8);
    MPI_Allreduce(&in, &out, 1, MPI_DOUBLE, MPI_BAND, MPI_COMM_WORLD);
    if (out < 8.0)
        printf("rank %d: result %g\n", rank, out);
    MPI_Finalize();
    return 0;
}
