/* corpus: class=deadlock expect=ok np=2 */
/* Twin of wait-cycle-bad: each rank sends between its MPI_Irecv and its
 * MPI_Wait (MPI 4.0 section 3.7). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, other, out, in = -1;
    MPI_Request req;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    other = 1 - rank;
    out = 500 + rank;
    MPI_Irecv(&in, 1, MPI_INT, other, 4, MPI_COMM_WORLD, &req);
    MPI_Send(&out, 1, MPI_INT, other, 4, MPI_COMM_WORLD);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    printf("rank %d: got %d\n", rank, in);
    MPI_Finalize();
    return 0;
}
