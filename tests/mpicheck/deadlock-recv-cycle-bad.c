/* deadlock.cycle, planted: each of two ranks MPI_Recv from the other
 * first: neither ever sends, the run hangs (recorded with drdb record
 * --timeout). Each is blocked in its MPI_Recv from the other (source
 * 1 - rank, tag 5, MPI_COMM_WORLD): the cycle 0 -> 1 -> 0. */
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
    MPI_Recv(&in, 1, MPI_INT, 1 - rank, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(&out, 1, MPI_INT, 1 - rank, 5, MPI_COMM_WORLD);
    printf("rank %d: got %d\n", rank, in);
    MPI_Finalize();
    return 0;
}
