/* corpus: class=coll expect=bad np=3 hang=1 */
/* MPI_Allreduce where rank 1 passes count 2 and the other ranks count 4:
 * count and datatype must be the same at all members (MPI 4.0 sections
 * 6.9.1 and 6.9.6). Hangs under MPICH 4.0.2. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, count, i, in[4], out[4] = {0, 0, 0, 0};

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (i = 0; i < 4; i++)
        in[i] = rank * 10 + i;
    count = (rank == 1) ? 2 : 4;
    MPI_Allreduce(in, out, count, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    printf("rank %d: %d %d %d %d\n", rank, out[0], out[1], out[2], out[3]);
    MPI_Finalize();
    return 0;
}
