/* corpus: class=type expect=ok np=3 */
/* Twin of int-double-bcast-bad: rank 0 broadcasts an array of 4 ints as
 * 4 MPI_INT (MPI 4.0 sec. 3.3.1, 6.4). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, i, v[4] = {0, 0, 0, 0};

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        for (i = 0; i < 4; i++)
            v[i] = 100 + i;
    MPI_Bcast(v, 4, MPI_INT, 0, MPI_COMM_WORLD);
    for (i = 0; i < 4; i++)
        if (v[i] != 100 + i)
            printf("rank %d: v[%d] = %d, expected %d\n", rank, i, v[i], 100 + i);
    MPI_Finalize();
    return 0;
}
