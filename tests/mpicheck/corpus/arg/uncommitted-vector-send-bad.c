/* corpus: class=arg expect=bad np=2 */
/* Rank 0 sends one column of a 4x4 matrix using an MPI_Type_vector that was
 * never committed.  Breaks MPI 4.0 sec. 5.1.9: a datatype must be committed
 * before it is used in communication.
 * MPICH 4.0.2 aborts: Invalid datatype. */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, i;
    double m[4][4], col[4];
    MPI_Datatype column;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (i = 0; i < 16; i++)
        m[i / 4][i % 4] = i;
    MPI_Type_vector(4, 1, 4, MPI_DOUBLE, &column);
    if (rank == 0)
        MPI_Send(&m[0][1], 1, column, 1, 0, MPI_COMM_WORLD);
    else if (rank == 1)
        MPI_Recv(col, 4, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Type_free(&column);
    MPI_Finalize();
    return 0;
}
