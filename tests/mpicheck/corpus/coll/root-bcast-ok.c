/* corpus: class=coll expect=ok np=3 */
/* Twin of root-bcast-bad: every rank passes root 0 to MPI_Bcast. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, root, i, buf[4] = {0, 0, 0, 0};

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    root = 0;
    if (rank == root)
        for (i = 0; i < 4; i++)
            buf[i] = 100 + i;
    MPI_Bcast(buf, 4, MPI_INT, root, MPI_COMM_WORLD);
    printf("rank %d: %d %d %d %d\n", rank, buf[0], buf[1], buf[2], buf[3]);
    MPI_Finalize();
    return 0;
}
