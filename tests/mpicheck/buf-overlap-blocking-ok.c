/*
 * buf.overlap on blocking calls, fixed twin of buf-overlap-blocking-bad.c:
 * the receive into a[0..3] comes after the MPI_Wait of the send from it;
 * the send from a pending receive's neighbour b[4..7] only touches it;
 * MPI_Sendrecv sends from a pending MPI_Isend's buffer (both only read
 * it: allowed since MPI 3.0); the collective and MPI_Sendrecv_replace
 * use memory next to the pending operations'. Then what the recorder
 * counts as pending (docs/recording.md) ends: a persistent send at its
 * MPI_Request_free, two requests at their MPI_Waitall. 2 ranks.
 *
 * Events of each rank: 0 MPI_Init, 1 MPI_Comm_rank, then twice (the
 * second round 25 events later): 2 MPI_Isend a, 3 MPI_Sendrecv,
 * 4 MPI_Wait, 5 MPI_Recv into a, 6 MPI_Irecv, 7 MPI_Send, 8 MPI_Wait,
 * 9 MPI_Isend, 10 MPI_Allreduce, 11 MPI_Recv, 12 MPI_Wait, 13 MPI_Irecv,
 * 14 MPI_Sendrecv_replace, 15 MPI_Send, 16 MPI_Wait, 17 MPI_Send_init,
 * 18 MPI_Start, 19 MPI_Recv, 20 MPI_Wait, 21 MPI_Request_free,
 * 22 MPI_Allreduce, 23 MPI_Irecv, 24 MPI_Isend, 25 MPI_Waitall,
 * 26 MPI_Allreduce; 52 MPI_Finalize.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, a[4] = {0}, b[8] = {0}, c[6] = {0}, d[2] = {1, 2}, e[4];
    int f[6] = {0}, g[4] = {0};
    MPI_Request rq;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    /* Twice: a call site's first call logs its buffers anyway (its
     * probe, docs/recording.md): the second round shows the pending
     * count's. */
    for (int round = 0; round < 2; round++) {
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
        MPI_Sendrecv_replace(f + 4, 2, MPI_INT, peer, 4, peer, 4,
                             MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(g, 4, MPI_INT, peer, 3, MPI_COMM_WORLD);
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
        MPI_Send_init(g, 4, MPI_INT, peer, 6, MPI_COMM_WORLD, &rq);
        MPI_Start(&rq);
        MPI_Recv(e, 4, MPI_INT, peer, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
        MPI_Request_free(&rq);
        MPI_Allreduce(d, c + 4, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        MPI_Request r2[2];
        MPI_Status s2[2];
        MPI_Irecv(e, 4, MPI_INT, peer, 7, MPI_COMM_WORLD, &r2[0]);
        MPI_Isend(g, 4, MPI_INT, peer, 7, MPI_COMM_WORLD, &r2[1]);
        MPI_Waitall(2, r2, s2);
        MPI_Allreduce(d, c + 4, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
