/* corpus: class=type expect=ok np=2 */
/* Legal unusual usage: rank 0 sends a union {double d[2]; int i[4];} to
 * rank 1 twice, once through its int member as 4 MPI_INT and once through
 * its double member as 2 MPI_DOUBLE; each time the datatype matches the C
 * type of the member passed as buffer, and rank 1 reads the same member
 * (MPI 4.0 sec. 3.3.1). */
#include <mpi.h>
#include <stdio.h>

union cell {
    double d[2];
    int i[4];
};

int main(int argc, char **argv)
{
    int rank;
    union cell u;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        u.i[0] = 1; u.i[1] = 2; u.i[2] = 3; u.i[3] = 4;
        MPI_Send(u.i, 4, MPI_INT, 1, 0, MPI_COMM_WORLD);
        u.d[0] = 0.5; u.d[1] = -0.5;
        MPI_Send(u.d, 2, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Recv(u.i, 4, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (u.i[0] + u.i[1] + u.i[2] + u.i[3] != 10)
            printf("rank 1: wrong ints\n");
        MPI_Recv(u.d, 2, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (u.d[0] != 0.5 || u.d[1] != -0.5)
            printf("rank 1: wrong doubles\n");
    }
    MPI_Finalize();
    return 0;
}
