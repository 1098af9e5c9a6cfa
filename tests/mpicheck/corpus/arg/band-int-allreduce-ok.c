/* corpus: class=arg expect=ok np=4 */
/* All ranks apply MPI_BAND to MPI_INT values and MPI_MAX to doubles
 * (correct twin of band-double-allreduce-bad.c). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, iin, iout;
    double in, out;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    iin = rank | 8;
    in = (double)iin;
    MPI_Allreduce(&iin, &iout, 1, MPI_INT, MPI_BAND, MPI_COMM_WORLD);
    MPI_Allreduce(&in, &out, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (iout != 8 || out < 8.0)
        printf("rank %d: results %d %g\n", rank, iout, out);
    MPI_Finalize();
    return 0;
}
