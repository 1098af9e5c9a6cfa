/* corpus: class=arg expect=ok np=2 */
/* MPI_LAND on ints, then MPI_MIN on floats, both to rank 0
 * (correct twin of land-float-reduce-bad.c). */
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
    MPI_Reduce(&f, &g, 1, MPI_FLOAT, MPI_MIN, 0, MPI_COMM_WORLD);
    if (rank == 0 && (!all || g != 1.0f))
        printf("rank 0: %d %g\n", all, g);
    MPI_Finalize();
    return 0;
}
