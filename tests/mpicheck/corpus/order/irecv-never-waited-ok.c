/* corpus: class=order expect=ok np=3 */
/* Rank 0 posts one MPI_Irecv per other rank and completes them all with
 * MPI_Waitall (twin of irecv-never-waited-bad.c). */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, i, in[4];
    MPI_Request req[4];
    MPI_Status st[4];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0) {
        for (i = 1; i < size; i++)
            MPI_Irecv(&in[i], 1, MPI_INT, i, 0, MPI_COMM_WORLD, &req[i]);
        MPI_Waitall(size - 1, &req[1], st);
    } else {
        MPI_Send(&rank, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
