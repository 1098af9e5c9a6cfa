/* corpus: class=coll expect=ok np=3 */
/* Arguments that are "significant only at root" take arbitrary values at
 * the other ranks: NULL recvbuf in MPI_Reduce, NULL sendbuf and count 0 in
 * MPI_Scatter, NULL recvbuf and count 0 in MPI_Gather (MPI 4.0 6.5, 6.6, 6.9.1). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, value, sum = 0, piece = -1, parts[3] = {4, 5, 6}, all[3];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    value = rank + 1;
    if (rank == 0) {
        MPI_Reduce(&value, &sum, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
        MPI_Scatter(parts, 1, MPI_INT, &piece, 1, MPI_INT, 0, MPI_COMM_WORLD);
        MPI_Gather(&piece, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD);
        printf("sum %d gathered %d %d %d\n", sum, all[0], all[1], all[2]);
    } else {
        MPI_Reduce(&value, NULL, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
        MPI_Scatter(NULL, 0, MPI_DOUBLE, &piece, 1, MPI_INT, 0, MPI_COMM_WORLD);
        MPI_Gather(&piece, 1, MPI_INT, NULL, 0, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
