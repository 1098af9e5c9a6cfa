/* corpus: class=coll expect=bad np=3 */
/* MPI_Scatter on MPI_COMM_WORLD where rank 0 passes root 0 and ranks 1
 * and 2 pass root 2: root must be the same at all members (MPI 4.0
 * section 6.6). Completes (wrong data) under MPICH 4.0.2: not detected. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, root, value = -1, parts[3];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    parts[0] = 10 + rank;
    parts[1] = 20 + rank;
    parts[2] = 30 + rank;
    root = (rank == 0) ? 0 : 2;
    MPI_Scatter(parts, 1, MPI_INT, &value, 1, MPI_INT, root, MPI_COMM_WORLD);
    printf("rank %d: got %d\n", rank, value);
    MPI_Finalize();
    return 0;
}
