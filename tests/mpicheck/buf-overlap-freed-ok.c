/*
 * buf.overlap, fixed twin of buf-overlap-freed-bad.c: the freed send's
 * buffer is received into only after a barrier that each rank enters
 * after receiving its peer's message, so each knows its own send was
 * received (MPI 4.0 3.7.3's use of MPI_Request_free). Events of each of
 * the 2 ranks: 2 MPI_Isend(a), 3 MPI_Request_free, 4 MPI_Recv,
 * 5 MPI_Barrier, 6 MPI_Irecv(a), 7 MPI_Send, 8 MPI_Wait.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, a[4] = {0}, b[4], c[4] = {0};
    MPI_Request r, r2;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int peer = 1 - rank;
    MPI_Isend(a, 4, MPI_INT, peer, 0, MPI_COMM_WORLD, &r);
    MPI_Request_free(&r);
    MPI_Recv(b, 4, MPI_INT, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Irecv(a, 4, MPI_INT, peer, 1, MPI_COMM_WORLD, &r2);
    MPI_Send(c, 4, MPI_INT, peer, 1, MPI_COMM_WORLD);
    MPI_Wait(&r2, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
