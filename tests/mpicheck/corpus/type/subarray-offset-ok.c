/* corpus: class=type expect=ok np=2 */
/* Legal unusual usage: rank 0 sends the 3x2 block starting at m[1][1] of a
 * double m[4][5] with MPI_Type_vector(3, 2, 5, MPI_DOUBLE) and buffer
 * &m[1][1], and the tail of an int array as &a[3] with count 5 (the
 * elements a[3..7], within the array); rank 1 receives the block into the
 * same place of its matrix and the 5 ints into an int tail[5]
 * (MPI 4.0 sec. 5.1.2, 3.2.2). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, i, j, a[8], tail[5] = {0, 0, 0, 0, 0};
    double m[4][5];
    MPI_Datatype blk;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Type_vector(3, 2, 5, MPI_DOUBLE, &blk);
    MPI_Type_commit(&blk);
    for (i = 0; i < 4; i++)
        for (j = 0; j < 5; j++)
            m[i][j] = rank == 0 ? 10 * i + j : -1;
    for (i = 0; i < 8; i++)
        a[i] = i * i;
    if (rank == 0) {
        MPI_Send(&m[1][1], 1, blk, 1, 0, MPI_COMM_WORLD);
        MPI_Send(&a[3], 5, MPI_INT, 1, 1, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Recv(&m[1][1], 1, blk, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(tail, 5, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (i = 0; i < 4; i++)
            for (j = 0; j < 5; j++)
                if (m[i][j] != (i >= 1 && j >= 1 && j <= 2 ? 10 * i + j : -1))
                    printf("rank 1: m[%d][%d] = %g\n", i, j, m[i][j]);
        if (tail[0] != 9 || tail[4] != 49)
            printf("rank 1: tail = %d .. %d\n", tail[0], tail[4]);
    }
    MPI_Type_free(&blk);
    MPI_Finalize();
    return 0;
}
