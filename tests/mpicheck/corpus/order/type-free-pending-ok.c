/* corpus: class=order expect=ok np=2 */
/* Legal unusual order: rank 1 posts MPI_Irecv with a committed vector type and
 * frees the type before MPI_Wait; pending communication using a freed datatype
 * completes normally (MPI 4.0 sec. 5.1.10). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, i, grid[8] = {0}, src[4] = {1, 2, 3, 4};
    MPI_Datatype even;
    MPI_Request req;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1) {
        MPI_Type_vector(4, 1, 2, MPI_INT, &even);
        MPI_Type_commit(&even);
        MPI_Irecv(grid, 1, even, 0, 0, MPI_COMM_WORLD, &req);
        MPI_Type_free(&even);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        for (i = 0; i < 4; i++)
            if (grid[2 * i] != i + 1)
                printf("rank 1: grid[%d] = %d\n", 2 * i, grid[2 * i]);
    } else if (rank == 0) {
        MPI_Send(src, 4, MPI_INT, 1, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
