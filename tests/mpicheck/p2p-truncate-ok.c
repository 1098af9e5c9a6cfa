/* The twin of p2p-truncate-bad.c: the receives have room (8 MPI_INT, an
 * indexed type of 8 MPI_INT, twice); p2p.* find nothing.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, buf[16] = {0}, out[8] = {0}, blen[2] = {4, 4}, disp[2] = {0, 4};
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
        MPI_Recv(buf, 8, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(buf, 1, ix, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Irecv(buf, 1, ix, 0, 3, MPI_COMM_WORLD, &rq[0]);
        MPI_Irecv(buf + 8, 8, MPI_INT, 1, 4, MPI_COMM_WORLD, &rq[1]);
        MPI_Send(out, 8, MPI_INT, 1, 4, MPI_COMM_WORLD); /* to itself */
        MPI_Waitall(2, rq, st);
    }
    MPI_Finalize();
    return 0;
}
