/* corpus: class=coll expect=bad np=4 */
/* MPI_Alltoall where rank 3 sends and receives 2 MPI_INT per block and
 * the others 1: the amount sent between each pair must equal the amount
 * received (MPI 4.0 section 6.8). MPICH 4.0.2 aborts
 * ("Message truncated"). */
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
    count = (rank == 3) ? 2 : 1;
    MPI_Alltoall(sbuf, count, MPI_INT, rbuf, count, MPI_INT, MPI_COMM_WORLD);
    printf("rank %d: %d %d %d %d\n", rank, rbuf[0], rbuf[1], rbuf[2], rbuf[3]);
    MPI_Finalize();
    return 0;
}
