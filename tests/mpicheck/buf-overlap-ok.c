/*
 * buf.overlap, fixed twin of buf-overlap-bad.c: the receives take
 * disjoint parts of one array, the two pending sends share their buffer
 * (allowed: MPI only reads it), and the receive into a[2..5] is posted
 * after the send from a[0..3] completed; the wide receives and the small
 * one between them only touch (big[0..8191], big[8192..8195],
 * big[8196..16387]). 2 ranks.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, a[8] = {0}, b[16], s[8] = {0};
    static int big[16388], s2[8192];
    MPI_Request rq[6];
    MPI_Status st[6];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int peer = 1 - rank;
    MPI_Irecv(b, 8, MPI_INT, peer, 0, MPI_COMM_WORLD, &rq[0]);
    MPI_Irecv(b + 8, 8, MPI_INT, peer, 1, MPI_COMM_WORLD, &rq[1]);
    MPI_Isend(s, 8, MPI_INT, peer, 0, MPI_COMM_WORLD, &rq[2]);
    MPI_Isend(s, 8, MPI_INT, peer, 1, MPI_COMM_WORLD, &rq[3]);
    MPI_Waitall(4, rq, st);
    MPI_Isend(a, 4, MPI_INT, peer, 2, MPI_COMM_WORLD, &rq[0]);
    MPI_Wait(&rq[0], &st[0]);
    MPI_Irecv(a + 2, 4, MPI_INT, peer, 2, MPI_COMM_WORLD, &rq[1]);
    MPI_Wait(&rq[1], &st[1]);
    MPI_Irecv(big, 8192, MPI_INT, peer, 3, MPI_COMM_WORLD, &rq[0]);
    MPI_Irecv(big + 8192, 4, MPI_INT, peer, 4, MPI_COMM_WORLD, &rq[1]);
    MPI_Irecv(big + 8196, 8192, MPI_INT, peer, 5, MPI_COMM_WORLD, &rq[2]);
    MPI_Isend(s2, 8192, MPI_INT, peer, 3, MPI_COMM_WORLD, &rq[3]);
    MPI_Isend(s, 4, MPI_INT, peer, 4, MPI_COMM_WORLD, &rq[4]);
    MPI_Isend(s2, 8192, MPI_INT, peer, 5, MPI_COMM_WORLD, &rq[5]);
    MPI_Waitall(6, rq, st);
    MPI_Finalize();
    return 0;
}
