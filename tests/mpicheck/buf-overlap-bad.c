/*
 * buf.overlap, planted: two nonblocking receives pending at the same time
 * into overlapping halves of one array (b[0..7] and b[4..11]), and a
 * pending MPI_Isend whose buffer a nonblocking receive writes; then a
 * wide receive (32 KiB) with a small one inside it and another wide one
 * overlapping its end by 768 bytes. 2 ranks.
 *
 * Events of each rank: 0 MPI_Init, 1 MPI_Comm_rank, 2 MPI_Irecv b[0..7],
 * 3 MPI_Irecv b[4..11], 4 MPI_Isend, 5 MPI_Isend, 6 MPI_Waitall,
 * 7 MPI_Isend a[0..3], 8 MPI_Irecv a[2..5], 9 MPI_Waitall,
 * 10 MPI_Irecv big[0..8191], 11 MPI_Irecv big[6000..6003],
 * 12 MPI_Irecv big[8000..16191], 13-15 MPI_Isend, 16 MPI_Waitall,
 * 17 MPI_Finalize.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, a[8] = {0}, b[12], s[8] = {0};
    static int big[16384], s2[8192];
    MPI_Request rq[6];
    MPI_Status st[6];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int peer = 1 - rank;
    MPI_Irecv(b, 8, MPI_INT, peer, 0, MPI_COMM_WORLD, &rq[0]);
    MPI_Irecv(b + 4, 8, MPI_INT, peer, 1, MPI_COMM_WORLD, &rq[1]);
    MPI_Isend(s, 8, MPI_INT, peer, 0, MPI_COMM_WORLD, &rq[2]);
    MPI_Isend(s, 8, MPI_INT, peer, 1, MPI_COMM_WORLD, &rq[3]);
    MPI_Waitall(4, rq, st);
    MPI_Isend(a, 4, MPI_INT, peer, 2, MPI_COMM_WORLD, &rq[0]);
    MPI_Irecv(a + 2, 4, MPI_INT, peer, 2, MPI_COMM_WORLD, &rq[1]);
    MPI_Waitall(2, rq, st);
    MPI_Irecv(big, 8192, MPI_INT, peer, 3, MPI_COMM_WORLD, &rq[0]);
    MPI_Irecv(big + 6000, 4, MPI_INT, peer, 4, MPI_COMM_WORLD, &rq[1]);
    MPI_Irecv(big + 8000, 8192, MPI_INT, peer, 5, MPI_COMM_WORLD, &rq[2]);
    MPI_Isend(s2, 8192, MPI_INT, peer, 3, MPI_COMM_WORLD, &rq[3]);
    MPI_Isend(s, 4, MPI_INT, peer, 4, MPI_COMM_WORLD, &rq[4]);
    MPI_Isend(s2, 8192, MPI_INT, peer, 5, MPI_COMM_WORLD, &rq[5]);
    MPI_Waitall(6, rq, st);
    MPI_Finalize();
    return 0;
}
