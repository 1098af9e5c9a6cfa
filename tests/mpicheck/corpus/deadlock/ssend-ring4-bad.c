/* corpus: class=deadlock expect=bad np=4 hang=1 */
/* Four ranks shift a value to the right with MPI_Ssend followed by
 * MPI_Recv: every synchronous send waits for a receive that its peer posts
 * only after its own MPI_Ssend (MPI 4.0 sections 3.4, 3.5).
 * Hangs under MPICH 4.0.2. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, left, right, out, in = -1;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    left = (rank + size - 1) % size;
    right = (rank + 1) % size;
    out = 1000 + rank;
    MPI_Ssend(&out, 1, MPI_INT, right, 9, MPI_COMM_WORLD);
    MPI_Recv(&in, 1, MPI_INT, left, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("rank %d: got %d\n", rank, in);
    MPI_Finalize();
    return 0;
}
