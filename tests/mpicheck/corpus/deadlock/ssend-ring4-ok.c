/* corpus: class=deadlock expect=ok np=4 */
/* Twin of ssend-ring4-bad: the receive from the left is posted first with
 * MPI_Irecv, then MPI_Ssend to the right, then MPI_Wait (MPI 4.0 3.7). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, left, right, out, in = -1;
    MPI_Request req;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    left = (rank + size - 1) % size;
    right = (rank + 1) % size;
    out = 1000 + rank;
    MPI_Irecv(&in, 1, MPI_INT, left, 9, MPI_COMM_WORLD, &req);
    MPI_Ssend(&out, 1, MPI_INT, right, 9, MPI_COMM_WORLD);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    printf("rank %d: got %d\n", rank, in);
    MPI_Finalize();
    return 0;
}
