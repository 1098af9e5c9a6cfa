/* corpus: class=coll expect=bad np=3 hang=1 */
/* MPI_Gather on MPI_COMM_WORLD where rank 1 passes root 1 and the others
 * root 0: root must be the same at all members (MPI 4.0 section 6.5).
 * Hangs under MPICH 4.0.2. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, root, value, all[3] = {-1, -1, -1};

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    value = 100 * rank;
    root = (rank == 1) ? 1 : 0;
    MPI_Gather(&value, 1, MPI_INT, all, 1, MPI_INT, root, MPI_COMM_WORLD);
    if (rank == root)
        printf("rank %d: %d %d %d\n", rank, all[0], all[1], all[2]);
    MPI_Finalize();
    return 0;
}
