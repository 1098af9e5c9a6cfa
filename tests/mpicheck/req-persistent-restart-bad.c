/* req.active-restart, planted: rank 1 starts a persistent receive and
 * starts it again before completing it (erroneous: MPI_Start on an active
 * request); under MPI_ERRORS_RETURN the run goes on. The fixed twin waits
 * between the starts. 2 ranks. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, v = 0;
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 1) {
        MPI_Recv_init(&v, 1, MPI_INT, 0, 9, MPI_COMM_WORLD, &r);
        MPI_Start(&r);
#ifdef FIXED
        MPI_Wait(&r, MPI_STATUS_IGNORE);
#endif
        int rc = MPI_Start(&r);
        printf("rank 1: second start failed %d\n", rc != MPI_SUCCESS);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        MPI_Request_free(&r);
    } else if (rank == 0) {
        v = 1;
        MPI_Send(&v, 1, MPI_INT, 1, 9, MPI_COMM_WORLD);
#ifdef FIXED
        MPI_Send(&v, 1, MPI_INT, 1, 9, MPI_COMM_WORLD);
#endif
    }
    MPI_Barrier(MPI_COMM_WORLD);
    printf("rank %d: done\n", rank);
    MPI_Finalize();
    return 0;
}
