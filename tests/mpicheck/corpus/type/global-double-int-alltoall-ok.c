/* corpus: class=type expect=ok np=4 */
/* Twin of global-double-int-alltoall-bad: every rank exchanges one double
 * with every other rank with MPI_Alltoall on global double arrays, as
 * MPI_DOUBLE (MPI 4.0 sec. 3.3.1, 6.8). */
#include <mpi.h>
#include <stdio.h>

double sendbuf[4], recvbuf[4];

int main(int argc, char **argv)
{
    int rank, size, i;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (i = 0; i < 4; i++)
        sendbuf[i] = 10.0 * rank + i + 0.25;
    MPI_Alltoall(sendbuf, 1, MPI_DOUBLE, recvbuf, 1, MPI_DOUBLE, MPI_COMM_WORLD);
    for (i = 0; i < size && i < 4; i++)
        if (recvbuf[i] != 10.0 * i + rank + 0.25)
            printf("rank %d: recvbuf[%d] = %g, expected %g\n", rank, i,
                   recvbuf[i], 10.0 * i + rank + 0.25);
    MPI_Finalize();
    return 0;
}
