/* coll-inplace-bad.c fixed: the root of the MPI_Igather sends 4 MPI_INT
 * (its receive piece); the root of the MPI_Iscatter receives in place
 * (its receive count and type are not significant then); and an
 * MPI_Iallgather in place at every rank, with send counts of 0.
 *
 * Events: 0 MPI_Init, 1 MPI_Comm_rank, 2 MPI_Comm_set_errhandler,
 * 3 MPI_Igather, 4 MPI_Wait, 5 MPI_Iscatter, 6 MPI_Wait,
 * 7 MPI_Iallgather, 8 MPI_Wait, 9 MPI_Finalize.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, buf[8] = {1, 2, 3, 4, 5, 6, 7, 8}, all[8];
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Igather(buf, 4, MPI_INT, all, 4, MPI_INT, 0, MPI_COMM_WORLD, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    if (rank == 0)
        MPI_Iscatter(buf, 4, MPI_INT, MPI_IN_PLACE, 4, MPI_FLOAT, 0,
                     MPI_COMM_WORLD, &r);
    else
        MPI_Iscatter(buf, 0, MPI_INT, all, 4, MPI_INT, 0, MPI_COMM_WORLD,
                     &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    all[rank] = rank;
    MPI_Iallgather(MPI_IN_PLACE, 0, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD,
                   &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
