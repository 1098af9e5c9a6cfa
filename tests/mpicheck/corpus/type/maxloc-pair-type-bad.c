/* corpus: class=type expect=bad np=3 */
/* Every rank finds the maximum value and the rank holding it with
 * MPI_Allreduce(MPI_MAXLOC) on a struct {double v; int i;}, but passes
 * MPI_2INT as the datatype.  Breaks MPI 4.0 sec. 6.9.4 and 3.3.1: a
 * {double, int} pair must be described by MPI_DOUBLE_INT; MPI_2INT takes
 * the two halves of v as value and index.
 * MPICH 4.0.2 does not detect it: completes, every rank prints a wrong
 * location. */
#include <mpi.h>
#include <stdio.h>

struct dpair {
    double v;
    int i;
};

int main(int argc, char **argv)
{
    int rank, size;
    struct dpair in, out = {0.0, -1};

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    in.v = (rank == 1) ? 9.5 : 0.5 * rank;
    in.i = rank;
    MPI_Allreduce(&in, &out, 1, MPI_2INT, MPI_MAXLOC, MPI_COMM_WORLD);
    if (out.v != 9.5 || out.i != 1)
        printf("rank %d: max %g at rank %d, expected 9.5 at rank 1\n", rank,
               out.v, out.i);
    MPI_Finalize();
    return 0;
}
