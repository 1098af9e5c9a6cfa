/* corpus: class=deadlock expect=ok np=2 */
/* Twin of ssend-cycle-bad: the exchange is ordered, rank 0 sends first and
 * rank 1 receives first, so every MPI_Ssend meets a posted receive. */
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
        MPI_Recv(&in, 1, MPI_INT, other, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Ssend(&out, 1, MPI_INT, other, 3, MPI_COMM_WORLD);
    }
    printf("rank %d: got %d\n", rank, in);
    MPI_Finalize();
    return 0;
}
