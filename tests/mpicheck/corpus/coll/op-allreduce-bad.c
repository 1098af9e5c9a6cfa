/* corpus: class=coll expect=bad np=4 */
/* MPI_Allreduce where ranks 0-2 pass MPI_MAX and rank 3 passes MPI_SUM:
 * op must be the same at all members (MPI 4.0 section 6.9.6).
 * Completes under MPICH 4.0.2: MPICH does not detect it. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank;
    double in[2], out[2] = {0.0, 0.0};

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    in[0] = rank + 0.5;
    in[1] = 2.0 * rank;
    MPI_Allreduce(in, out, 2, MPI_DOUBLE, (rank == 3) ? MPI_SUM : MPI_MAX, MPI_COMM_WORLD);
    printf("rank %d: %g %g\n", rank, out[0], out[1]);
    MPI_Finalize();
    return 0;
}
