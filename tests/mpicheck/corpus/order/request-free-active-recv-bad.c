/* corpus: class=order expect=bad np=2 */
/* Rank 1 posts MPI_Irecv, frees the still-active request with MPI_Request_free
 * and reads the buffer.  Breaks MPI 4.0 sec. 3.7.3: an active receive request
 * must not be freed (no way to know when the buffer is filled).
 * MPICH does not detect it (exits 0; prints the unfilled value). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, v = 0;
    MPI_Request req;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        v = 77;
        MPI_Send(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Irecv(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &req);
        MPI_Request_free(&req);
        if (v != 77)
            printf("rank 1: buffer not filled yet (%d)\n", v);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
