/* corpus: class=arg expect=bad np=2 */
/* With MPI_ERRORS_RETURN on MPI_COMM_WORLD, all ranks do MPI_Allreduce with
 * MPI_BAND on doubles and go on without checking.  Breaks MPI 4.0 sec. 6.9.2:
 * MPI_BAND is not defined for floating-point types.
 * MPICH 4.0.2 returns an error code (ignored); exits 0. */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank;
    double in, out = 0.0;

    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    in = rank + 0.5;
    MPI_Allreduce(&in, &out, 1, MPI_DOUBLE, MPI_BAND, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
