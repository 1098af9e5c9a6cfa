/* corpus: class=arg expect=bad np=2 */
/* Every rank splits off a communicator; ranks with color MPI_UNDEFINED get
 * MPI_COMM_NULL and then call MPI_Comm_size on it.  Breaks MPI 4.0 sec. 7.4.1
 * (and 2.5.1): MPI_COMM_NULL is not a valid argument to MPI_Comm_size.
 * MPICH 4.0.2 aborts: Invalid communicator. */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, n = 0;
    MPI_Comm sub;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_split(MPI_COMM_WORLD, rank == 1 ? MPI_UNDEFINED : 0, 0, &sub);
    MPI_Comm_size(sub, &n);
    if (sub != MPI_COMM_NULL)
        MPI_Comm_free(&sub);
    MPI_Finalize();
    return 0;
}
