/* corpus: class=order expect=bad np=4 */
/* Ranks split MPI_COMM_WORLD into rows of 2 and broadcast within each row; the
 * row communicator is never freed before MPI_Finalize.  Breaks MPI 4.0
 * sec. 7.4.3/11.2.2: user communicators must be freed before finalization.
 * MPICH does not detect it (exits 0). */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, v;
    MPI_Comm row;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_split(MPI_COMM_WORLD, rank / 2, rank, &row);
    v = rank;
    MPI_Bcast(&v, 1, MPI_INT, 0, row);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
