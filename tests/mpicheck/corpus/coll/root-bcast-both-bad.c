/* corpus: class=coll expect=bad np=2 */
/* Each of the two ranks passes its own rank as root of MPI_Bcast, so
 * both act as root: the root argument must have the same value at all
 * members (MPI 4.0 section 6.4). Completes under MPICH 4.0.2 (leaving an
 * unmatched message behind): MPICH does not detect it. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, root, value;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    value = 10 + rank;
    root = rank;
    MPI_Bcast(&value, 1, MPI_INT, root, MPI_COMM_WORLD);
    printf("rank %d: value %d\n", rank, value);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
