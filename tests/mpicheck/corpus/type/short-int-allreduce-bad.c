/* corpus: class=type expect=bad np=3 */
/* Every rank takes the element-wise maximum of an array of 4 shorts with
 * MPI_Allreduce, but describes the (short) buffers as 2 MPI_INT.  Breaks
 * MPI 4.0 sec. 3.3.1 and 6.9.6: the datatype must match the C type of the
 * buffers (short <-> MPI_SHORT); pairs of shorts are compared as one int.
 * MPICH 4.0.2 does not detect it: completes, every rank prints wrong
 * maxima for r[0] and r[2]. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, i;
    short s[4], r[4] = {0, 0, 0, 0}, want[4];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    s[0] = rank;        s[1] = 10 - rank;
    s[2] = 2 * rank;    s[3] = 20 - rank;
    want[0] = size - 1; want[1] = 10;
    want[2] = 2 * (size - 1); want[3] = 20;
    MPI_Allreduce(s, r, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    for (i = 0; i < 4; i++)
        if (r[i] != want[i])
            printf("rank %d: r[%d] = %d, expected %d\n", rank, i, r[i], want[i]);
    MPI_Finalize();
    return 0;
}
