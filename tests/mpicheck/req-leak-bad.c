/* req.never-completed, planted: rank 0 starts an MPI_Irecv from rank 1
 * that rank 1 answers, but never waits for it nor frees it (the message
 * arrives; the request leaks). The fixed twin waits. 2 ranks. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, v = 0;
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Irecv(&v, 1, MPI_INT, 1, 7, MPI_COMM_WORLD, &r);
#ifdef FIXED
        MPI_Wait(&r, MPI_STATUS_IGNORE);
#endif
    } else if (rank == 1) {
        v = 42;
        MPI_Send(&v, 1, MPI_INT, 0, 7, MPI_COMM_WORLD);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    printf("rank %d: done\n", rank);
    MPI_Finalize();
    return 0;
}
