/*
 * buf.overlap with a strided datatype, fixed twin of
 * buf-overlap-strided-bad.c: each of 2 ranks posts the receive
 * of its left ghost column (column 0 of an 8 x 8 array of doubles, an
 * MPI_Type_vector) and, while it is pending, sends column 1: the two
 * columns interleave, their spans overlap, no byte is shared. Events of each
 * rank: 0 MPI_Init, 1 MPI_Comm_rank, 2 MPI_Type_vector, 3 MPI_Type_commit,
 * 4 MPI_Irecv, 5 MPI_Isend, 6 MPI_Waitall, 7 MPI_Type_free,
 * 8 MPI_Finalize.
 */
#include <mpi.h>

#define N 8

int main(int argc, char **argv)
{
    static double u[N][N];
    int rank;
    MPI_Datatype column;
    MPI_Request rq[2];
    MPI_Status st[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Type_vector(N, 1, N, MPI_DOUBLE, &column);
    MPI_Type_commit(&column);
    int peer = 1 - rank;
    MPI_Irecv(&u[0][0], 1, column, peer, 0, MPI_COMM_WORLD, &rq[0]);
    MPI_Isend(&u[0][1], 1, column, peer, 0, MPI_COMM_WORLD, &rq[1]);
    MPI_Waitall(2, rq, st);
    MPI_Type_free(&column);
    MPI_Finalize();
    return 0;
}
