/* coll.signature planted in the root's own piece, which only a buffer
 * address tells from MPI_IN_PLACE (the records of calls that start a
 * request carry their buffers' addresses), 2 ranks, each collective
 * completing:
 *   MPI_Igather (root 0): the root's send piece is not in place, 2
 *   MPI_INT where its receive piece is 4 (16 bytes against 8);
 *   MPI_Iscatter (root 0): the root's receive piece is not in place, 4
 *   MPI_FLOAT where its send piece is 4 MPI_INT (the same bytes, another
 *   signature).
 *
 * Events: 0 MPI_Init, 1 MPI_Comm_rank, 2 MPI_Comm_set_errhandler,
 * 3 MPI_Igather, 4 MPI_Wait, 5 MPI_Iscatter, 6 MPI_Wait, 7 MPI_Finalize.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, buf[8] = {1, 2, 3, 4, 5, 6, 7, 8}, all[8];
    float f[4];
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Igather(buf, rank ? 4 : 2, MPI_INT, all, 4, MPI_INT, 0,
                MPI_COMM_WORLD, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    if (rank == 0)
        MPI_Iscatter(buf, 4, MPI_INT, f, 4, MPI_FLOAT, 0, MPI_COMM_WORLD, &r);
    else
        MPI_Iscatter(buf, 0, MPI_INT, all, 4, MPI_INT, 0, MPI_COMM_WORLD,
                     &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
