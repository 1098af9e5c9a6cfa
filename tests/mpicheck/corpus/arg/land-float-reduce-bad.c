/* corpus: class=arg expect=bad np=2 */
/* After a correct MPI_LAND on ints, rank 0 and 1 reduce floats with MPI_LAND.
 * Breaks MPI 4.0 sec. 6.9.2: MPI_LAND is defined for C integer and logical
 * types only, not for MPI_FLOAT.
 * MPICH 4.0.2 dies with an internal assertion (opland.c). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, flag, all;
    float f, g;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    flag = 1;
    f = 1.0f;
    MPI_Reduce(&flag, &all, 1, MPI_INT, MPI_LAND, 0, MPI_COMM_WORLD);
    MPI_Reduce(&f, &g, 1, MPI_FLOAT, MPI_LAND, 0, MPI_COMM_WORLD);
    if (rank == 0 && (!all || g != 1.0f))
        printf("rank 0: %d %g\n", all, g);
    MPI_Finalize();
    return 0;
}
