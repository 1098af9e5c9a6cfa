/* corpus: class=deadlock expect=bad np=2 hang=1 */
/* Both ranks MPI_Ssend to the other before posting their MPI_Recv: a
 * synchronous send cannot complete before the matching receive has started
 * (MPI 4.0 section 3.4), so both block forever. Hangs under MPICH 4.0.2. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, other, out, in = -1;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    other = 1 - rank;
    out = 7 * (rank + 1);
    if (rank == 0) {
        MPI_Ssend(&out, 1, MPI_INT, other, 3, MPI_COMM_WORLD);
        MPI_Recv(&in, 1, MPI_INT, other, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Ssend(&out, 1, MPI_INT, other, 3, MPI_COMM_WORLD);
        MPI_Recv(&in, 1, MPI_INT, other, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    printf("rank %d: got %d\n", rank, in);
    MPI_Finalize();
    return 0;
}
