/* corpus: class=type expect=bad np=2 */
/* Rank 0 sends 8 ints; rank 1 receives them with count 8 into an array of
 * only 4 ints.  Breaks MPI 4.0 sec. 3.2.4 (and 3.3.1): the receive buffer
 * must hold count elements of the datatype, but int b[4] is received as 8
 * MPI_INT; 16 bytes are written past the end of b.
 * MPICH 4.0.2 does not detect it: completes; the 4 extra ints overwrite
 * the neighbouring local array a[0..3] of rank 1, which then prints
 * mismatches. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, i, a[8];
    int b[4];

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
