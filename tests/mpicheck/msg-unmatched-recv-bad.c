/* msg.unmatched-receive, planted: rank 1 posts an MPI_Irecv from rank 0
 * that no send ever matches, then frees the request (the run still ends).
 * The fixed twin's rank 0 sends it the message and rank 1 waits. 2 ranks. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, v = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1) {
        MPI_Request r;
        MPI_Irecv(&v, 1, MPI_INT, 0, 6, MPI_COMM_WORLD, &r);
#ifdef FIXED
        MPI_Wait(&r, MPI_STATUS_IGNORE);
#else
        MPI_Request_free(&r);
#endif
    }
#ifdef FIXED
    if (rank == 0)
        MPI_Send(&v, 1, MPI_INT, 1, 6, MPI_COMM_WORLD);
#endif
    MPI_Barrier(MPI_COMM_WORLD);
    printf("rank %d: done\n", rank);
    MPI_Finalize();
    return 0;
}
