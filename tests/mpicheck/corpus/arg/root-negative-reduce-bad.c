/* corpus: class=arg expect=bad np=4 */
/* After a correct MPI_Reduce to rank 0, all ranks reduce again with root -1.
 * Breaks MPI 4.0 sec. 6.9.1: root must be a valid rank in the group of comm.
 * MPICH 4.0.2 aborts: Invalid root. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank;
    double in, out = 0.0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    in = 1.5 * rank;
    MPI_Reduce(&in, &out, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0 && out < 0.0)
        printf("rank 0: sum %g\n", out);
    MPI_Reduce(&in, &out, 1, MPI_DOUBLE, MPI_MAX, -1, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
