/* corpus: class=order expect=bad np=3 */
/* Rank 0 posts one MPI_Irecv per other rank, waits only for the first
 * request, and finalizes with the others still pending (though matched).
 * Breaks MPI 4.0 sec. 3.7.3/11.2.2: requests must be completed before finalize.
 * MPICH does not detect it (exits 0). */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, i, in[4];
    MPI_Request req[4];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0) {
        for (i = 1; i < size; i++)
            MPI_Irecv(&in[i], 1, MPI_INT, i, 0, MPI_COMM_WORLD, &req[i]);
        MPI_Wait(&req[1], MPI_STATUS_IGNORE);
    } else {
        MPI_Send(&rank, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
