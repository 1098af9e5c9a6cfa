/* corpus: class=type expect=ok np=3 */
/* Twin of short-int-allreduce-bad: every rank takes the element-wise
 * maximum of an array of 4 shorts with MPI_Allreduce, as 4 MPI_SHORT
 * (MPI 4.0 sec. 3.3.1, 6.9.2, 6.9.6). */
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
    MPI_Allreduce(s, r, 4, MPI_SHORT, MPI_MAX, MPI_COMM_WORLD);
    for (i = 0; i < 4; i++)
        if (r[i] != want[i])
            printf("rank %d: r[%d] = %d, expected %d\n", rank, i, r[i], want[i]);
    MPI_Finalize();
    return 0;
}
