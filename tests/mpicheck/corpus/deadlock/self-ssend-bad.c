/* corpus: class=deadlock expect=bad np=2 hang=1 */
/* Rank 0 sends a message to itself with the blocking MPI_Ssend before
 * posting the receive: the synchronous send waits for a receive that only
 * the same, blocked, rank could post (MPI 4.0 sections 3.4, 3.5). Hangs. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, out = 8, in = -1;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Ssend(&out, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        MPI_Recv(&in, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("rank 0: got %d from itself\n", in);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
