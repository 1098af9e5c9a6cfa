/* corpus: class=arg expect=bad np=3 */
/* Every rank sends to its right neighbour with MPI_Sendrecv, but the send tag
 * is MPI_ANY_TAG.  Breaks MPI 4.0 sec. 3.2.3/3.5: MPI_ANY_TAG is only allowed
 * as a receive tag.
 * MPICH 4.0.2 aborts: Invalid tag. */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, out, in;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    out = rank;
    MPI_Sendrecv(&out, 1, MPI_INT, (rank + 1) % size, MPI_ANY_TAG,
                 &in, 1, MPI_INT, (rank + size - 1) % size, MPI_ANY_TAG,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
