/* corpus: class=order expect=ok np=4 */
/* Ranks split MPI_COMM_WORLD into rows of 2, broadcast within each row and
 * free the row communicator (twin of comm-split-leak-bad.c). */
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
    MPI_Comm_free(&row);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
