/*
 * buf.overlap on blocking calls, planted: each a blocking call made while
 * a nonblocking operation is pending on the same memory. 2 ranks.
 *
 * Events of each rank: 0 MPI_Init, 1 MPI_Comm_rank,
 * 2 MPI_Isend a[0..3], 3 MPI_Recv into a[0..3] (writes a pending send's
 * buffer), 4 MPI_Wait,
 * 5 MPI_Irecv b[0..3], 6 MPI_Send from b[0..3] (reads a pending
 * receive's buffer), 7 MPI_Wait,
 * 8 MPI_Isend c[0..3], 9 MPI_Allreduce into c[0..1] (a collective's
 * receive buffer), 10 MPI_Recv into e, 11 MPI_Wait,
 * 12 MPI_Irecv f[0..3], 13 MPI_Sendrecv_replace on f[2..3],
 * 14 MPI_Send from g, 15 MPI_Wait, 16 MPI_Finalize.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, a[4] = {0}, b[4] = {0}, c[4] = {0}, d[2] = {1, 2}, e[4];
    int f[4] = {0}, g[4] = {0};
    MPI_Request rq;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int peer = 1 - rank;
    MPI_Isend(a, 4, MPI_INT, peer, 0, MPI_COMM_WORLD, &rq);
    MPI_Recv(a, 4, MPI_INT, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    MPI_Irecv(b, 4, MPI_INT, peer, 1, MPI_COMM_WORLD, &rq);
    MPI_Send(b, 4, MPI_INT, peer, 1, MPI_COMM_WORLD);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    MPI_Isend(c, 4, MPI_INT, peer, 2, MPI_COMM_WORLD, &rq);
    MPI_Allreduce(d, c, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Recv(e, 4, MPI_INT, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    MPI_Irecv(f, 4, MPI_INT, peer, 3, MPI_COMM_WORLD, &rq);
    MPI_Sendrecv_replace(f + 2, 2, MPI_INT, peer, 4, peer, 4, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
    MPI_Send(g, 4, MPI_INT, peer, 3, MPI_COMM_WORLD);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
