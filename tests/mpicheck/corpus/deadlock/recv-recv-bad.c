/* corpus: class=deadlock expect=bad np=2 hang=1 */
/* Both ranks first MPI_Recv from the other and only then MPI_Send: each
 * receive waits for a send that is never reached, a deadlock whatever the
 * buffering (MPI 4.0 section 3.5). Hangs under MPICH 4.0.2. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, other, out, in = -1;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    other = 1 - rank;
    out = 100 + rank;
    MPI_Recv(&in, 1, MPI_INT, other, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(&out, 1, MPI_INT, other, 0, MPI_COMM_WORLD);
    printf("rank %d: got %d\n", rank, in);
    MPI_Finalize();
    return 0;
}
