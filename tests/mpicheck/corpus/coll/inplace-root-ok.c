/* corpus: class=coll expect=ok np=3 */
/* MPI_IN_PLACE at the root only: MPI_Reduce with sendbuf = MPI_IN_PLACE at
 * the root, and MPI_Gather with sendbuf = MPI_IN_PLACE at the root (its
 * own block is already in recvbuf). Legal (MPI 4.0 sections 6.5, 6.9.1). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, value, all[3] = {0, 0, 0};

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    value = rank + 1;
    if (rank == 0)
        MPI_Reduce(MPI_IN_PLACE, &value, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    else
        MPI_Reduce(&value, NULL, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("sum %d\n", value);

    value = 10 * rank;
    if (rank == 0) {
        all[0] = value;
        MPI_Gather(MPI_IN_PLACE, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD);
        printf("gathered %d %d %d\n", all[0], all[1], all[2]);
    } else {
        MPI_Gather(&value, 1, MPI_INT, NULL, 0, MPI_INT, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
