/* corpus: class=type expect=ok np=2 */
/* Twin of long-int-send-bad: rank 0 sends an array of 4 longs to rank 1,
 * both sides use MPI_LONG, which matches the C type long (MPI 4.0 sec.
 * 3.2.2, 3.3.1). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, i;
    long a[4] = {10, 20, 30, 40}, b[4] = {0, 0, 0, 0};

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Send(a, 4, MPI_LONG, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Recv(b, 4, MPI_LONG, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (i = 0; i < 4; i++)
            if (b[i] != a[i])
                printf("rank 1: b[%d] = %ld, expected %ld\n", i, b[i], a[i]);
    }
    MPI_Finalize();
    return 0;
}
