/*
 * buf.overlap on a request freed while active (MPI_Request_free of an
 * MPI_Isend): the send goes on, so its buffer is in use until the program
 * knows otherwise that it completed. Here a is received into at once,
 * before anything says the send is over: erroneous. Events of each of the
 * 2 ranks: 2 MPI_Isend(a), 3 MPI_Request_free, 4 MPI_Irecv(a) (a written
 * while the send may still read it), 5 MPI_Recv, 6 MPI_Send, 7 MPI_Wait.
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
    MPI_Irecv(a, 4, MPI_INT, peer, 1, MPI_COMM_WORLD, &r2);
    MPI_Recv(b, 4, MPI_INT, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(c, 4, MPI_INT, peer, 1, MPI_COMM_WORLD);
    MPI_Wait(&r2, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
