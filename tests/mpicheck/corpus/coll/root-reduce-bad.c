/* corpus: class=coll expect=bad np=3 hang=1 */
/* MPI_Reduce on MPI_COMM_WORLD where ranks 0 and 1 pass root 0 and rank 2
 * passes root 2: root must be the same at all members (MPI 4.0 section
 * 6.9.1). Hangs under MPICH 4.0.2. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, root, value, sum = -1;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    value = rank + 1;
    root = (rank == 2) ? 2 : 0;
    MPI_Reduce(&value, &sum, 1, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD);
    if (rank == root)
        printf("rank %d: sum %d\n", rank, sum);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
