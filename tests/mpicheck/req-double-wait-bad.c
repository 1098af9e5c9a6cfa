/* req.double-completion, planted: rank 0 keeps a copy of an MPI_Isend's
 * request and waits on the copy after MPI_Wait completed (and freed) the
 * request: erroneous; under MPI_ERRORS_RETURN MPICH returns an error and
 * the run goes on. The fixed twin waits once. 2 ranks. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, v = 5;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 0) {
        MPI_Request r, copy;
        MPI_Isend(&v, 1, MPI_INT, 1, 3, MPI_COMM_WORLD, &r);
        copy = r;
        MPI_Wait(&r, MPI_STATUS_IGNORE);
#ifndef FIXED
        int rc = MPI_Wait(&copy, MPI_STATUS_IGNORE);
        printf("rank 0: second wait returned %d\n", rc != MPI_SUCCESS);
#else
        (void)copy;
#endif
    } else if (rank == 1) {
        MPI_Recv(&v, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    printf("rank %d: done\n", rank);
    MPI_Finalize();
    return 0;
}
