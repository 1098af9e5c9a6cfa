/* deadlock.unsafe-send, fixed twin: the same exchange with MPI_Sendrecv,
 * which MPI completes with no buffering at all. A blocking MPI_Send
 * answered by a receive posted before it (rank 1 receives first, then
 * replies) is safe too. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, out, in = -1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "run with 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    out = rank;
    MPI_Sendrecv(&out, 1, MPI_INT, 1 - rank, 0, &in, 1, MPI_INT, 1 - rank, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (rank == 0) {
        MPI_Send(&out, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
        MPI_Recv(&in, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(&in, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&out, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
    }
    printf("rank %d: got %d\n", rank, in);
    MPI_Finalize();
    return 0;
}
