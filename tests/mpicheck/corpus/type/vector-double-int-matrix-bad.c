/* corpus: class=type expect=bad np=2 */
/* Rank 0 sends column 0 of a global int matrix m[4][4] to rank 1 with a
 * vector datatype, built with MPI_DOUBLE instead of MPI_INT as its base
 * type.  Breaks MPI 4.0 sec. 5.1.11 and 3.3.1: the type map
 * {(double,0),(double,32),(double,64),(double,96)} does not match the int
 * elements; it also reaches 40 bytes past the end of m.
 * MPICH 4.0.2 does not detect it: completes, rank 1 prints wrong column
 * entries. */
#include <mpi.h>
#include <stdio.h>

int m[4][4];

int main(int argc, char **argv)
{
    int rank, i, j;
    MPI_Datatype col;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Type_vector(4, 1, 4, MPI_DOUBLE, &col);
    MPI_Type_commit(&col);
    if (rank == 0) {
        for (i = 0; i < 4; i++)
            for (j = 0; j < 4; j++)
                m[i][j] = 10 * i + j;
        MPI_Send(&m[0][0], 1, col, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Recv(&m[0][0], 1, col, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (i = 0; i < 4; i++)
            if (m[i][0] != 10 * i)
                printf("rank 1: m[%d][0] = %d, expected %d\n", i, m[i][0], 10 * i);
    }
    MPI_Type_free(&col);
    MPI_Finalize();
    return 0;
}
