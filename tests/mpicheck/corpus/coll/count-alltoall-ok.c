/* corpus: class=coll expect=ok np=4 */
/* Twin of count-alltoall-bad: every rank passes 1 MPI_INT per block. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, count, i, sbuf[8], rbuf[8];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (i = 0; i < 8; i++) {
        sbuf[i] = rank * 100 + i;
        rbuf[i] = -1;
    }
    count = 1;
    MPI_Alltoall(sbuf, count, MPI_INT, rbuf, count, MPI_INT, MPI_COMM_WORLD);
    printf("rank %d: %d %d %d %d\n", rank, rbuf[0], rbuf[1], rbuf[2], rbuf[3]);
    MPI_Finalize();
    return 0;
}
