/* p2p.truncate planted: rank 0 sends 8 MPI_INT three times; rank 1
 * receives the first into 4 MPI_INT, the second and third into an indexed
 * type of 3 MPI_INT (whose size the log does not hold: the completion's
 * MPI_ERR_TRUNCATE says it), the third by MPI_Irecv completed in an
 * MPI_Waitall with a good receive (MPI_ERR_IN_STATUS, the truncation in
 * its status). Under MPI_ERRORS_RETURN the program goes on.
 *
 * Events: both 0 MPI_Init, 1 MPI_Comm_rank, 2 MPI_Comm_set_errhandler;
 * rank 0: 3, 4, 5 MPI_Send (tags 1, 2, 3); rank 1: 3 MPI_Type_indexed,
 * 4 MPI_Type_commit, 5 MPI_Recv (tag 1), 6 MPI_Recv (tag 2), 7 MPI_Irecv
 * (tag 3), 8 MPI_Irecv (tag 4, from itself), 9 MPI_Send (tag 4, 8 MPI_INT
 * to itself: fits), 10 MPI_Waitall.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, buf[16] = {0}, out[8] = {0}, blen[2] = {1, 2}, disp[2] = {0, 4};
    MPI_Datatype ix;
    MPI_Request rq[2];
    MPI_Status st[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 0) {
        MPI_Send(buf, 8, MPI_INT, 1, 1, MPI_COMM_WORLD);
        MPI_Send(buf, 8, MPI_INT, 1, 2, MPI_COMM_WORLD);
        MPI_Send(buf, 8, MPI_INT, 1, 3, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Type_indexed(2, blen, disp, MPI_INT, &ix);
        MPI_Type_commit(&ix);
        MPI_Recv(buf, 4, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(buf, 1, ix, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Irecv(buf, 1, ix, 0, 3, MPI_COMM_WORLD, &rq[0]);
        MPI_Irecv(buf + 8, 8, MPI_INT, 1, 4, MPI_COMM_WORLD, &rq[1]);
        MPI_Send(out, 8, MPI_INT, 1, 4, MPI_COMM_WORLD); /* to itself */
        MPI_Waitall(2, rq, st);
    }
    MPI_Finalize();
    return 0;
}
