/* corpus: class=coll expect=ok np=3 */
/* Twin of count-bcast-bad: every rank passes count 8 to MPI_Bcast. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, count, i, buf[8] = {0};

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        for (i = 0; i < 8; i++)
            buf[i] = i + 1;
    count = 8;
    MPI_Bcast(buf, count, MPI_INT, 0, MPI_COMM_WORLD);
    printf("rank %d: %d .. %d\n", rank, buf[0], buf[count - 1]);
    MPI_Finalize();
    return 0;
}
