/* p2p.truncate planted: rank 0 sends 8 MPI_INT twice; rank 1 receives the
 * first into 4 MPI_INT and the second into an indexed type of 3 MPI_INT
 * (whose size the log does not hold: the receive's MPI_ERR_TRUNCATE says
 * it). Under MPI_ERRORS_RETURN both receives return MPI_ERR_TRUNCATE.
 *
 * Events: both 0 MPI_Init, 1 MPI_Comm_rank, 2 MPI_Comm_set_errhandler;
 * rank 0: 3 MPI_Send (tag 1), 4 MPI_Send (tag 2); rank 1:
 * 3 MPI_Type_indexed, 4 MPI_Type_commit, 5 MPI_Recv (tag 1),
 * 6 MPI_Recv (tag 2).
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, buf[16] = {0}, blen[2] = {1, 2}, disp[2] = {0, 4};
    MPI_Datatype ix;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 0) {
        MPI_Send(buf, 8, MPI_INT, 1, 1, MPI_COMM_WORLD);
        MPI_Send(buf, 8, MPI_INT, 1, 2, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Type_indexed(2, blen, disp, MPI_INT, &ix);
        MPI_Type_commit(&ix);
        MPI_Recv(buf, 4, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(buf, 1, ix, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
