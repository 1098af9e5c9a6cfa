/* corpus: class=type expect=ok np=2 */
/* Twin of recv-too-small-bad: rank 0 sends 8 ints; rank 1 receives them
 * with count 8 into an array of 8 ints (MPI 4.0 sec. 3.2.4, 3.3.1). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, i, a[8];
    int b[8];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (i = 0; i < 8; i++)
        a[i] = 7 * i;
    if (rank == 0) {
        MPI_Send(a, 8, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Recv(b, 8, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (i = 0; i < 4; i++)
            if (b[i] != a[i])
                printf("rank 1: b[%d] = %d, expected %d\n", i, b[i], a[i]);
    }
    MPI_Finalize();
    return 0;
}
