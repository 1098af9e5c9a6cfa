/*
 * buf.overlap on blocking calls, fixed twin of buf-overlap-blocking-bad.c:
 * the receive into a[0..3] comes after the MPI_Wait of the send from it;
 * the send from a pending receive's neighbour b[4..7] only touches it;
 * MPI_Sendrecv sends from a pending MPI_Isend's buffer (both only read
 * it: allowed since MPI 3.0); the collective and MPI_Sendrecv_replace
 * use memory next to the pending operations'. 2 ranks.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, a[4] = {0}, b[8] = {0}, c[6] = {0}, d[2] = {1, 2}, e[4];
    int f[6] = {0}, g[4] = {0};
    MPI_Request rq;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int peer = 1 - rank;
    MPI_Isend(a, 4, MPI_INT, peer, 0, MPI_COMM_WORLD, &rq);
    MPI_Sendrecv(a, 4, MPI_INT, peer, 5, e, 4, MPI_INT, peer, 5,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    MPI_Recv(a, 4, MPI_INT, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Irecv(b, 4, MPI_INT, peer, 1, MPI_COMM_WORLD, &rq);
    MPI_Send(b + 4, 4, MPI_INT, peer, 1, MPI_COMM_WORLD);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    MPI_Isend(c, 4, MPI_INT, peer, 2, MPI_COMM_WORLD, &rq);
    MPI_Allreduce(d, c + 4, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Recv(e, 4, MPI_INT, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    MPI_Irecv(f, 4, MPI_INT, peer, 3, MPI_COMM_WORLD, &rq);
    MPI_Sendrecv_replace(f + 4, 2, MPI_INT, peer, 4, peer, 4, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
    MPI_Send(g, 4, MPI_INT, peer, 3, MPI_COMM_WORLD);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
