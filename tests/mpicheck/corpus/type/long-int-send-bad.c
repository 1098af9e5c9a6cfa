/* corpus: class=type expect=bad np=2 */
/* Rank 0 sends an array of 4 longs to rank 1; both sides describe the
 * buffer as 4 MPI_INT.  Breaks MPI 4.0 sec. 3.3.1: the datatype must match
 * the C type of the buffer elements (long <-> MPI_LONG, sec. 3.2.2); only
 * the first 16 bytes (a[0], a[1]) are transferred.
 * MPICH 4.0.2 does not detect it: completes, rank 1 prints that b[2] and
 * b[3] are 0. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, i;
    long a[4] = {10, 20, 30, 40}, b[4] = {0, 0, 0, 0};

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Send(a, 4, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Recv(b, 4, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (i = 0; i < 4; i++)
            if (b[i] != a[i])
                printf("rank 1: b[%d] = %ld, expected %ld\n", i, b[i], a[i]);
    }
    MPI_Finalize();
    return 0;
}
